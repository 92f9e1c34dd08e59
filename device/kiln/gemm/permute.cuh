// kiln::gemm::permute_tensor — copies a dense tensor into another order of its modes: the copy
// contract() makes of an operand whose layout the GEMM's views cannot read (contract_plan.h).
//
// Two kernels, both moving whole runs of the contiguous modes:
//   - when source and destination share their contiguous mode, a gather along the destination,
//     W elements (16 bytes) per thread where the run allows;
//   - otherwise a tiled transpose of the two contiguous modes through shared memory, the other
//     modes indexing tiles; with even extents each thread moves element pairs (4 bytes), so a
//     warp reads and writes 128-byte rows where the runs are that long.
// Bandwidth matters: the copy sits before a GEMM that takes ~4x its time (bench/NOTES.md, v14).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <cuda_runtime.h>
#include "kiln/gemm/contract_plan.h"

namespace kiln::gemm::permute {

constexpr int kMaxModes = 8;

/// The destination's modes of extent > 1, inner first: extents, source and destination strides
/// (elements). `inner` is the position of the source's contiguous mode among them (0: the
/// destination's).
struct Modes {
    int rank = 0, inner = 0;
    int64_t ext[kMaxModes] = {}, src[kMaxModes] = {}, dst[kMaxModes] = {};
};

/// Source and destination offsets of index i over the modes other than skip0 and skip1 (mixed
/// radix, inner first).
__device__ __forceinline__ void rest_offsets(const Modes& m, int64_t i, int skip0, int skip1,
                                             int64_t& src, int64_t& dst) {
    src = dst = 0;
    for (int k = 0; k < m.rank; ++k) {
        if (k == skip0 || k == skip1) continue;
        const int64_t x = i % m.ext[k];
        i /= m.ext[k];
        src += x * m.src[k];
        dst += x * m.dst[k];
    }
}

/// A vector of W elements of T moved as one access.
template <class T, int W>
struct alignas(sizeof(T) * W) Vec {
    T v[W];
};

/// Shared contiguous mode: each thread moves W consecutive elements of it (m.ext[0] % W == 0,
/// both pointers aligned to W elements), destination order.
template <class T, int W>
__global__ void gather_kernel(const T* __restrict__ src, T* __restrict__ dst, Modes m,
                              int64_t vectors) {
    // (m stays unmodified: a written kernel parameter is copied to a local-memory frame)
    const int64_t run = m.ext[0] / W;  // vectors along mode 0
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < vectors;
         i += int64_t(gridDim.x) * blockDim.x) {
        int64_t s, d;
        rest_offsets(m, i / run, 0, -1, s, d);
        const int64_t x = (i % run) * W;
        *reinterpret_cast<Vec<T, W>*>(dst + d + x) =
            *reinterpret_cast<const Vec<T, W>*>(src + s + x);
    }
}

constexpr int kThreadsX = 32, kThreadsY = 8;

