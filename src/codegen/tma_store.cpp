#include "codegen/tma_store.h"

#include "codegen/leaf_lowering.h"
#include "ir/types.h"

#include <algorithm>

namespace kiln::codegen {

bool tma_storable(const AccumulatorStore& st) {
    const auto& g = *st.global;
    return ir::dtype_bytes(g.dtype) == 2 && st.columns() % 64 == 0 &&
           (g.shape.back() * 2) % 16 == 0;
}

TmaStoreMap tma_store_map(const AccumulatorStore& st) {
    TmaStoreMap m;
    m.box.assign(st.global->shape.size(), 1);
    m.box[0] = 64;
    m.box[1] = 64;
    return m;
}

void emit_tma_store(CodeWriter& w, const AccumulatorStore& st) {
    const auto& g = *st.global;
    const size_t rank = g.shape.size();
    const int64_t round_cols = std::min<int64_t>(128, st.columns());
    const int64_t rounds = st.columns() / round_cols, panels = round_cols / 64;
    const std::string& gv = st.warpgroup_var;
    std::vector<std::string> coords = {"col", st.piece.origin[rank - 2]};
    for (size_t d = rank - 2; d-- > 0;)
        coords.push_back(st.piece.origin[d]);
    w.line("// " + st.describe() + " through shared memory: " + std::to_string(rounds) + " x (" +
           std::to_string(round_cols) +
           " columns into this warpgroup's 128B-swizzled staging "
           "buffer, then TMA tile stores of 64 x 64); the TMA clips the ragged edges");
    w.line("uint8_t* const staging = staging_smem + " + gv + " * " +
           std::to_string(kStagingBytesPerWarpgroup) + ";");
    w.line("const int staging_barrier = " + std::to_string(kFirstStagingBarrier) + " + " + gv +
           ";");
    w.line("const int srow = kiln::dev::wgmma::accumulator_row(wg_thread, 0);");
    w.line("const int scol = kiln::dev::wgmma::accumulator_col(wg_thread, 0);");
    w.line("#pragma unroll");
    w.open("for (int round = 0; round < " + std::to_string(rounds) + "; ++round)");
    w.line("// the previous round's (or tile's) TMA stores finished reading the buffer");
    w.line("if (wg_thread == 0) kiln::dev::tma::store_wait_read<0>();");
    w.line("kiln::dev::named_barrier::sync(staging_barrier, 128);");
    w.line("#pragma unroll");
    w.open("for (int n8 = 0; n8 < " + std::to_string(round_cols / 8) + "; ++n8)");
    w.line("const int reg = 4 * (round * " + std::to_string(round_cols / 8) + " + n8);");
    w.line("const int c = 8 * n8 + scol;  // column in the round");
    w.line("uint8_t* const panel = staging + (c / 64) * 8192;");
    w.line("#pragma unroll");
    w.open("for (int h = 0; h < 2; ++h)");
    w.line("const uint32_t at = kiln::dev::swizzle::offset<kiln::dev::swizzle::Mode::B128>(srow + "
           "8 * h, (c % 64) * 2);");
    w.line("const float v0 = " + st.value("reg + 2 * h") + ", v1 = " + st.value("reg + 2 * h + 1") +
           ";");
    w.line(g.dtype == ir::DType::BF16
               ? "*reinterpret_cast<__nv_bfloat162*>(panel + at) = __floats2bfloat162_rn(v0, v1);"
               : "*reinterpret_cast<__half2*>(panel + at) = __floats2half2_rn(v0, v1);");
    w.close();
    w.close();
    w.line("kiln::dev::fence::proxy_async_shared();  // the generic-proxy writes, seen by the TMA");
    w.line("kiln::dev::named_barrier::sync(staging_barrier, 128);");
    w.open("if (wg_thread == 0)");
    w.open("for (int p = 0; p < " + std::to_string(panels) + "; ++p)");
    w.line("const int col = " + st.piece.origin[rank - 1] + " + round * " +
           std::to_string(round_cols) + " + p * 64;");
    w.line("const int32_t coords[" + std::to_string(rank) + "] = {" + join(coords, ", ") + "};");
    w.line("kiln::dev::tma::store(&tm_" + g.name + ", staging + p * 8192, coords);");
    w.close();
    w.line("kiln::dev::tma::store_commit();");
    w.close();
    w.close();
}

} // namespace kiln::codegen
