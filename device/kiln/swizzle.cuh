// kiln::dev::swizzle — the Hopper shared-memory swizzle modes (32B/64B/128B).
//
// TMA writes, and wgmma reads, tiles whose 16-byte chunks are XOR-permuted within each row of
// `Bytes` bytes: chunk c of row r lands at chunk c ^ (r % (Bytes/16)) (rows counted in units of
// `Bytes`). One place describes that permutation for all three users: TMA descriptors
// (tensor_map_swizzle), wgmma descriptors (wgmma_layout_type) and ordinary ld/st (offset).
#pragma once
#include "kiln/cstdint.cuh"

namespace kiln::dev::swizzle {

enum class Mode : int { None = 0, B32 = 32, B64 = 64, B128 = 128 };

/// Bytes in one swizzled row (the span of elements contiguous along the leading dimension).
template <Mode M>
inline constexpr int row_bytes = M == Mode::None ? 16 : static_cast<int>(M);

/// Elements of T per swizzled row: the largest inner TMA box dimension for this mode.
template <Mode M, class T>
inline constexpr int row_elems = row_bytes<M> / static_cast<int>(sizeof(T));

/// The wgmma descriptor "layout type" field (bits 62-63) for this mode.
template <Mode M>
inline constexpr uint64_t wgmma_layout_type = M == Mode::B128 ? 1 : M == Mode::B64 ? 2
                                              : M == Mode::B32  ? 3
                                                                : 0;

/// Required smem alignment of a swizzled tile (the repeat period of the pattern).
template <Mode M>
inline constexpr int alignment = M == Mode::None ? 16 : 8 * row_bytes<M>;

/// Byte offset of (row, byte_in_row) inside a tile of rows of row_bytes<M> bytes, swizzled.
template <Mode M>
__host__ __device__ constexpr uint32_t offset(uint32_t row, uint32_t byte_in_row) {
    if constexpr (M == Mode::None) {
        return row * 16u + byte_in_row;
    } else {
        constexpr uint32_t chunks = row_bytes<M> / 16;  // 16-byte chunks per row: 2, 4 or 8
        uint32_t chunk = (byte_in_row / 16u) ^ (row % chunks);
        return row * row_bytes<M> + chunk * 16u + byte_in_row % 16u;
    }
}

}  // namespace kiln::dev::swizzle
