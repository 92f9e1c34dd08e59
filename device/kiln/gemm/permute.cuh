// kiln::gemm::permute_tensor — copies a dense tensor into another order of its modes: the copy
// contract() makes of an operand whose layout the GEMM's views cannot read (contract_plan.h).
//
// Two kernels, both reading and writing whole 32-element runs:
//   - when source and destination share their contiguous mode, a gather along the destination;
//   - otherwise a tiled transpose of the two contiguous modes through shared memory, the other
//     modes indexing tiles.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <cuda_runtime.h>
#include "kiln/gemm/contract_plan.h"

namespace kiln::gemm::permute {

constexpr int kMaxModes = 8;

/// The destination's modes of extent > 1, inner first: extents, source and destination strides.
/// `inner` is the position of the source's contiguous mode among them (0: the destination's).
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

/// Shared contiguous mode: destination element i (in order) from its source offset.
template <class T>
__global__ void gather_kernel(const T* __restrict__ src, T* __restrict__ dst, Modes m,
                              int64_t total) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
         i += int64_t(gridDim.x) * blockDim.x) {
        int64_t s, d;
        rest_offsets(m, i, -1, -1, s, d);
        dst[d] = src[s];
    }
}

constexpr int kTile = 32, kRowsPerPass = 8;

/// Different contiguous modes: a 32 x 32 tile over (destination mode 0, source mode `inner`) per
/// block iteration, read along the source's contiguous mode and written along the
/// destination's. Block: 32 x 8 threads.
template <class T>
__global__ void transpose_kernel(const T* __restrict__ src, T* __restrict__ dst, Modes m,
                                 int64_t tiles_d, int64_t tiles_s, int64_t total_tiles) {
    __shared__ T tile[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t e0 = m.ext[0], es = m.ext[m.inner];
    for (int64_t t = blockIdx.x; t < total_tiles; t += gridDim.x) {
        const int64_t td = t % tiles_d, ts = (t / tiles_d) % tiles_s, rest = t / tiles_d / tiles_s;
        int64_t so, dof;
        rest_offsets(m, rest, 0, m.inner, so, dof);
        for (int r = ty; r < kTile; r += kRowsPerPass) {  // r along destination mode 0
            const int64_t i0 = td * kTile + r, is = ts * kTile + tx;
            if (i0 < e0 && is < es) tile[r][tx] = src[so + i0 * m.src[0] + is];
        }
        __syncthreads();
        for (int r = ty; r < kTile; r += kRowsPerPass) {  // r along the source's contiguous mode
            const int64_t i0 = td * kTile + tx, is = ts * kTile + r;
            if (i0 < e0 && is < es) dst[dof + is * m.dst[m.inner] + i0] = tile[tx][r];
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
    return true;
}

/// Copies dense tensor `src` (modes `from`) to `dst` (modes `to`), asynchronously on `stream`.
template <class T>
cudaError_t permute_tensor(const T* src, const std::string& from, T* dst, const std::string& to,
                           const int* ext, cudaStream_t stream) {
    Modes m;
    if (from.size() != to.size() || !make_modes(from, to, ext, m)) return cudaErrorInvalidValue;
    const int64_t total = gett::elements(to, ext);
    if (total == 0) return cudaSuccess;
    constexpr int64_t kMaxBlocks = 8192;  // grid-stride beyond this
    if (m.inner == 0) {  // includes rank 0 and 1: a plain copy
        const int64_t blocks = std::min<int64_t>((total + 255) / 256, kMaxBlocks);
        gather_kernel<T><<<unsigned(blocks), 256, 0, stream>>>(src, dst, m, total);
    } else {
        const int64_t tiles_d = (m.ext[0] + kTile - 1) / kTile;
        const int64_t tiles_s = (m.ext[m.inner] + kTile - 1) / kTile;
        const int64_t tiles = tiles_d * tiles_s * (total / m.ext[0] / m.ext[m.inner]);
        transpose_kernel<T><<<unsigned(std::min(tiles, kMaxBlocks)), dim3(kTile, kRowsPerPass), 0,
                              stream>>>(src, dst, m, tiles_d, tiles_s, tiles);
    }
    return cudaGetLastError();
}

}  // namespace kiln::gemm::permute
