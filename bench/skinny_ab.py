"""kiln's plain GEMM against cuBLAS on a set of shapes, timed in alternation as gemm_bench.py's
rows, for A/B runs of the tile and split switches (one process per setting: they are read once
per process):
    KILN_GEMM_BN=256 KILN_GEMM_SPLITK=2 python3 bench/skinny_ab.py bn256-s2
    KILN_GEMM_TAIL_SPLIT=0 python3 bench/skinny_ab.py no-tail tail
Sets: `skinny` (default: few-row, DRAM-streaming shapes) and `tail` (more tiles than one wave
whose last wave is partial: the tail split's shapes, params.h tail_split_plan; 1152 rows are 9
M-tiles, odd in pairs; 4096^3, whose last wave is nearly full, is a control) and `pairs` (one
wave of 128 x 128 tiles over two M-tiles, which params.h pair_narrow_tiles pairs:
KILN_GEMM_CLUSTER=1 runs them unpaired) and `underfill` (one partial wave of 128 x 128 tiles
that leaves a third of the SMs or more idle: the K splits' shapes) and `decode` (the few-row
products of LLM decoding, 1 to 200 rows) and `fewsplit` (few rows against fewer than one wave
of 128-row weight tiles, and 65 to 128 rows: the transposed product's split and row bounds,
src/gemm/few_rows.cuh) and `shortk` (few rows against 64 or more tiles of a short K, which
few_rows_splits leaves unsplit: split to fill the SMs they lost 12-14%) and `fewsplit16` (up to
16 rows, the 16-wide tiles, against fewer than 64 weight tiles) and `midrows` (65 to
128 rows: one M-tile of the default path, split only as far as 64 CTAs, params.h
kStreamingCtas) and `fill` (four to eight M-tiles whose 128 x 256 tiles leave SMs idle in one
wave and whose 128 x 128 ones spill into a second: the fill widths, params.h fill_tile_n;
KILN_GEMM_BN=256 runs them as before; 2048^3, whose wide tiles fill the SMs, is a control) and
`sweep` (their union up to 512 rows, for sweeping the tile width and split switches) and
`short` (65 to 128 or 193 to 256 rows whose pairs of 64-row tiles fill half a wave to one: the
short product, src/gemm/short_rows.cuh; KILN_GEMM_SHORT_ROWS=0 runs them on 128-row tiles) and
`shortsplit` (short products whose pairs make under half a wave: K split) and `ksweep` (127
and 128 rows against 4096-wide weights across K: the short product's fixed and per-k-block
costs against cuBLAS's) and `shorttrans` (129 to 160 rows, which the short product runs
transposed; KILN_GEMM_SHORT_ROWS=0 runs them on 128-row tiles) and `twotile` (129 to 208 rows
that run as the transposed two-tile product; KILN_GEMM_TWO_TILES=0 runs them as before: 64 x 160
pairs up to 160 rows, past it the 128-row path), `twotilelow` (129 to 160 rows against 31 to 33
weight tiles, where KILN_GEMM_TWO_TILES=0 splits 128-row tiles instead), `twotile64` (129 to
192 rows that run the two-tile product on the weights' 64-row tiles, one wave of them;
KILN_GEMM_TWO_TILES=128 runs them as before: on 128-row two tiles, or 128-row tiles split),
`twotilekept` (the shapes measured on the 64-row two tiles but kept on their previous paths:
160 x 2048 x 8192, 193-208 rows on pairs; two that take them as controls), `twotilewidth`
(129-144 and 161-176 rows on 128-row two tiles, 72 and 88 wide since session 35),
`twotilecluster` (two-tile products whose weight tiles' two CTAs run as a cluster sharing them
since session 36: the 128-row tiles from three fifths of a wave, the 64-row ones 72 wide where
the weights outgrow the L2, and the shapes measured on the clusters but kept unpaired;
KILN_GEMM_TWO_TILE_CLUSTER=0 runs them unpaired, as before), `twotilecluster64` (its
64-row and its 68-CTA shapes, for a second sample), `twotilelongk` (129-160 rows past K = 8192,
which the two-tile plans left to the 128-row path before session 36; KILN_GEMM_TWO_TILES=0 still
does), `twotileshortk` (161-208 rows at K = 3072-4096 on clustered 128-row two tiles, which the
unpaired ones left to the 128-row path; against KILN_GEMM_TWO_TILES=0), `twotileshortk2` (161-208
rows at K = 1024-2560 on the clustered 128-row two tiles since session 37, which left them to
the 128-row path before: KILN_GEMM_TWO_TILE_CLUSTER_MIN_K=47 runs them so), `colstore` (transposed
products: few rows and two tiles, whose D^T is stored in row pairs since session 37;
KILN_GEMM_COLUMN_PAIRS=0 stores it element by element, as before), `twotilequad` (clustered
128-row two tiles whose clusters run 4 x 2 since session 38 up to K = 4096 where all are
resident, and three at K = 8192 past that bound: KILN_GEMM_TWO_TILE_QUAD_MAX_K=0 runs them 1 x 2,
as before, =128 runs all of them 4 x 2), `fewbias` (few-row products, split and unsplit, with
their D column bias starting the accumulator as the transposed problem's row bias since session
39; 64 x 28672 x 8192, past one wave of them, ran as written until session 40), `fewlow` (its
shapes under 1.0 of cuBLASLt in session 39's first run, for sweeping KILN_GEMM_SPLITK),
`fewcluster` (17-64
rows against 96-132 weight tiles, which ran in 4-CTA clusters from 80 tiles in session 39 and
run untransposed since session 40), `fewclusterlow` (17-64 rows against 64-96 weight tiles),
`fewuntrans` (72-80 weight tiles, untransposed since session 39), `fewwidth` (1-64 rows
against 2048-28672 weights: the untransposed widths of session 40, and the shapes they leave
transposed; KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 runs them all transposed or on the default path),
`fewwide` (17-64 rows whose untransposed width is a multiple of 8 that session 40's first set
lacked: 136-248), `fewwarm` (few-row shapes still under 1.0 of cuBLASLt in session 40 whose
weights fit the L2, for --cold runs) and `l2fit` (products whose weights fit the L2 that
loaded them evict-first until session 41, and two past it as controls: KILN_GEMM_L2=normal,first
runs them as before) and `few16` (1-16 rows against weights whose untransposed tiles
fit one wave at widths other than 40-56, which ran transposed until session 41 and run
untransposed since where the transposed tiles do not fill 9/10 of the SMs:
KILN_GEMM_FEW_ROWS_UNTRANSPOSED=0 runs them transposed, =1 all untransposed) and `fewfloor`
(17-64 rows against weights whose 32-wide untransposed tiles make under 3/4 of a wave, which
run transposed: KILN_GEMM_FEW_ROWS_UNTRANSPOSED=1 runs them untransposed)
and `onewave` (one full wave of 128 x 256 tiles, which the heuristic runs unpaired:
KILN_GEMM_CLUSTER=2 pairs them).
A third argument, `relu` or `gelu`, times bias + activation against cuBLASLt's fused epilogue
(torch._addmm_activation) instead of the plain product. `--cold` (anywhere) gives each side
copies of the weights that outgrow twice the L2, taken in turn by the calls of its timed graph:
every call streams its weights from DRAM, as a model's layers do (without it, weights that fit
in L2 are mostly found there from the graph's previous call).
Each line: label, shape, kiln and cuBLAS TFLOP/s, kiln's achieved DRAM rate (A and B read once,
D written once), the median ratio over 8 rounds (order swapped each round) and its range, the
relative error."""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import kiln_gemm as kg  # noqa: E402
from gemm_bench_util import Turns, bench_pair, cold_copies, pair_fields  # noqa: E402

