// Compile-time checks of gemmEx's epilogue choice on the sm90 kernel (src/gemm/sm90_impl.cuh's
// epilogue_kind) and of the clusters a launch may take (dispatch.h); tests/cuda/compile_check.sh
// builds this file, a failing row is a compile error.
// The rule that matters most: a call with C (beta != 0) or a row bias never reaches
// EpilogueBiasAct, which reads neither, and neither does a column bias that cannot start the
// accumulator (acc_bias.cuh: misaligned for TMA, or |alpha| < 1, where bias / alpha could
// overflow), nor a GELU whose alpha its folded constants cannot hold (epilogue.cuh).
#include "../../src/gemm/few_rows.cuh"
#include "../../src/gemm/short_rows.cuh"
#include "../../src/gemm/sm90_impl.cuh"

namespace {

using kiln::gemm::Activation;
using kiln::gemm::BiasMode;
using kiln::gemm::detail::epilogue_kind;
using Kind = kiln::gemm::detail::EpilogueKind;

struct Row {
    float alpha, beta;
    bool bias;
    BiasMode mode;
    Activation act;
    bool bias_fits;  // bias_in_accumulator
    Kind want;
    bool split = false;  // a split-K kernel
    BiasMode acc_mode = BiasMode::Col;  // the bias the kernel's accumulator starts from
};

constexpr Row kRows[] = {
    // the plain product
    {1.f, 0.f, false, BiasMode::None, Activation::None, false, Kind::Copy},
    // a bias pointer with mode None adds nothing
    {1.f, 0.f, true, BiasMode::None, Activation::None, false, Kind::Copy},
    // cuBLASLt's fused epilogues: column bias and / or activation, any alpha
    {1.f, 0.f, true, BiasMode::Col, Activation::GELU, true, Kind::BiasAct},
    {1.f, 0.f, false, BiasMode::None, Activation::ReLU, false, Kind::BiasAct},
    {0.5f, 0.f, false, BiasMode::None, Activation::None, false, Kind::BiasAct},
    {0.f, 0.f, false, BiasMode::None, Activation::ReLU, false, Kind::BiasAct},
    {2.f, 0.f, true, BiasMode::Col, Activation::SiLU, true, Kind::BiasAct},
    // a row-mode pointer that is null adds nothing either
    {1.f, 0.f, false, BiasMode::Row, Activation::ReLU, false, Kind::BiasAct},
    // C, a row bias, or a column bias that cannot start the accumulator: the general epilogue
    {1.f, 1.f, false, BiasMode::None, Activation::None, false, Kind::Linear},
    {1.f, 0.5f, true, BiasMode::Col, Activation::ReLU, true, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Row, Activation::None, true, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Row, Activation::GELU, true, Kind::Linear},
    {1.f, 0.f, true, BiasMode::Col, Activation::ReLU, false, Kind::Linear},
    {0.f, 0.f, true, BiasMode::Col, Activation::GELU, false, Kind::Linear},
    {0.5f, 0.f, true, BiasMode::Col, Activation::ReLU, false, Kind::Linear},
    // GELU folds alpha into its constants (GeluScaled) within 2^-40 <= |alpha| <= 2^40 or 0;
    // past that the general epilogue (ReLU takes any alpha; a NaN alpha, which no constant
    // expression can compare, fails both of gelu_folds_alpha's tests at run time)
    {0x1p40f, 0.f, true, BiasMode::Col, Activation::GELU, true, Kind::BiasAct},
    {-0x1p-40f, 0.f, false, BiasMode::None, Activation::GELU, false, Kind::BiasAct},
    {0.f, 0.f, false, BiasMode::None, Activation::GELU, false, Kind::BiasAct},
    {0x1p41f, 0.f, true, BiasMode::Col, Activation::GELU, true, Kind::Linear},
    {0x1p-41f, 0.f, false, BiasMode::None, Activation::GELU, false, Kind::Linear},
    {0x1p41f, 0.f, true, BiasMode::Col, Activation::ReLU, true, Kind::BiasAct},
    // split tiles: the same rules (split 0 starts from the bias), but SiLU's split kernel
    // spilled with EpilogueBiasAct and takes the general epilogue
    {1.f, 0.f, false, BiasMode::None, Activation::None, false, Kind::Copy, true},
    {1.f, 0.f, true, BiasMode::Col, Activation::GELU, true, Kind::BiasAct, true},
    {-2.f, 0.f, true, BiasMode::Col, Activation::ReLU, true, Kind::BiasAct, true},
    {1.f, 0.5f, true, BiasMode::Col, Activation::ReLU, true, Kind::Linear, true},
    {1.f, 0.f, true, BiasMode::Col, Activation::SiLU, true, Kind::Linear, true},
    {1.f, 0.f, false, BiasMode::None, Activation::SiLU, false, Kind::Linear, true},
    // the transposed kernels (two tiles, few rows) start from the row bias (kAccRowBias): D's
    // column bias there; a column bias of theirs (D's row bias) takes the general epilogue
    {1.f, 0.f, true, BiasMode::Row, Activation::ReLU, true, Kind::BiasAct, false, BiasMode::Row},
    {2.f, 0.f, true, BiasMode::Row, Activation::GELU, true, Kind::BiasAct, false, BiasMode::Row},
    {1.f, 0.f, false, BiasMode::None, Activation::SiLU, false, Kind::BiasAct, false,
     BiasMode::Row},
    {1.f, 0.f, true, BiasMode::Col, Activation::ReLU, true, Kind::Linear, false, BiasMode::Row},
    {1.f, 0.f, true, BiasMode::Row, Activation::ReLU, false, Kind::Linear, false, BiasMode::Row},
    {1.f, 0.5f, true, BiasMode::Row, Activation::ReLU, true, Kind::Linear, false,
     BiasMode::Row},
    {1.f, 0.f, true, BiasMode::Row, Activation::None, true, Kind::BiasAct, false, BiasMode::Row},
    // the few-row kernels split K: split 0 starts from the row bias, SiLU as above
    {1.f, 0.f, true, BiasMode::Row, Activation::ReLU, true, Kind::BiasAct, true, BiasMode::Row},
    {-2.f, 0.f, true, BiasMode::Row, Activation::GELU, true, Kind::BiasAct, true, BiasMode::Row},
    {1.f, 0.f, true, BiasMode::Row, Activation::SiLU, true, Kind::Linear, true, BiasMode::Row},
    {1.f, 0.f, true, BiasMode::Col, Activation::GELU, true, Kind::Linear, true, BiasMode::Row},
};

constexpr bool every_row_holds() {
    for (const Row& r : kRows)
        if (epilogue_kind(r.alpha, r.beta, r.bias, r.mode, r.act, r.bias_fits, r.split,
                          r.acc_mode) != r.want)
            return false;
    return true;
}
static_assert(every_row_holds(), "epilogue_kind disagrees with a row of the table");

// Which cluster a launch may take (dispatch.h sm90_cluster_fits): 128 x 256 tiles pair however
// many waves they run (a tail split plans for the pairs); 128 x 128 tiles pair for one wave of
// pairs only, since the linear kernel runs them unpaired (runs_narrow_pairs: the plain product
// and bias + activation run in pairs, on the bias + activation kernel).
using kiln::gemm::detail::sm90_cluster_fits;
static_assert(sm90_cluster_fits(256, 2, 1000, 132) == 2, "wide pairs past one wave");
static_assert(sm90_cluster_fits(128, 2, 66, 132) == 2, "one full wave of narrow pairs");
static_assert(sm90_cluster_fits(128, 2, 67, 132) == 1, "narrow pairs past one wave");
static_assert(sm90_cluster_fits(128, 1, 64, 132) == 1, "the heuristic's single CTAs");
static_assert(sm90_cluster_fits(128, 2, 1, 0) == 1, "no SMs known");
using kiln::gemm::detail::runs_narrow_pairs;
static_assert(runs_narrow_pairs(Kind::Copy), "the plain product pairs (on bias + activation)");
static_assert(runs_narrow_pairs(Kind::BiasAct), "bias + activation pairs");
static_assert(!runs_narrow_pairs(Kind::Linear), "the linear kernel runs unpaired");

// Few rows run transposed (few_rows.cuh): at most 64 rows, up to one wave of tiles of B.
using kiln::gemm::detail::few_rows_shape;
static_assert(few_rows_shape(16, 8192, 1, 132), "16 rows against 64 tiles");
static_assert(few_rows_shape(1, 8192, 1, 132), "one row");
static_assert(!few_rows_shape(65, 8192, 1, 132), "65 rows: two column tiles");
static_assert(few_rows_shape(16, 4096, 1, 132), "32 tiles: split");
static_assert(few_rows_shape(33, 4000, 2, 132), "a batch counts its tiles");
static_assert(few_rows_shape(8, 16896, 1, 132), "one full wave");
static_assert(!few_rows_shape(8, 17000, 1, 132), "133 tiles");
static_assert(!few_rows_shape(64, 28672, 1, 132), "224 tiles: a second wave");

// Their column tile: 16 wide up to 16 rows, else 64.
using kiln::gemm::detail::few_rows_tile_n;
static_assert(few_rows_tile_n(1) == 16 && few_rows_tile_n(16) == 16, "up to 16 rows: 16 wide");
static_assert(few_rows_tile_n(17) == 64 && few_rows_tile_n(64) == 64, "17 to 64 rows: 64 wide");

// Their K splits, below 64 tiles: the fewest that make 64 CTAs of long splits (>= 64
// k-blocks), else the fill of the SMs within split-K's bounds (at most 4 splits of >= 16
// k-blocks each).
using kiln::gemm::detail::few_rows_splits;
static_assert(few_rows_splits(64, 128, 132) == 1, "64 tiles of long K: unsplit");
static_assert(few_rows_splits(32, 172, 132) == 2, "32 tiles of long K: two long splits");
static_assert(few_rows_splits(32, 64, 132) == 4, "32 tiles of K 4096: fill the SMs");
static_assert(few_rows_splits(40, 80, 132) == 3, "40 tiles: three fill the SMs");
static_assert(few_rows_splits(16, 128, 132) == 4, "16 tiles: at most four splits");
static_assert(few_rows_splits(16, 1024, 132) == 4, "16 tiles of very long K: four long splits");
static_assert(few_rows_splits(64, 32, 132) == 1, "64 tiles of short K: unsplit");
static_assert(few_rows_splits(63, 32, 132) == 2, "63 tiles of short K: fill");
static_assert(few_rows_splits(32, 31, 132) == 1, "no split under 16 k-blocks each");
static_assert(few_rows_splits(132, 4096, 132) == 1, "a full wave");
static_assert(few_rows_splits(0, 64, 132) == 1, "no tiles");

// Or untransposed on 64 x w tiles: unbatched, the narrowest of kFewRowsUntransposedWidths
// (multiples of 8 from 32 to 256) whose tiles fit one wave, 32 wide from 3/5 of one, at 16 rows
// or fewer only 40-56 wide; KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 turns it off.
using kiln::gemm::detail::few_rows_untransposed_width;
static_assert(few_rows_untransposed_width(64, 4096, 1, 132) == 32, "128 of 32");
static_assert(few_rows_untransposed_width(64, 2560, 1, 132) == 32, "80 of 32: 3/5 of a wave");
static_assert(few_rows_untransposed_width(64, 2528, 1, 132) == 0, "79 of 32: transposed");
static_assert(few_rows_untransposed_width(32, 5120, 1, 132) == 40, "128 of 40");
static_assert(few_rows_untransposed_width(64, 6144, 1, 132) == 48, "128 of 48");
static_assert(few_rows_untransposed_width(64, 8192, 1, 132) == 64, "128 of 64");
static_assert(few_rows_untransposed_width(32, 9216, 1, 132) == 72, "128 of 72");
static_assert(few_rows_untransposed_width(64, 9505, 1, 132) == 80, "133 of 72: 80 wide");
static_assert(few_rows_untransposed_width(64, 13312, 1, 132) == 104, "128 of 104");
static_assert(few_rows_untransposed_width(32, 14336, 1, 132) == 112, "128 of 112");
static_assert(few_rows_untransposed_width(48, 16896, 1, 132) == 128, "132 of 128");
static_assert(few_rows_untransposed_width(48, 16897, 1, 132) == 136, "125 of 136");
static_assert(few_rows_untransposed_width(64, 22016, 1, 132) == 168, "132 of 168");
static_assert(few_rows_untransposed_width(32, 27000, 1, 132) == 208, "130 of 208");
static_assert(few_rows_untransposed_width(64, 16000, 1, 132) == 128,
              "125 of 128: 120 would be 134");
static_assert(few_rows_untransposed_width(64, 28672, 1, 132) == 224, "128 of 224");
static_assert(few_rows_untransposed_width(17, 33792, 1, 132) == 256, "132 of 256");
static_assert(few_rows_untransposed_width(17, 33793, 1, 132) == 0, "past 256 * 132");
static_assert(few_rows_untransposed_width(16, 5120, 1, 132) == 40, "16 rows: 40 wide");
static_assert(few_rows_untransposed_width(1, 7392, 1, 132) == 56, "one row: 56 wide");
static_assert(few_rows_untransposed_width(16, 4096, 1, 132) == 0, "16 rows, 32 wide: transposed");
static_assert(few_rows_untransposed_width(16, 8192, 1, 132) == 64, "16 rows, 64 wide");
static_assert(few_rows_untransposed_width(16, 14336, 1, 132) == 112,
              "16 rows: 112 transposed tiles");
static_assert(few_rows_untransposed_width(16, 16384, 1, 132) == 0,
              "16 rows: 128 transposed tiles fill 9/10 of the SMs");
static_assert(few_rows_untransposed_width(8, 22016, 1, 132) == 168,
              "past one wave of transposed tiles");
static_assert(few_rows_untransposed_width(65, 10240, 1, 132) == 0, "65 rows: not few");
static_assert(few_rows_untransposed_width(32, 10240, 2, 132) == 0, "a batch: transposed");
static_assert(few_rows_untransposed_width(32, 10240, 1, 132, 0) == 0, "turned off");
static_assert(few_rows_untransposed_width(16, 8192, 1, 132, 1) == 64, "forced: 16 rows too");
static_assert(few_rows_untransposed_width(64, 2048, 1, 132, 1) == 32, "forced: 64 of 32");
static_assert(few_rows_untransposed_width(65, 8192, 1, 132, 1) == 0, "forced: still few rows");

// Short products (short_rows.cuh): 65 to 128 or 193 to 256 rows (an even count of 64-row
// M-tiles) on 64-row tiles in pairs, at the narrowest width (64, then 128) whose pairs fit one
// wave of 66, unsplit where they fill at least half of it, else (64 wide) K split to fill it;
// 64 wide only up to K = 8192 (128 k-blocks).
constexpr bool short_rows(int M, int N, int K, int batch, int bn, int splits) {
    const auto r = kiln::gemm::detail::short_rows_plan(M, N, K, batch, 132);
    return r.bn == bn && r.splits == splits;
}
static_assert(short_rows(127, 4096, 4096, 1, 64, 1), "64 pairs of 64 x 64 tiles");
static_assert(short_rows(128, 4096, 8192, 1, 64, 1), "two M-tiles, one pair row");
static_assert(short_rows(65, 4224, 4096, 1, 64, 1), "66 pairs: one full wave");
static_assert(short_rows(96, 5120, 5120, 1, 128, 1), "80 narrow pairs: 40 of 128");
static_assert(short_rows(100, 8192, 4096, 1, 128, 1), "64 pairs of 128 x 64 tiles");
static_assert(short_rows(256, 4096, 4096, 1, 128, 1), "two pair rows of 32");
static_assert(short_rows(256, 4096, 14336, 1, 128, 1), "128 wide: any K");
static_assert(short_rows(96, 2048, 4096, 2, 64, 1), "a batch counts its pairs");
static_assert(short_rows(80, 2048, 8192, 1, 64, 2), "32 pairs: split in two");
static_assert(short_rows(128, 1024, 4096, 1, 64, 4), "16 pairs: split in four");
static_assert(short_rows(96, 512, 4096, 1, 64, 4), "8 pairs: at most four splits");
static_assert(short_rows(128, 1024, 1024, 1, 0, 1), "16 k-blocks: no split, no short product");
static_assert(short_rows(256, 1024, 2048, 1, 64, 2), "32 pairs over two pair rows");
static_assert(short_rows(96, 4096, 8200, 1, 0, 1),
              "64 wide past K = 8192: the 128-row path's long splits");
static_assert(short_rows(160, 1920, 4096, 1, 0, 1),
              "129-160 rows transposed: 60 CTAs of 64-row weight tiles are under 15/32 of a wave");
static_assert(short_rows(176, 7168, 512, 1, 0, 1),
              "161-192 rows at K = 512: the 128-row path");
static_assert(short_rows(256, 5120, 4096, 1, 0, 1), "80 pairs at 128: a second wave");
static_assert(short_rows(64, 4096, 4096, 1, 0, 1), "64 rows: one M-tile (few rows)");
static_assert(short_rows(257, 4096, 4096, 1, 0, 1), "257 rows: a third pair row");
static_assert(kiln::gemm::detail::short_rows_plan(128, 4096, 4096, 1, 0).bn == 0,
              "no SMs known");

// 129 to 160 rows run transposed, unsplit: as the two-tile product (A's rows in two 72- or
// 80-wide tiles) on the weights' 64-row tiles where those (two CTAs each) fill more than half a
// wave to one (from 15/32 up to K = 6144), but at 129-144 rows and K past 6144 on 128-row ones
// where those fit too and the 64-row ones would run unclustered; on 128-row tiles where they
// fill 15/32 of a wave to one. Past three quarters of a wave of 128-row tiles the two tiles run
// only clustered (TwoTileOptions::cluster); unclustered, 64 x 160 pairs (the weights' 64-row
// tiles in pairs, all of A's rows in one tile) take that part, up to K = 8192.
constexpr bool short_transposed(int M, int N, int K, int batch) {
    using kiln::gemm::detail::TwoTiles;
    const auto r =
        kiln::gemm::detail::short_rows_plan(M, N, K, batch, 132, {TwoTiles::Any, false, false});
    return r.transposed && r.bn == 160 && r.block_m == 64 && r.cluster_m == 2 && r.splits == 1;
}
// A two-tile launch: transposed, bn-wide column tiles of A's rows, block_m-row weight tiles,
// no cluster along M, unsplit.
constexpr bool two_tile_shape(const kiln::gemm::detail::ShortRows& r, int bn, int block_m) {
    return r.transposed && r.bn == bn && r.block_m == block_m && r.cluster_m == 1 &&
           r.splits == 1;
}
constexpr bool two_tiles_on(int M, int N, int K, int batch, int bn, int block_m,
                            kiln::gemm::detail::TwoTiles which) {
    return two_tile_shape(kiln::gemm::detail::short_rows_plan(M, N, K, batch, 132, which), bn,
                          block_m);
}
constexpr bool two_tiles(int M, int N, int K, int batch, int bn, int block_m = 128) {
    return two_tiles_on(M, N, K, batch, bn, block_m, kiln::gemm::detail::TwoTiles::Any);
}
static_assert(kiln::gemm::detail::two_tile_width(129) == 72 &&
                  kiln::gemm::detail::two_tile_width(144) == 72 &&
                  kiln::gemm::detail::two_tile_width(145) == 80 &&
                  kiln::gemm::detail::two_tile_width(176) == 88 &&
                  kiln::gemm::detail::two_tile_width(177) == 96 &&
                  kiln::gemm::detail::two_tile_width(208) == 104,
              "half the rows, rounded up to 8");
static_assert(short_transposed(160, 7168, 8192, 1), "112 CTAs: 64 x 160 pairs, unclustered");
static_assert(short_transposed(129, 8448, 4096, 1), "132 CTAs: one full wave");
static_assert(short_transposed(144, 6400, 4096, 1), "100 CTAs: past three quarters");
static_assert(two_tiles(144, 6272, 4096, 1, 72), "98 CTAs: two 72-wide tiles");
static_assert(two_tiles(150, 4352, 4096, 1, 80), "68 CTAs: 136 of 64-row tiles, past a wave");
static_assert(two_tiles(150, 4224, 4096, 1, 80, 64), "132 CTAs of 64 x 80 tiles");
static_assert(two_tiles(144, 4096, 4096, 1, 72, 64) && two_tiles(160, 4096, 6144, 1, 80, 64),
              "K up to 6144: 64-row tiles");
static_assert(two_tiles(129, 4224, 8192, 1, 72) && two_tiles(144, 4096, 8192, 1, 72) &&
                  two_tiles(160, 4096, 8192, 1, 80, 64),
              "K = 8192: 128-row tiles where they fit, up to 144 rows");
static_assert(two_tiles(160, 3072, 8192, 1, 80, 64), "48 CTAs of 128-row tiles: 64-row ones");
static_assert(two_tiles(136, 1056, 512, 2, 72, 64), "a batch counts its tiles");
static_assert(!short_transposed(160, 8576, 4096, 1) && !two_tiles(160, 8576, 4096, 1, 80),
              "134 CTAs: past one wave");
static_assert(two_tiles(160, 2048, 4096, 1, 80, 64) && two_tiles(129, 3968, 8192, 1, 72),
              "64 and 62 CTAs: from 15/32 of a wave");
static_assert(short_rows(160, 2048, 8192, 1, 0, 1) && short_rows(160, 2112, 8192, 1, 0, 1) &&
                  two_tiles(160, 2176, 8192, 1, 80, 64),
              "64-row tiles at half a wave or under: K up to 6144 only");
static_assert(!two_tiles(160, 1920, 4096, 1, 80, 64) && !two_tiles(160, 1920, 4096, 1, 80),
              "60 CTAs: under 15/32 of a wave");
// KILN_GEMM_TWO_TILES=128: the 128-row tiles only; =0: none (the pairs from half a wave,
// 161-208 rows on the 128-row path).
static_assert(two_tiles_on(144, 4096, 4096, 1, 72, 128, kiln::gemm::detail::TwoTiles::Rows128),
              "128-row tiles only");
static_assert(kiln::gemm::detail::short_rows_plan(150, 4224, 4096, 1, 132,
                                                  kiln::gemm::detail::TwoTiles::None)
                      .bn == 160,
              "66 CTAs: 64 x 160 pairs");
static_assert(kiln::gemm::detail::short_rows_plan(160, 4096, 4096, 1, 132,
                                                  kiln::gemm::detail::TwoTiles::None)
                      .bn == 0,
              "64 CTAs: under half a wave");
static_assert(kiln::gemm::detail::short_rows_plan(192, 7168, 8192, 1, 132,
                                                  kiln::gemm::detail::TwoTiles::None)
                      .bn == 0,
              "161-208 rows: the 128-row path");
static_assert(!short_transposed(160, 7168, 8200, 1) && two_tiles(160, 4352, 8200, 1, 80) &&
                  two_tiles(160, 4096, 11008, 1, 80, 64),
              "past K = 8192: the two tiles, not the pairs");
static_assert(!short_transposed(128, 7168, 8192, 1), "128 rows: two M-tiles, not transposed");
static_assert(kiln::gemm::detail::two_tile_weights_read_once(int64_t(4096) * 8192 * 2, 50 << 20) &&
                  !kiln::gemm::detail::two_tile_weights_read_once(int64_t(4096) * 4096 * 2,
                                                                  50 << 20),
              "two-tile weights evict first where they outgrow the L2 (64 MiB, not 32)");

// A weight tile's two CTAs share it in a 2-CTA cluster along N: on 128-row tiles from three
// fifths of a wave; on 64-row ones 72 wide where the weights outgrow the L2
// (TwoTileOptions::weights_stream). Unclustered, weights that outgrow the L2 load evict-first.
constexpr kiln::gemm::detail::ShortRows two_tile_launch(int M, int N, int K, bool stream,
                                                        bool cluster = true, int batch = 1) {
    using kiln::gemm::detail::TwoTiles;
    return kiln::gemm::detail::short_rows_plan(M, N, K, batch, 132,
                                               {TwoTiles::Any, stream, cluster});
}
constexpr bool clustered(const kiln::gemm::detail::ShortRows& r, int bn, int block_m) {
    return two_tile_shape(r, bn, block_m) && r.cluster_n == 2 && !r.read_once;
}
constexpr bool unpaired(const kiln::gemm::detail::ShortRows& r, int bn, int block_m,
                        bool read_once) {
    return two_tile_shape(r, bn, block_m) && r.cluster_n == 1 && r.read_once == read_once;
}
static_assert(clustered(two_tile_launch(129, 4096, 8192, true), 72, 64) &&
                  clustered(two_tile_launch(144, 4224, 8192, true), 72, 64) &&
                  clustered(two_tile_launch(140, 2048, 8192, true, true, 2), 72, 64),
              "streamed weights at 129-144 rows: clustered 64-row tiles (a batch counts)");
static_assert(unpaired(two_tile_launch(129, 4096, 8192, false), 72, 128, false),
              "weights in the L2 past K = 6144: the 128-row tiles, unpaired at half a wave");
static_assert(unpaired(two_tile_launch(129, 4096, 8192, true, false), 72, 128, true),
              "no clusters (KILN_GEMM_TWO_TILE_CLUSTER=0): 128-row tiles, weights evict-first");
static_assert(unpaired(two_tile_launch(160, 4096, 8192, true), 80, 64, true) &&
                  unpaired(two_tile_launch(176, 4096, 8192, true), 88, 64, true) &&
                  unpaired(two_tile_launch(192, 4096, 8192, true), 96, 64, true),
              "64-row tiles past 72 wide: unpaired, weights evict-first");
static_assert(unpaired(two_tile_launch(144, 4096, 4096, false), 72, 64, false),
              "weights in the L2: unpaired 64-row tiles");
static_assert(clustered(two_tile_launch(136, 5120, 4096, false), 72, 128) &&
                  clustered(two_tile_launch(192, 7168, 8192, true), 96, 128) &&
                  clustered(two_tile_launch(200, 8000, 4160, false), 104, 128),
              "128-row tiles from 80 CTAs: clustered, with or without streamed weights");
static_assert(unpaired(two_tile_launch(150, 4352, 4096, false), 80, 128, false) &&
                  unpaired(two_tile_launch(200, 4480, 8192, true), 104, 128, true),
              "68 and 70 CTAs: under three fifths of a wave, unpaired");
static_assert(clustered(two_tile_launch(160, 7168, 8192, true), 80, 128) &&
                  clustered(two_tile_launch(129, 8448, 4096, false), 72, 128) &&
                  clustered(two_tile_launch(144, 6400, 4096, false), 72, 128),
              "past three quarters of a wave: clustered two tiles where the pairs ran unpaired");
static_assert(unpaired(two_tile_launch(160, 4096, 11008, true), 80, 64, true) &&
                  clustered(two_tile_launch(129, 4096, 14336, true), 72, 64) &&
                  clustered(two_tile_launch(160, 6144, 11008, true), 80, 128),
              "129-160 rows past K = 8192: the two tiles, as at 161-208 rows");

// 161 to 208 rows run as the two-tile product on 64-row weight tiles where they fit one wave
// (any K past half a wave), else on 128-row ones past K = 4096 where those fill more than half
// a wave and at most one (193-208 rows only where no pairs of 64-row tiles fit a wave).
static_assert(two_tiles(176, 7168, 8192, 1, 88), "112 CTAs of 128 x 88 tiles");
static_assert(two_tiles(192, 5120, 11008, 1, 96), "long K");
static_assert(two_tiles(200, 8000, 4160, 1, 104), "126 CTAs of 128 x 104 tiles");
static_assert(two_tiles(208, 8448, 5120, 1, 104), "132 CTAs: one full wave");
static_assert(two_tiles(161, 2240, 8192, 2, 88), "a batch counts its tiles");
static_assert(two_tiles(192, 4096, 4096, 1, 96, 64) && two_tiles(168, 4096, 11008, 1, 88, 64) &&
                  two_tiles(176, 3072, 2048, 1, 88, 64),
              "128 CTAs of 64-row tiles, any K");
static_assert(two_tiles(200, 8000, 4096, 1, 104) && two_tiles(176, 7168, 3072, 1, 88) &&
                  two_tiles(200, 8000, 1024, 1, 104) && !two_tiles(200, 8000, 960, 1, 104),
              "clustered 128-row tiles from K = 1024 (16 k-blocks)");
static_assert(kiln::gemm::detail::short_rows_plan(
                  176, 7168, 512, 1, 132,
                  {kiln::gemm::detail::TwoTiles::Any, false, true, 4}).bn == 88 &&
                  kiln::gemm::detail::short_rows_plan(176, 7168, 512, 1, 132).bn == 0,
              "KILN_GEMM_TWO_TILE_CLUSTER_MIN_K moves that bound");
static_assert(two_tile_launch(200, 8000, 4096, false, false).bn == 0 &&
                  two_tile_launch(200, 8000, 4160, false, false).bn == 104,
              "unpaired 128-row tiles past K = 4096 only (they ran level at 4096)");
static_assert(!two_tiles(192, 8576, 8192, 1, 96), "134 CTAs: past one wave");
static_assert(!two_tiles(192, 1920, 8192, 1, 96, 64) && !two_tiles(192, 1920, 8192, 1, 96),
              "60 CTAs of 64-row tiles: the 128-row path splits K");
static_assert(short_rows(200, 4224, 8192, 1, 128, 1) && short_rows(200, 2048, 8192, 1, 64, 1),
              "193-208 rows: 64 x 128 or 64 x 64 pairs first");
static_assert(!two_tiles(209, 8000, 8192, 1, 104) && short_rows(209, 8000, 8192, 1, 0, 1),
              "209 rows: past two 104-wide tiles");
static_assert(!kiln::gemm::detail::short_rows_plan(127, 4096, 4096, 1, 132).transposed,
              "65-128 rows: as written");

// The clustered 128-row two tiles run 4 x 2 clusters up to K = 4096 where every cluster is
// resident at once (TwoTileOptions::quad_clusters: an H200 keeps 15 clusters of 8).
constexpr kiln::gemm::detail::ShortRows quad_launch(
    int M, int N, int K, int batch = 1, int resident = 15,
    int64_t max_k_blocks = kiln::gemm::detail::kTwoTileQuadMaxKBlocks) {
    using namespace kiln::gemm::detail;
    return short_rows_plan(M, N, K, batch, 132,
                           {TwoTiles::Any, false, true, kTwoTileClusterMinKBlocks, resident,
                            max_k_blocks});
}
constexpr bool quad(const kiln::gemm::detail::ShortRows& r, int bn) {
    return r.transposed && r.bn == bn && r.block_m == 128 && r.cluster_m == 4 &&
           r.cluster_n == 2 && r.splits == 1 && !r.read_once;
}
static_assert(quad(quad_launch(176, 7168, 2048), 88) && quad(quad_launch(200, 6144, 4096), 104) &&
                  quad(quad_launch(144, 7168, 1024), 72) && quad(quad_launch(184, 5120, 1536), 96),
              "4 x 2 clusters at K = 1024-4096, 10-14 of them");
static_assert(quad(quad_launch(176, 3584, 2048, 2), 88) &&
                  clustered(quad_launch(176, 4096, 2048, 2), 88, 128),
              "a batch counts its clusters (7 and 8 per batch)");
static_assert(clustered(quad_launch(176, 8192, 2048), 88, 128) &&
                  clustered(quad_launch(160, 8192, 2048), 80, 128),
              "16 clusters of 8, one more than resident: 1 x 2");
static_assert(clustered(quad_launch(176, 7168, 4160), 88, 128) &&
                  clustered(quad_launch(176, 7168, 2048, 1, 0), 88, 128) &&
                  clustered(quad_launch(176, 7168, 2048, 1, 15, 0), 88, 128),
              "past K = 4096, without a resident count or with the bound at 0: 1 x 2");
static_assert(quad(quad_launch(176, 7168, 8192, 1, 15, 128), 88),
              "KILN_GEMM_TWO_TILE_QUAD_MAX_K moves the bound");
static_assert(kiln::gemm::detail::plain_epilogue(1.f, 0.f, false, kiln::gemm::BiasMode::Col,
                                                 kiln::gemm::Activation::None) &&
                  kiln::gemm::detail::plain_epilogue(1.f, 0.f, true, kiln::gemm::BiasMode::None,
                                                     kiln::gemm::Activation::None) &&
                  !kiln::gemm::detail::plain_epilogue(1.f, 0.f, true, kiln::gemm::BiasMode::Row,
                                                      kiln::gemm::Activation::None) &&
                  !kiln::gemm::detail::plain_epilogue(1.f, 0.f, false, kiln::gemm::BiasMode::Col,
                                                      kiln::gemm::Activation::ReLU) &&
                  !kiln::gemm::detail::plain_epilogue(2.f, 0.f, false, kiln::gemm::BiasMode::Col,
                                                      kiln::gemm::Activation::None),
              "4 x 2 clusters for the plain product only (short_rows_plan(Problem, sms))");
static_assert(two_tile_shape(quad_launch(144, 4096, 2048), 72, 64) &&
                  quad_launch(176, 7168, 960).bn == 0,
              "64-row two tiles and the 128-row path keep their launches");

// The transposed problem: 16 rows of batched activations (K-major, lda 520) against shared
// 8192 x 512 weights (K-major, ldb 512), D with a padded ldc and a column bias.
constexpr float kBias = 0.f;
constexpr bool transposes_few_rows() {
    using namespace kiln::gemm;
    detail::Problem p{};
    p.ta = Op::N, p.tb = Op::T, p.M = 16, p.N = 8192, p.K = 512, p.batch = 2;
    p.ldc = 8200, p.sc = 16 * 8200;
    p.bias = &kBias, p.bias_mode = BiasMode::Col;
    p.va = OperandView::matrix(nullptr, 16, 512, 520, false, 16 * 520);
    p.vb = OperandView::matrix(nullptr, 8192, 512, 512, false, 0);
    p.vd = OutView::matrix(8200, 16 * 8200);
    const detail::Problem q = detail::transposed_problem(p);
    return q.M == 8192 && q.N == 16 && q.K == 512 && q.batch == 2 &&  // D^T is N x M
           q.va.rows[0] == 8192 && q.va.row_stride[0] == 512 && q.va.batch_stride == 0 &&
           q.vb.rows[0] == 16 && q.vb.row_stride[0] == 520 && q.vb.batch_stride == 16 * 520 &&
           q.ta == Op::N && q.tb == Op::T &&  // both still K-major
           // D^T's (n, m) at m * ldc + n
           q.vd.rs0 == 1 && q.vd.cs0 == 8200 && q.vd.batch_stride == 16 * 8200 &&
           q.bias_mode == BiasMode::Row;  // D's column bias runs along D^T's rows
}
static_assert(transposes_few_rows(), "transposed_problem swaps the operands, views and bias");

// A row bias (one value per row of D) runs along D^T's columns.
constexpr bool transposes_row_bias() {
    using namespace kiln::gemm;
    detail::Problem p{};
    p.ta = Op::N, p.tb = Op::T, p.M = 16, p.N = 8192, p.K = 512, p.batch = 1;
    p.bias = &kBias, p.bias_mode = BiasMode::Row;
    return detail::transposed_problem(p).bias_mode == BiasMode::Col;
}
static_assert(transposes_row_bias(), "D's row bias is D^T's column bias");

// B's L2 hint (launch_sm90.cuh streaming_hint): evict-first only where the grid loads each box
// once, on tiles at most 128 wide, and B is more than 7/8 of the L2 (50 MiB on an H100 or H200).
using kiln::gemm::sm90::streaming_hint;
using L2 = kiln::dev::tma::L2Hint;
constexpr int64_t kL2 = int64_t(50) << 20;
constexpr int64_t kWeights8k = int64_t(8192) * 8192 * 2, kWeights4k = int64_t(4096) * 4096 * 2;
static_assert(streaming_hint(256, 2 * 128, 128, false, kWeights8k, kL2) == L2::evict_first,
              "decode-ish: one pair of 128-row M-tiles covers M, B streams once");
static_assert(streaming_hint(127, 128, 128, false, kWeights8k, kL2) == L2::evict_first,
              "one M-tile, unpaired");
static_assert(streaming_hint(64, 64, 32, false, kWeights4k, kL2) == L2::normal,
              "32 MiB of weights fit the L2: the next call on them finds them there");
static_assert(streaming_hint(64, 64, 32, false, int64_t(40) << 20, kL2) == L2::normal,
              "40 MiB of weights: 64 x 5120 x 4096 ran 11% faster called back to back");
static_assert(streaming_hint(64, 64, 32, false, int64_t(48) << 20, kL2) == L2::evict_first,
              "48 MiB of weights: normal gained nothing called back to back, lost cold");
static_assert(streaming_hint(96, 128, 64, false, int64_t(5120) * 5120 * 2, kL2) ==
                  L2::evict_first,
              "96 x 5120 x 5120's pairs: 7% slower normal");
static_assert(streaming_hint(64, 128, 256, false, kWeights8k, kL2) == L2::normal,
              "256-wide tiles: 64 x 28672 x 8192 lost 3% evict-first");
static_assert(streaming_hint(257, 2 * 128, 128, false, kWeights8k, kL2) == L2::normal,
              "a third M-tile reads B again");
static_assert(streaming_hint(8192, 128, 128, false, kWeights8k, kL2) == L2::normal,
              "a large product reuses B");
static_assert(streaming_hint(16, 128, 128, true, kWeights8k, kL2) == L2::normal,
              "a B that every batch reads is read again");

}  // namespace
