#pragma once
// The epilogue through shared memory and the TMA: each compute warpgroup writes its 64 x N
// accumulator tile, converted to 16 bits, into a 128B-swizzled staging buffer of its own (64 rows
// x 128 columns: two 64-column panels) and one thread stores each panel with a TMA tile store, in
// rounds of 128 columns. The stores are asynchronous, so they drain while the warpgroup starts
// its next tile's wgmmas; a round first waits until the previous one has finished reading the
// buffer (bulk-group read wait). Ragged edge tiles are clipped by the TMA. Compared with direct
// stores (4-byte pairs scattered over 8 rows per warp instruction) the global writes are whole
// 128-byte lines and leave the critical path.
#include "codegen/code_writer.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kiln::codegen {

struct AccumulatorStore;

// A TMA store tensor map over one GLOBAL tensor: boxes of 64 x 64 (innermost first, then 1 in
// every leading dimension), 128B swizzle.
struct TmaStoreMap {
    std::vector<uint32_t> box;
};
using TmaStores = std::map<std::string, TmaStoreMap>; // by the stored tensor's name

inline constexpr int64_t kStagingBytesPerWarpgroup = 64 * 128 * 2;
inline constexpr int kFirstStagingBarrier = 2; // 0: __syncthreads, 1: all compute warps

// The store can go through the TMA: 16-bit elements, a tile width that is a multiple of 64, and
// rows whose byte length is a multiple of 16 (the TMA's stride rule).
bool tma_storable(const AccumulatorStore& st);
TmaStoreMap tma_store_map(const AccumulatorStore& st);

// Emits the store; the kernel names the staging buffers `staging_smem` (one per warpgroup, in
// warpgroup order) and the tensor map `tm_<tensor>`.
void emit_tma_store(CodeWriter& w, const AccumulatorStore& st);

} // namespace kiln::codegen