SETS = {
    "skinny": ((256, 8192, 8192), (128, 8192, 8192), (512, 8192, 8192), (256, 4096, 4096),
               (256, 11008, 4096), (256, 4096, 11008), (256, 28672, 8192), (1024, 2304, 4096)),
    "pairs": ((256, 8192, 8192), (256, 6144, 8192), (200, 8000, 4096), (256, 8448, 4096),
              (256, 5120, 14336), (160, 7168, 8192)),
    "underfill": ((256, 5120, 14336), (256, 6144, 8192), (256, 4096, 4096), (256, 4096, 11008),
                  (384, 4096, 8192), (128, 8192, 8192)),
    "tail": ((2304, 2048, 8192), (2304, 4096, 4096), (4352, 4096, 4096), (1280, 4096, 16384),
             (1152, 4096, 16384), (8192, 12288, 4096), (4096, 4096, 4096)),
    "decode": ((16, 8192, 8192), (64, 8192, 8192), (96, 8192, 8192), (127, 4096, 4096),
               (160, 7168, 8192), (200, 8000, 4096), (16, 4096, 4096), (32, 14336, 4096),
               (64, 28672, 8192), (8, 8192, 28672), (1, 8192, 8192)),
    "fewsplit": ((1, 4096, 4096), (16, 4096, 4096), (32, 4096, 4096), (64, 4096, 4096),
                 (16, 2048, 8192), (16, 5120, 5120), (32, 6144, 4096), (64, 4096, 11008),
                 (16, 4096, 14336), (16, 8192, 8192), (64, 8192, 8192), (96, 8192, 8192),
                 (128, 8192, 8192), (127, 4096, 4096), (128, 4096, 4096), (96, 5120, 5120),
                 (160, 7168, 8192), (200, 8000, 4096)),
    "shortk": ((16, 8192, 2048), (64, 8192, 2048), (32, 8192, 1024), (16, 12288, 2048)),
    "fewsplit16": ((1, 4096, 4096), (8, 4096, 4096), (16, 4096, 4096), (16, 2048, 8192),
                   (16, 5120, 5120), (16, 4096, 14336), (16, 6144, 4096), (4, 4096, 11008)),
    "fill": ((1024, 2304, 4096), (1024, 2304, 8192), (512, 4608, 4096), (768, 3072, 4096),
             (1024, 3072, 4096), (512, 5120, 4096), (640, 4096, 4096), (2048, 2048, 2048)),
    "onewave": ((2048, 2048, 2048), (2048, 2048, 4096), (2048, 2048, 8192), (1024, 4096, 4096),
                (1024, 4096, 8192), (4096, 1024, 4096)),
    "midrows": ((96, 8192, 8192), (128, 8192, 8192), (127, 4096, 4096), (128, 4096, 4096),
                (96, 5120, 5120), (100, 8192, 4096), (128, 6144, 8192), (80, 2048, 8192)),
    "short": ((127, 4096, 4096), (128, 4096, 4096), (96, 5120, 5120), (100, 8192, 4096),
              (96, 8192, 8192), (128, 8192, 8192), (128, 6144, 8192), (256, 4096, 4096),
              (128, 4096, 8192), (200, 4096, 14336), (65, 4224, 4096), (256, 4224, 4096)),
    "shortsplit": ((80, 2048, 8192), (128, 2048, 4096), (128, 2048, 8192), (96, 2048, 4096),
                   (128, 1024, 8192), (256, 1024, 4096)),
    "ksweep": ((127, 4096, 2048), (127, 4096, 4096), (127, 4096, 8192), (128, 4096, 2048),
               (128, 4096, 4096), (128, 4096, 8192)),
    "shorttrans": ((160, 7168, 8192), (144, 8192, 4096), (136, 5120, 5120), (160, 8192, 8192),
                   (150, 4352, 4096), (129, 4224, 8192)),
    "twotile": ((150, 4352, 4096), (129, 4224, 8192), (136, 5120, 5120), (160, 6144, 6144),
                (192, 7168, 8192), (168, 6144, 8192), (176, 5120, 8192), (192, 5120, 11008),
                (200, 6144, 8192), (208, 5120, 5120), (200, 8192, 8192), (200, 8000, 4160)),
    "twotilelow": ((160, 4096, 8192), (144, 4096, 4096), (150, 4096, 4096), (129, 4096, 8192),
                   (136, 3968, 5120), (160, 4096, 2048)),
    "twotile64": ((144, 4096, 4096), (150, 4096, 4096), (136, 3968, 5120), (160, 4096, 2048),
                  (160, 3072, 8192), (152, 3584, 8192), (160, 4096, 6144), (129, 3072, 8192),
                  (144, 2048, 4096), (192, 4096, 4096), (192, 4096, 8192), (176, 3072, 8192),
                  (168, 4096, 11008), (176, 4096, 4096), (160, 4096, 8192)),
    "twotilekept": ((160, 2048, 8192), (200, 4096, 2048), (208, 3072, 8192), (200, 2048, 8192),
                    (150, 4096, 4096), (192, 4096, 8192)),
    "twotilecluster": ((129, 4096, 8192), (129, 4224, 8192), (136, 4096, 8192),
                       (144, 4096, 8192), (160, 4096, 8192), (176, 4096, 8192),
                       (152, 7168, 8192), (160, 8192, 8192), (144, 8192, 4096), (136, 5120, 4096),
                       (160, 5120, 4096), (150, 4352, 4096), (140, 6144, 6144),
                       (176, 8192, 8192), (192, 7168, 8192), (192, 5120, 11008),
                       (200, 6144, 8192), (208, 8192, 8192), (200, 8000, 4160)),
    "twotilecluster64": ((129, 4096, 8192), (136, 4096, 8192), (144, 4096, 8192),
                         (160, 4096, 8192), (176, 4096, 8192), (150, 4352, 4096)),
    "twotilelongk": ((129, 4096, 11008), (144, 4096, 11008), (160, 4096, 11008),
                     (129, 4096, 14336), (150, 4096, 14336), (160, 3072, 11008),
                     (144, 4224, 16384), (160, 6144, 11008), (144, 5120, 14336)),
    "twotileshortk": ((176, 7168, 4096), (184, 6144, 4096), (192, 5120, 4096),
                      (200, 8000, 4096), (168, 8192, 4096), (176, 7168, 3072),
                      (192, 5120, 3072), (200, 8000, 3072)),
    "twotileshortk2": ((176, 7168, 2048), (192, 8192, 2048), (200, 6144, 2048),
                       (184, 5120, 2048), (168, 8192, 2560), (192, 5120, 1536),
                       (176, 7168, 1024), (208, 8192, 1024)),
    "colstore": ((16, 8192, 8192), (64, 8192, 8192), (129, 4096, 8192), (144, 4096, 8192),
                 (160, 4096, 8192), (160, 8192, 8192), (176, 8192, 8192), (208, 8192, 8192),
                 (192, 5120, 11008), (150, 4352, 4096)),
    "twotilequad": ((176, 7168, 2048), (200, 6144, 2048), (184, 5120, 2048), (192, 5120, 1536),
                    (176, 7168, 1024), (208, 6144, 1024), (144, 7168, 2048), (160, 7168, 2048),
                    (136, 7168, 1024), (176, 7168, 4096), (200, 6144, 4096), (184, 5120, 3072),
                    (176, 7168, 8192), (200, 6144, 8192), (160, 7168, 8192)),
    "fewbias": ((16, 8192, 8192), (64, 8192, 8192), (16, 4096, 4096), (32, 14336, 4096),
                (8, 8192, 28672), (16, 4096, 14336), (64, 4096, 11008), (1, 8192, 8192),
                (16, 2048, 8192), (16, 5120, 5120), (64, 28672, 8192)),
    "fewlow": ((16, 8192, 8192), (32, 14336, 4096), (64, 4096, 11008), (16, 5120, 5120),
               (1, 8192, 8192), (64, 8192, 8192)),
    "fewcluster": ((32, 14336, 4096), (64, 14336, 4096), (32, 12800, 4096), (64, 13312, 8192),
                   (48, 16384, 4096), (24, 16896, 2048), (32, 12288, 4096)),
    "fewclusterlow": ((64, 8192, 8192), (32, 10240, 4096), (32, 11264, 4096),
                      (64, 11776, 4096), (32, 12288, 4096)),
    "fewuntrans": ((32, 9216, 4096), (64, 9728, 4096), (48, 9216, 8192), (32, 10240, 4096)),
    "fewwidth": ((1, 5120, 5120), (1, 8192, 8192), (8, 5120, 5120), (8, 8192, 28672),
                 (16, 2048, 8192), (16, 4096, 4096), (16, 4096, 14336), (16, 5120, 5120),
                 (16, 6144, 4096), (16, 8192, 8192), (16, 14336, 4096), (24, 16896, 2048),
                 (32, 4096, 4096), (32, 5120, 5120), (32, 8192, 4096), (32, 14336, 4096),
                 (32, 28672, 4096), (48, 16384, 4096), (64, 4096, 4096), (64, 4096, 11008),
                 (64, 6144, 4096), (64, 8192, 8192), (64, 13312, 8192), (64, 14336, 4096),
                 (64, 22016, 4096), (64, 28672, 8192)),
    "fewwide": ((64, 22016, 4096), (48, 17000, 4096), (64, 17408, 8192), (32, 27000, 4096),
                (64, 30000, 4096), (40, 20000, 4096)),
    "fewwarm": ((32, 4096, 4096), (64, 4096, 4096), (16, 8192, 8192), (16, 6144, 4096)),
    "l2fit": ((32, 4096, 4096), (64, 4096, 4096), (48, 3072, 4096), (64, 4096, 2048),
              (16, 5120, 5120), (32, 5120, 5120), (64, 6144, 4096), (127, 4096, 4096),
              (128, 4096, 4096), (96, 5120, 5120), (100, 8192, 4096), (64, 8192, 8192)),
    "few16": ((16, 14336, 4096), (8, 14336, 4096), (1, 14336, 4096), (16, 8192, 8192),
              (16, 10240, 4096), (16, 12288, 4096), (16, 16384, 4096), (16, 22016, 4096),
              (16, 28672, 4096), (8, 28672, 8192)),
    "fewfloor": ((48, 3072, 4096), (32, 3072, 4096), (64, 3072, 4096), (64, 2048, 4096),
                 (48, 3072, 8192), (32, 2560, 8192)),
    "twotilewidth": ((129, 4096, 8192), (129, 4224, 8192), (144, 4096, 8192), (136, 5120, 5120),
                     (140, 6144, 6144), (168, 6144, 8192), (176, 7168, 8192)),
}
# `sweep`: every shape above that fits one wave of 128 x 128 tiles or splits, for sweeping the
# tile width and split switches (one process per setting).
SETS["sweep"] = tuple(dict.fromkeys(
    s for name in ("decode", "skinny", "pairs", "underfill") for s in SETS[name]
    if 1 < s[0] <= 512)) + ((512, 2048, 8192), (1024, 1024, 8192))

