// kiln::gemm::detail::stream_scratch — the device buffers the host API keeps for its callers
// (the sm90 kernel's split-K counters and partials), so that gemmEx needs no workspace argument.
//
// One buffer per (use, device, stream): launches on one stream run one after another, so they
// can share it; launches on two streams may overlap, so they cannot. A buffer is zeroed when it
// is allocated (the split-K counters start at zero and every completed launch leaves them so),
// grows when a larger problem needs more, and lives as long as the process.
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
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

/// Replaces `b` with a zeroed allocation of `bytes`; false (b empty) when CUDA refuses.
bool grow(Buffer& b, int64_t bytes, cudaStream_t stream) {
    if (b.ptr) {
        // earlier launches on this stream may still read the old buffer
        if (cudaStreamSynchronize(stream) != cudaSuccess) return false;
        cudaFree(b.ptr);
        b = {};
    }
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    if (cudaMemsetAsync(p, 0, bytes, stream) != cudaSuccess) {
        cudaFree(p);
        return false;
    }
    b = {p, bytes};
    return true;
}

}  // namespace

void* stream_scratch(Scratch which, int64_t bytes, cudaStream_t stream) {
    static std::mutex mutex;
    static std::map<std::tuple<Scratch, int, cudaStream_t>, Buffer> buffers;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    Buffer& b = buffers[{which, device, stream}];
    if (b.bytes >= bytes) return b.ptr;
    if (capturing(stream) || !grow(b, bytes, stream)) return nullptr;
    return b.ptr;
}

}  // namespace kiln::gemm::detail