/// Different contiguous modes: a Tile x Tile block (Tile = 32 W) over (destination mode 0, the
/// source's contiguous mode `inner`) per iteration, read W source-contiguous elements per thread
/// and written W destination-contiguous ones. W = 2 needs both extents even and 4-byte aligned
/// pointers (every other stride is then even too). Block: 32 x 8 threads.
template <class T, int W>
__global__ void transpose_kernel(const T* __restrict__ src, T* __restrict__ dst, Modes m,
                                 int64_t tiles_d, int64_t tiles_s, int64_t total_tiles) {
    constexpr int Tile = kThreadsX * W;
    // +2 elements: keeps W = 2 rows 4-byte aligned and spreads a column over the banks
    __shared__ alignas(16) T tile[Tile][Tile + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t e0 = m.ext[0], es = m.ext[m.inner];
    const int64_t s0 = m.src[0], ds = m.dst[m.inner];
    for (int64_t t = blockIdx.x; t < total_tiles; t += gridDim.x) {
        const int64_t td = t % tiles_d, ts = (t / tiles_d) % tiles_s, rest = t / tiles_d / tiles_s;
        int64_t so, dof;
        rest_offsets(m, rest, 0, m.inner, so, dof);
        const int64_t is = ts * Tile + W * tx;  // this thread's source-contiguous elements
        for (int r = ty; r < Tile; r += kThreadsY) {  // r along destination mode 0
            const int64_t i0 = td * Tile + r;
            if (i0 < e0 && is < es)
                *reinterpret_cast<Vec<T, W>*>(&tile[r][W * tx]) =
                    *reinterpret_cast<const Vec<T, W>*>(src + so + i0 * s0 + is);
        }
        __syncthreads();
        const int64_t i0 = td * Tile + W * tx;  // this thread's destination-contiguous elements
        for (int r = ty; r < Tile; r += kThreadsY) {  // r along the source's contiguous mode
            const int64_t j = ts * Tile + r;
            if (i0 < e0 && j < es) {
                Vec<T, W> v;
#pragma unroll
                for (int w = 0; w < W; ++w) v.v[w] = tile[W * tx + w][r];
                *reinterpret_cast<Vec<T, W>*>(dst + dof + j * ds + i0) = v;
            }
        }
        __syncthreads();
    }
}

/// The Modes of copying tensor `from` into the mode order `to` (a permutation of it). False when
/// there are more than kMaxModes modes of extent > 1.
inline bool make_modes(const std::string& from, const std::string& to, const int* ext, Modes& m) {
    m = Modes{};
    for (int i = int(to.size()) - 1; i >= 0; --i) {
        const char c = to[i];
        if (ext[c - 'a'] == 1) continue;
        if (m.rank == kMaxModes) return false;
        m.ext[m.rank] = ext[c - 'a'];
        m.src[m.rank] = gett::mode_stride(from, c, ext);
        m.dst[m.rank] = gett::mode_stride(to, c, ext);
        if (m.src[m.rank] == 1) m.inner = m.rank;
        ++m.rank;
    }
    if (m.rank == 0) m.rank = 1, m.ext[0] = 1, m.src[0] = m.dst[0] = 1;  // a single element
    return true;
}

inline bool aligned(const void* p, int64_t bytes) {
    return reinterpret_cast<uintptr_t>(p) % bytes == 0;
}

template <class T, int W>
void launch_gather(const T* src, T* dst, const Modes& m, int64_t total, cudaStream_t stream) {
    const int64_t vectors = total / W;
    const int64_t blocks = std::min<int64_t>((vectors + 255) / 256, 8192);  // grid-stride beyond
    gather_kernel<T, W><<<unsigned(blocks), 256, 0, stream>>>(src, dst, m, vectors);
}

template <class T, int W>
void launch_transpose(const T* src, T* dst, const Modes& m, int64_t total, cudaStream_t stream) {
    constexpr int Tile = kThreadsX * W;
    const int64_t tiles_d = (m.ext[0] + Tile - 1) / Tile;
    const int64_t tiles_s = (m.ext[m.inner] + Tile - 1) / Tile;
    const int64_t tiles = tiles_d * tiles_s * (total / m.ext[0] / m.ext[m.inner]);
    transpose_kernel<T, W><<<unsigned(std::min<int64_t>(tiles, 8192)),
                             dim3(kThreadsX, kThreadsY), 0, stream>>>(src, dst, m, tiles_d,
                                                                      tiles_s, tiles);
}

/// Copies dense tensor `src` (modes `from`) to `dst` (modes `to`), asynchronously on `stream`.
/// T: a 2-byte element type (the copy moves bits).
template <class T>
cudaError_t permute_tensor(const T* src, const std::string& from, T* dst, const std::string& to,
                           const int* ext, cudaStream_t stream) {
    static_assert(sizeof(T) == 2, "16-bit elements");
    Modes m;
    if (from.size() != to.size() || !make_modes(from, to, ext, m)) return cudaErrorInvalidValue;
    const int64_t total = gett::elements(to, ext);
    if (total == 0) return cudaSuccess;
    if (m.inner == 0) {
        if (m.ext[0] % 8 == 0 && aligned(src, 16) && aligned(dst, 16))
            launch_gather<T, 8>(src, dst, m, total, stream);
        else
            launch_gather<T, 1>(src, dst, m, total, stream);
    } else if (m.ext[0] % 2 == 0 && m.ext[m.inner] % 2 == 0 && aligned(src, 4) &&
               aligned(dst, 4)) {
        launch_transpose<T, 2>(src, dst, m, total, stream);
    } else {
        launch_transpose<T, 1>(src, dst, m, total, stream);
    }
    return cudaGetLastError();
}

}  // namespace kiln::gemm::permute
