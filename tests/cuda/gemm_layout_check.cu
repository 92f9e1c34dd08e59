// Compile-time checks of the sm90 GEMM kernel's shared-memory layouts (tests/cuda/compile_check.sh
// builds this file; a failing check is a compile error naming the rule):
//   - staged_offset (store_staged.cuh): the 16-bit pairs of a warpgroup's 64 x 128 staging part
//     map one-to-one onto its two 64-column panels, and every warp store / load of one fragment
//     pair hits 32 distinct banks (the epilogue's writes of D and reads of staged C);
//   - Config's epilogue staging budget: which staging buffer each kernel shape gets and that it
//     fits the 227 KiB beside its ring;
//   - which kernels take the deferred store (store_deferred.cuh): the configs that can, the
//     epilogues that do, and their register split.
#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include "kiln/gemm/kernel_sm90.cuh"

namespace {

namespace sm90 = kiln::gemm::sm90;
using kiln::gemm::kAccBias;
using kiln::gemm::kStageC;
using kiln::gemm::stage_columns;
using T = __nv_bfloat16;

constexpr int kCols = 128, kPairs = 64 * kCols / 2;

/// Every (row, even col) of a 64 x 128 part lands on its own 4-byte slot inside two panels.
constexpr bool staged_pairs_are_distinct() {
    bool used[kPairs] = {};
    for (int row = 0; row < 64; ++row)
        for (int col = 0; col < kCols; col += 2) {
            const uint32_t at = sm90::staged_offset(row, col);
            if (at % 4 != 0 || at >= 2u * sm90::kPanelBytes || used[at / 4]) return false;
            used[at / 4] = true;
        }
    return true;
}

/// One warp's access to the pair of accumulator registers (4j + 2h, 4j + 2h + 1) of every lane
/// (the wgmma layout): 32 different banks.
constexpr bool fragment_accesses_conflict_free() {
    namespace wg = kiln::dev::wgmma;
    for (int w = 0; w < 4; ++w)
        for (int j = 0; j < kCols / 8; ++j)
            for (int h = 0; h < 2; ++h) {
                bool bank[32] = {};
                for (int l = 0; l < 32; ++l) {
                    const int t = 32 * w + l, i = 4 * j + 2 * h;
                    const int b =
                        sm90::staged_offset(wg::accumulator_row(t, i), wg::accumulator_col(t, i)) /
                        4 % 32;
                    if (bank[b]) return false;
                    bank[b] = true;
                }
            }
    return true;
}

static_assert(staged_pairs_are_distinct(), "staged_offset: two pairs share a slot");
static_assert(fragment_accesses_conflict_free(), "staged_offset: a warp access has bank conflicts");

// gemmEx's 128 x 256 linear kernels stage the bias: two panels no longer fit beside 4 stages.
using Linear256 = sm90::Config<T, T, 256, 4, 2, false, false, 1, false, stage_columns(1)>;
static_assert(Linear256::StagingPerConsumer == sm90::kPanelBytes, "one panel per store round");
// 128 x 128 ones keep both panels beside their 6 stages.
using Linear128 = sm90::Config<T, T, 128, 6, 1, false, false, 1, false, stage_columns(1)>;
static_assert(Linear128::StagingPerConsumer == sm90::kStagingBytes, "two panels per round");
// The chain kernels hold C's whole 64 x 256 part per consumer beside 3 stages.
using Chain = sm90::Config<T, T, 256, 3, 2, false, false, 1, false, stage_columns(2) | kStageC>;
static_assert(Chain::StagingPerConsumer == 64 * 256 * 2 && Chain::ColumnVectors == 2,
              "the chain's staging holds C's tile and two vectors");
static_assert(Linear256::SmemBytes <= 227 * 1024 && Linear128::SmemBytes <= 227 * 1024 &&
                  Chain::SmemBytes <= 227 * 1024,
              "shared memory budget");
// The bias + activation kernels start the accumulator from a 1 KiB bias slot (acc_bias.cuh)
// instead of staging the bias per consumer: that leaves room for the plain kernel's two panels
// beside 4 stages of 128 x 256, with nothing to spare.
using AccBias256 = sm90::Config<T, T, 256, 4, 2, false, false, 1, false, kAccBias>;
static_assert(AccBias256::AccBias && AccBias256::ColumnBytes == 0 &&
                  AccBias256::AccBiasBytes == 1024 &&
                  AccBias256::StagingPerConsumer == sm90::kStagingBytes &&
                  AccBias256::SmemBytes == 227 * 1024,
              "accumulator bias: two panels and the slot, exactly 227 KiB");
static_assert(AccBias256::StoreBuffers == 2 && AccBias256::CanDeferStore &&
                  AccBias256::DeferBuffers == 2,
              "accumulator bias: the plain kernel's two buffers, deferred");
using AccBias128 = sm90::Config<T, float, 128, 6, 1, false, false, 1, false, kAccBias>;
static_assert(AccBias128::AccBiasBytes == 512 && AccBias128::SmemBytes <= 227 * 1024,
              "accumulator bias at BN = 128");
// Unstaged kernels are unchanged: two panels, no vectors.
using Plain = sm90::Config<T, T, 256, 4, 2>;
static_assert(Plain::StagingPerConsumer == sm90::kStagingBytes && Plain::ColumnBytes == 0,
              "the plain kernel's layout");
// Store rounds (store_staged.cuh): the plain kernel's two panels are two buffers in turn; one
// panel, staged C and split-K kernels (which spilled with two buffers) keep a single buffer.
static_assert(Plain::StoreBuffers == 2 && Plain::StoreRound == 1, "plain: two buffers in turn");
static_assert(Linear128::StoreBuffers == 2 && Linear128::StoreRound == 1,
              "128 x 128 linear: two buffers in turn");
static_assert(Linear256::StoreBuffers == 1 && Linear256::StoreRound == 1,
              "128 x 256 linear: one panel, one buffer");
static_assert(Chain::StoreBuffers == 1 && Chain::StoreRound == 4, "staged C: one round");
using Split = sm90::Config<T, T, 256, 4, 1, false, false, 1, true>;
static_assert(Split::StoreBuffers == 1 && Split::StoreRound == 2, "split-K: one buffer");
// BN = 192: three panels do not pair up.
using Plain192 = sm90::Config<T, T, 192, 4, 1>;
static_assert(Plain192::StoreBuffers == 1, "an odd number of panels: one buffer");
// The deferred store: a tile's panels leave one per k-block through the staging panels as
// buffers in turn; staged C (the next tile's C lands in the staging buffer), split-K (the
// fix-up), two staged vectors (they spilled), fp32 outputs (no staging), tiles other than
// 128 x 256 (the 128 x 128 kernels measured slower with it) and 8-bit inputs (not measured)
// cannot defer.
static_assert(Plain::CanDeferStore && Plain::DeferBuffers == 2, "plain: deferred, two buffers");
static_assert(Linear256::CanDeferStore && Linear256::DeferBuffers == 1,
              "128 x 256 linear: deferred through its one panel");
static_assert(!Linear128::CanDeferStore && !sm90::Config<T, T, 128, 6, 1>::CanDeferStore,
              "128 x 128 tiles: not deferred");
static_assert(!Chain::CanDeferStore && !Split::CanDeferStore,
              "staged C and split-K: not deferred");
static_assert(
    !sm90::Config<T, T, 256, 3, 2, false, false, 1, false, stage_columns(2)>::CanDeferStore,
    "two staged vectors (the chain kernels without staged C): not deferred");
static_assert(!sm90::Config<T, float, 256, 4, 1>::CanDeferStore, "fp32 outputs: not deferred");
static_assert(!Plain192::CanDeferStore, "192-wide tiles: not deferred");
static_assert(!sm90::Config<__nv_fp8_e4m3, T, 256, 4, 2>::CanDeferStore,
              "8-bit inputs: not deferred");
// Of the configs that can, the kernels whose epilogue was measured faster with it do (the copy,
// bias + GELU and bias + ReLU); the unmeasured epilogues keep the pipelined rounds. A deferred
// kernel's consumers get 240 registers, its producer 24; the others keep 232 / 40.
using kiln::gemm::Activation;
using PlainPlan = sm90::StorePlan<Plain, kiln::gemm::EpilogueCopy>;
using GeluPlan = sm90::StorePlan<AccBias256, kiln::gemm::EpilogueBiasAct<Activation::GELU>>;
using ReluPlan = sm90::StorePlan<AccBias256, kiln::gemm::EpilogueBiasAct<Activation::ReLU>>;
using LinearPlan = sm90::StorePlan<Linear256, kiln::gemm::EpilogueLinear<T, Activation::GELU>>;
using SplitPlan = sm90::StorePlan<Split, kiln::gemm::EpilogueCopy>;
static_assert(PlainPlan::DeferStore && GeluPlan::DeferStore && ReluPlan::DeferStore,
              "copy, bias + GELU and bias + ReLU: deferred");
static_assert(!LinearPlan::DeferStore, "EpilogueLinear: pipelined rounds");
static_assert(!SplitPlan::DeferStore, "a config that cannot defer does not, whatever its epilogue");
static_assert(PlainPlan::ConsumerRegs == 240 && PlainPlan::ProducerRegs == 24 &&
                  LinearPlan::ConsumerRegs == 232 && LinearPlan::ProducerRegs == 40,
              "register split: deferred kernels give the consumers 8 more");
// Only bias + ReLU leaves its activation to the 16-bit pack (cvt.rn.relu).
static_assert(kiln::gemm::relu_in_pack<kiln::gemm::EpilogueBiasAct<Activation::ReLU>> &&
                  !kiln::gemm::relu_in_pack<kiln::gemm::EpilogueBiasAct<Activation::GELU>> &&
                  !kiln::gemm::relu_in_pack<kiln::gemm::EpilogueLinear<T, Activation::ReLU>>,
              "ReLU in the pack: EpilogueBiasAct<ReLU> only");

}  // namespace
