// kiln::gemm views — how the sm90 kernel sees its operands and its output when they are not
// plain matrices: transposed (MN-major) operands and GETT tensors viewed as matrices by index
// groups (GemmKernels §4.2.2 "tensor layouts", done by the TMA unit instead of by index math).
//
// An operand (A: rows = M, B: rows = N) has up to two row modes and up to two K modes, inner
// first, and a batch stride. Flattened indices are mixed-radix, inner mode fastest:
//   row m -> (m % rows[0], m / rows[0]),   k -> (k % ks[0], k / ks[0])
// One of the two inner modes is contiguous (stride 1): K-major when it is the K mode (the
// BLAS "A not transposed" case), MN-major when it is the row mode (transposed A; B stored K x N).
// The output D has up to two row modes and two column modes the same way.
//
// Plain C++ (no CUDA): host code builds these; the kernel receives the reduced device forms.
#pragma once
#include <climits>
#include <cstdint>

namespace kiln::gemm {

struct OperandView {
    const void* ptr = nullptr;
    int rows[2] = {1, 1};
    int64_t row_stride[2] = {0, 0};  // elements
    int ks[2] = {1, 1};
    int64_t k_stride[2] = {0, 0};
    int64_t batch_stride = 0;  // 0 with batch > 1: the same operand for every batch
    bool mn_major = false;     // rows contiguous (row_stride[0] == 1), else K contiguous
    // Each tile of it is loaded by CTAs that run together and never again, and it outgrows the
    // L2: the sm90 kernel's loads of it evict first (launch_sm90.cuh, choose_l2_hints).
    bool read_once = false;

    /// Whether the sm90 kernel loads a k-block of a tile in one TMA box (K-major, one row mode)
    /// rather than in 64-row chunks (launch_sm90.cuh); fill widths that are not whole chunks
    /// need it (params.h, fill_tile_n).
    constexpr bool one_box() const { return !mn_major && rows[1] == 1; }

    /// A dense matrix: `rows` x `k` with leading dimension `ld`; mn_major = stored K x rows.
    static constexpr OperandView matrix(const void* p, int rows, int k, int64_t ld,
                                        bool mn_major, int64_t batch_stride) {
        OperandView v;
        v.ptr = p;
        v.rows[0] = rows;
        v.ks[0] = k;
        v.row_stride[0] = mn_major ? 1 : ld;
        v.k_stride[0] = mn_major ? ld : 1;
        v.batch_stride = batch_stride;
        v.mn_major = mn_major;
        return v;
    }
};

/// The shape rules the sm90 kernel puts on an operand view of `elem_bytes`-byte elements
/// (launch_sm90.cuh's make_operand_map; the planners check them before choosing a layout): the
/// contiguous mode first, strides multiples of 16 bytes, a two-mode group's inner extent a
/// multiple of the 64-row chunk or of the 128-byte k-block (neither may straddle an outer
/// index), and 8-bit operands K-major (wgmma has no transpose for them).
inline bool sm90_view_ok(const OperandView& v, int elem_bytes) {
    if (v.mn_major ? v.row_stride[0] != 1 : v.k_stride[0] != 1) return false;
    if (v.rows[0] < 1 || v.rows[1] < 1 || v.ks[0] < 1 || v.ks[1] < 1) return false;
    if (v.rows[1] > 1 && v.rows[0] % 64 != 0) return false;
    if (v.ks[1] > 1 && v.ks[0] % (128 / elem_bytes) != 0) return false;
    if (elem_bytes == 1 && v.mn_major) return false;
    const int64_t per16 = 16 / elem_bytes;
    const int64_t strides[4] = {v.mn_major ? v.k_stride[0] : v.row_stride[0], v.row_stride[1],
                                v.k_stride[1], v.batch_stride};
    const int64_t extents[4] = {v.mn_major ? v.ks[0] : v.rows[0], v.rows[1], v.ks[1],
                                v.batch_stride != 0 ? 2 : 1};
    for (int i = 0; i < 4; ++i)
        if (extents[i] > 1 && strides[i] % per16 != 0) return false;
    return true;
}

/// D element (row, col, batch) lives at
///   batch * batch_stride + (row % r0)*rs0 + (row / r0)*rs1 + (col % c0)*cs0 + (col / c0)*cs1.
/// A single mode has extent INT_MAX (so the division never happens).
struct OutView {
    int r0 = INT_MAX;
    int64_t rs0 = 0, rs1 = 0;
    int c0 = INT_MAX;
    int64_t cs0 = 1, cs1 = 0;
    int64_t batch_stride = 0;
    bool pair_ok = false;  // (col, col+1) adjacent and aligned for one 2-element store
    bool row_pair_ok = false;  // column-major: (row, row+1) adjacent and aligned likewise
    bool tma_store = false;  // plain 16-bit matrix: the kernel's TMA-store epilogue writes it

    static constexpr OutView matrix(int64_t ld, int64_t batch_stride) {
        OutView v;
        v.rs0 = ld;
        v.batch_stride = batch_stride;
        return v;
    }
    /// A column-major matrix, columns `ld` apart: a transposed product's D^T, whose columns are
    /// the rows of a row-major D with leading dimension ld.
    static constexpr OutView column_major(int64_t ld, int64_t batch_stride) {
        OutView v;
        v.rs0 = 1;
        v.cs0 = ld;
        v.batch_stride = batch_stride;
        return v;
    }
};

/// The direct store's pair flags of an output view at address `d` of `elem_bytes`-byte elements
/// (launch_sm90.cuh; kernel_sm90.cuh's store_direct): pair_ok where (col, col + 1) are adjacent
/// and every pair starts aligned for one 2-element store; row_pair_ok likewise for (row, row + 1)
/// in a column-major 16-bit output of one row and one column mode (a transposed product's D^T,
/// stored in row pairs), unless `column_pairs` is off (KILN_GEMM_COLUMN_PAIRS=0).
inline void set_store_pairs(OutView& dv, uintptr_t d, int elem_bytes, bool column_pairs) {
    const bool aligned = d % (2 * uintptr_t(elem_bytes)) == 0 && dv.batch_stride % 2 == 0;
    dv.pair_ok = aligned && dv.cs0 == 1 && (dv.c0 == INT_MAX || dv.c0 % 2 == 0) &&
                 dv.rs0 % 2 == 0 && dv.rs1 % 2 == 0 && dv.cs1 % 2 == 0;
    dv.row_pair_ok = column_pairs && aligned && elem_bytes == 2 && dv.rs0 == 1 &&
                     dv.r0 == INT_MAX && dv.c0 == INT_MAX && dv.cs0 % 2 == 0;
}

}  // namespace kiln::gemm