COLD = "--cold" in sys.argv
args = [x for x in sys.argv[1:] if x != "--cold"]
label = (args[0] if args else "default") + (" cold" if COLD else "")
SHAPES = SETS[args[1] if len(args) > 1 else "skinny"]
ACT = args[2] if len(args) > 2 else None
assert ACT in (None, "relu", "gelu"), ACT
torch.manual_seed(0)
for M, N, K in SHAPES:
    a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, K, device="cuda", dtype=torch.bfloat16)
    out = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
    bias = torch.randn(N, device="cuda", dtype=torch.bfloat16) if ACT else None
    ws = cold_copies(w) if COLD else [w]
    w_kiln, w_peer = Turns(ws), Turns(ws)

    def run_kiln():
        return kg.linear(a, w_kiln(), out, act=ACT, bias=bias)

    def run_peer():
        if ACT:
            return torch._addmm_activation(bias, a, w_peer().t(), use_gelu=ACT == "gelu")
        return torch.matmul(a, w_peer().t())

    st, path = run_kiln()
    assert st == "success" and path == "tma", (st, path)
    ref = a.float() @ w.float().t()
    if ACT:
        ref = ref + bias.float()
        gelu = torch.nn.functional.gelu
        ref = torch.relu(ref) if ACT == "relu" else gelu(ref, approximate="tanh")
    err = ((out.float() - ref).norm() / ref.norm()).item()
    t = bench_pair(run_peer, run_kiln)
    t_cublas, t_kiln, f = t.peer_ms, t.kiln_ms, pair_fields(t)
    flop, nbytes = 2.0 * M * N * K, 2.0 * (M * K + N * K + M * N)
    tag = label + (" bias+" + ACT if ACT else "")
    print(f"[{tag}] {M}x{N}x{K}: kiln {flop / t_kiln / 1e9:6.1f} TF/s "
          f"({nbytes / t_kiln / 1e9:5.2f} TB/s) cuBLAS {flop / t_cublas / 1e9:6.1f} TF/s "
          f"ratio {f['ratio']:.3f} [{f['ratio_range'][0]:.3f}, {f['ratio_range'][1]:.3f}] "
          f"err {err:.1e}", flush=True)
