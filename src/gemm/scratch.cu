// kiln::gemm::detail::stream_scratch — the device buffers the host API keeps for its callers
// (the sm90 kernel's split-K counters and partials), so that gemmEx needs no workspace argument.
//
// One buffer per (use, device, stream): launches on one stream run one after another, so they
// can share it; launches on two streams may overlap, so they cannot. A buffer is zeroed when it
// is allocated (the split-K counters start at zero and every completed launch leaves them so)
// and grows when a larger problem needs more. An outgrown buffer is kept, not freed: a graph
// captured while it was current still launches kernels that use it. So every buffer lives as
// long as the process (growth at least doubles, so the kept ones add at most as much again), and
// a graph that captured split-K launches must not be replayed while other work uses its capture
// stream's buffers (on that stream, or another replay of a graph captured on it).
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>
#include <cuda_runtime.h>
#include "dispatch.h"

namespace kiln::gemm::detail {

namespace {

struct Buffer {
    void* ptr = nullptr;
    int64_t bytes = 0;
};

/// True while `stream` is being captured into a graph (or when that cannot be asked): no
/// allocation may happen then.
bool capturing(cudaStream_t stream) {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
        cudaGetLastError();
        return true;
    }
    return status != cudaStreamCaptureStatusNone;
}

/// Replaces `b` with a zeroed allocation of at least `bytes` (and twice its old size); the old
/// allocation goes to `kept` (see above). False (b unchanged) when CUDA refuses.
bool grow(Buffer& b, int64_t bytes, cudaStream_t stream, std::vector<void*>& kept) {
    if (bytes < 2 * b.bytes) bytes = 2 * b.bytes;
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    if (cudaMemsetAsync(p, 0, bytes, stream) != cudaSuccess) {
        cudaFree(p);
        return false;
    }
    if (b.ptr) kept.push_back(b.ptr);
    b = {p, bytes};
    return true;
}

}  // namespace

void* stream_scratch(Scratch which, int64_t bytes, cudaStream_t stream) {
    static std::mutex mutex;
    static std::map<std::tuple<Scratch, int, cudaStream_t>, Buffer> buffers;
    static std::vector<void*> kept;  // outgrown buffers, never freed
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    Buffer& b = buffers[{which, device, stream}];
    if (b.bytes >= bytes) return b.ptr;
    if (capturing(stream) || !grow(b, bytes, stream, kept)) return nullptr;
    return b.ptr;
}

}  // namespace kiln::gemm::detail
