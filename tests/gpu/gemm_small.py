"""Small GEMMs through every path, for compute-sanitizer (memcheck/racecheck/synccheck):
python3 tests/gpu/gemm_small.py  (needs KILN_GEMM_LIB)."""
import sys

import torch

sys.path.insert(0, __file__.rsplit("/", 3)[0] + "/bench")
import kiln_gemm as kg  # noqa: E402

torch.manual_seed(3)
# 96 x 2112 x 64: the short product (src/gemm/short_rows.cuh: 33 pairs of 64 x 64 tiles) with C
for (M, N, K) in [(128, 256, 64), (129, 257, 72), (70, 130, 40), (96, 2112, 64)]:
    for path in ("tma", "generic"):
        a = torch.randn(M, K, device="cuda").bfloat16()
        w = torch.randn(N, K, device="cuda").bfloat16()
        c = torch.randn(M, N, device="cuda").bfloat16()
        bias = torch.randn(N, device="cuda")
        st, taken = kg.linear(a, w, c, 1.0, 0.5, "gelu", bias, "col", path)
        torch.cuda.synchronize()
        print(M, N, K, path, st, taken)
        assert st == "success"
# the bias + activation kernel (no C: EpilogueBiasAct; the producer loads each tile's bias into a
# shared slot and the consumers start the accumulator from it, acc_bias.cuh); N = 257 cannot
# leave through the TMA store, so the direct-store path runs after it.
# 2304 x 2048 x 2048: a tail split (params.h tail_split_plan: 72 pair tiles on 66 pairs, the
# last 6 in 2 splits by a second, split-K launch over a TileRange); ragged N at 1990; 1100 rows
# are 9 M-tiles, odd in pairs: the split launch walks 10 (TileRange::pair_rows); 129 x 257 is
# one wave of 128 x 128 tiles with two M-tiles, which this kernel runs in 2-CTA clusters
# (params.h pair_narrow_tiles); the few-row products run transposed (src/gemm/few_rows.cuh: D
# stored column by column, the column bias as the transposed problem's row bias): 16 x 8192 x
# 128 and 5 x 8200 x 72 (ragged N and K) on 128 x 16 tiles, 40 x 8192 x 128 on 128 x 64
# (few_rows_tile_n); 16 and 40 x 4096 x 2056 with K split in two (32 tiles, 33 k-blocks:
# few_rows_splits); 512 x 4600 x 72 is one wave of 4 x 32 tiles at the fill width 144 (params.h
# fill_tile_n: direct stores, ragged N and K), 512 x 5000 x 72 of 4 x 32 at 160 and
# 512 x 5400 x 72 of 4 x 29 at 192; 100 x 4200 x 72 and 256 x 4100 x 72 are short products on
# paired 64-row tiles (src/gemm/short_rows.cuh; ragged N and K), 64 and 128 wide, and
# transposed: 150 x 6500 x 72 as the two-tile product on 128 x 80 tiles in clusters (plain:
# 4 x 2; with KILN_GEMM_TWO_TILE_CLUSTER=0 on 64 x 160 pairs: the weights on the paired 64-row
# tiles, 51 pairs, the last tile's second CTA past N; A's 150 rows one 160-wide tile); 136 x
# 4400 x 72,
# 150 x 4300 x 72, 180 and 200 x 4400 x 4160 as the two-tile product on 128-row weight tiles
# (128 x 72, 80, 96 and 104 tiles, A's rows in two, the second ragged; 34-35 weight tiles, the
# last one's rows past N); 150 x 4200 x 72, 170 and 180 x 4100 x 72 on 64-row ones (64 x 80,
# 88 and 96, one consumer warpgroup, unpaired; 66 and 65 weight tiles); each weight tile's two
# CTAs as a cluster sharing it along N: 200 x 5200 x 4160 (82 CTAs of 128 x 104 tiles in 1 x 2
# clusters, the last tile's second half past N), 131 x 4100 x 8192 on 64 x 72 tiles (64 MiB of
# weights, past the L2; the last tile's first half 4 rows, its second past N); and the plain
# call up to K = 4096 in 4 x 2 clusters (four weight tiles' CTAs also share A's tile, each
# loading 24 or 32 of its rows; the bias + activation calls keep 1 x 2): 150 x 5200 x 72
# (128 x 80), 184 x 6100 x 1032 (128 x 96, ragged weights and K), 170 x 5250 x 1032 (128 x 88,
# 42 weight tiles: the last cluster's last two past N); few rows untransposed
# (few_rows_untransposed_width; A's rows one 64-row M-tile, the last weight tile ragged): 40 x
# 13000 x 136 on 64 x 104 tiles, 40 x 10200 x 136 on 64 x 80, 16 x 5119 x 136 on 64 x 40, 17 x
# 28600 x 72 on 64 x 224
for (M, N, K) in [(128, 256, 64), (129, 257, 72), (2304, 2048, 2048), (2304, 1990, 2048),
                  (1100, 4096, 2048), (16, 8192, 128), (5, 8200, 72), (16, 4096, 2056),
                  (40, 8192, 128), (40, 4096, 2056), (512, 4600, 72), (512, 5000, 72),
                  (512, 5400, 72), (100, 4200, 72), (256, 4100, 72), (150, 6500, 72),
                  (136, 4400, 72), (150, 4300, 72), (180, 4400, 4160), (200, 4400, 4160),
                  (150, 4200, 72), (170, 4100, 72), (180, 4100, 72), (150, 5200, 72),
                  (200, 5200, 4160), (131, 4100, 8192), (184, 6100, 1032),
                  (170, 5250, 1032), (40, 13000, 136), (40, 10200, 136),
                  (16, 5119, 136), (17, 28600, 72)]:
    a = torch.randn(M, K, device="cuda").bfloat16()
    w = torch.randn(N, K, device="cuda").bfloat16()
    c = torch.empty(M, N, device="cuda").bfloat16()
    # alpha = 2: the accumulator starts at bias / 2 (|alpha| < 1 takes EpilogueLinear)
    st, taken = kg.linear(a, w, c, 2.0, 0.0, "gelu", torch.randn(N, device="cuda"), "col")
    torch.cuda.synchronize()
    print("bias+act", M, N, K, st, taken)
    assert st == "success" and taken == "tma"
    # the same kernel without a bias: the slot is zeroed once and never loaded
    st, taken = kg.linear(a, w, c, 0.5, 0.0, "relu", None, "col")
    torch.cuda.synchronize()
    print("act", M, N, K, st, taken)
    assert st == "success" and taken == "tma"
    # the plain product: on that kernel where it pairs (129 x 257), else the copy kernel
    st, taken = kg.linear(a, w, c, 1.0, 0.0, None, None, "col")
    torch.cuda.synchronize()
    print("plain", M, N, K, st, taken)
    assert st == "success" and taken == "tma"
# split-K (2 splits; ragged M, N, K; C read by the last split, fp32 output); 96 x 1000 x 2056 is
# a short product split in two (16 pairs of 64 x 64 tiles, src/gemm/short_rows.cuh)
for M, N, K, out_dt in ((128, 256, 2048, torch.bfloat16), (100, 300, 2104, torch.float32),
                        (96, 1000, 2056, torch.bfloat16)):
    a = torch.randn(M, K, device="cuda").bfloat16()
    w = torch.randn(N, K, device="cuda").bfloat16()
    c = torch.randn(M, N, device="cuda").to(out_dt)
    st, taken = kg.linear(a, w, c, 1.0, 0.5, "relu", torch.randn(N, device="cuda"), "col")
    torch.cuda.synchronize()
    print("split-K", M, N, K, st, taken)
    assert st == "success" and taken == "tma"
    # no C: split 0 starts from the bias, the other splits from a zero-filled box past N
    st, taken = kg.linear(a, w, c, 2.0, 0.0, "gelu", torch.randn(N, device="cuda"), "col")
    torch.cuda.synchronize()
    print("split-K bias+act", M, N, K, st, taken)
    assert st == "success" and taken == "tma"
# D^T stored in row pairs (store_direct_column_major) into a D with an even ldc past an odd N
# (the last weight tile's last row alone): few rows on 128 x 16 and 128 x 64 tiles, the
# two-tile product on 64 x 80 tiles
for (M, N, K) in [(5, 8201, 72), (40, 8191, 72), (150, 4223, 72)]:
    a = torch.randn(M, K, device="cuda").bfloat16()
    w = torch.randn(N, K, device="cuda").bfloat16()
    c = torch.empty(M, N + 1, device="cuda").bfloat16()[:, :N]
    st, taken = kg.linear(a, w, c, 1.0, 0.0, None, None, "col")
    torch.cuda.synchronize()
    print("column pairs", M, N, K, st, taken)
    assert st == "success" and taken == "tma"
# a row bias on the transposed few-row path (its column bias), ragged N and K
a = torch.randn(5, 72, device="cuda").bfloat16()
w = torch.randn(8200, 72, device="cuda").bfloat16()
c = torch.empty(5, 8200, device="cuda").bfloat16()
st, taken = kg.linear(a, w, c, 2.0, 0.0, "relu", torch.randn(5, device="cuda"), "row")
torch.cuda.synchronize()
print("few rows, row bias", st, taken)
assert st == "success" and taken == "tma"
# MN-major operands (transposed A, B stored K x N) and a GETT view on the TMA path
for ta, tb in (("T", "N"), ("N", "N"), ("T", "T")):
    M, N, K = 136, 264, 72
    a = torch.randn(*((K, M) if ta == "T" else (M, K)), device="cuda").bfloat16()
    b = torch.randn(*((K, N) if tb == "N" else (N, K)), device="cuda").bfloat16()
    c = torch.randn(M, N, device="cuda").bfloat16()
    st, taken = kg.gemm_raw(ta, tb, M, N, K, 1.0, a, a.stride(0), b, b.stride(0), 0.5, c, N,
                            act="relu")
    torch.cuda.synchronize()
    print(M, N, K, ta + tb, st, taken)
    assert st == "success" and taken == "tma"
ext = dict(a=64, b=3, c=200, d=72)
A = torch.randn(3, 72, 64, device="cuda").bfloat16()
B = torch.randn(72, 200, device="cuda").bfloat16()
D = torch.empty(64, 3, 200, device="cuda").bfloat16()
st, taken = kg.contract("abc = bda * dc", ext, A, B, D, with_path=True)
torch.cuda.synchronize()
print("contract", st, taken)
assert st == "success" and taken == "tma"
# operands copied into another mode order before the GEMM (both copy kernels, ragged tiles); D
# with two column modes of 64 leaves through the TMA store
for spec, ext in (("ab = acd * dbc", dict(a=72, b=136, c=4, d=64)),
                  ("abc = dca * bd", dict(a=8, b=72, c=64, d=136)),  # + rank-4 TMA store
                  ("ab = adc * dbc", dict(a=72, b=136, c=32, d=8))):
    lhs, rhs = spec.replace(" ", "").split("=")
    ta_, tb_ = rhs.split("*")
    A = torch.randn(*[ext[m] for m in ta_], device="cuda").bfloat16()
    B = torch.randn(*[ext[m] for m in tb_], device="cuda").bfloat16()
    D = torch.empty(*[ext[m] for m in lhs], device="cuda").bfloat16()
    st, taken = kg.contract(spec, ext, A, B, D, with_path=True)
    torch.cuda.synchronize()
    print("contract", spec, st, taken)
    assert st == "success" and taken == "tma"
# split-complex planes on the tensor cores (ragged; interleaved and split outputs) and fp8
for out in ("c64", "split"):
    M, N, K = 136, 200, 72
    ar, ai = (torch.randn(M, K, device="cuda").bfloat16() for _ in range(2))
    br, bi = (torch.randn(N, K, device="cuda").bfloat16() for _ in range(2))
    c = (torch.empty(M, N, device="cuda", dtype=torch.complex64) if out == "c64" else
         (torch.empty(M, N, device="cuda").bfloat16(), torch.empty(M, N, device="cuda").bfloat16()))
    st, taken = kg.cgemm_planar("N", "T", M, N, K, ar, ai, K, br, bi, K, c, N)
    torch.cuda.synchronize()
    print("complex", out, st, taken)
    assert st == "success" and taken == "tma"
for dt in (torch.float8_e4m3fn, torch.float8_e5m2):
    a = torch.randn(136, 528, device="cuda").to(dt)
    w = torch.randn(200, 528, device="cuda").to(dt)
    c = torch.empty(136, 200, device="cuda").bfloat16()
    st, taken = kg.linear(a, w, c, 0.5, 0.0, "relu", torch.randn(200, device="cuda"), "col")
    torch.cuda.synchronize()
    print("fp8", dt, st, taken)
    assert st == "success" and taken == "tma"
# element-wise transforms of A, B (in the smem stage, ragged K) and C, with row / column sums
M, N, K = 136, 264, 72
a = torch.randn(M, K, device="cuda").bfloat16()
w = torch.randn(N, K, device="cuda").bfloat16()
c = torch.randn(M, N, device="cuda").bfloat16()
r, s = torch.zeros(M, device="cuda"), torch.zeros(N, device="cuda")
ops = kg.element_ops((1.0, 0.5, False), (1.0, 0.5, False), (1.0, 0.0, True))
st, taken = kg.linear(a, w, c, 1.0, 1.0, "relu", torch.randn(N, device="cuda"), "col", ops=ops,
                      row_sum=r, col_sum=s)
torch.cuda.synchronize()
print("chain + sums", st, taken)
assert st == "success" and taken == "tma"
# the same with the affine A/B transforms folded into the epilogue (row-sum prepass)
st, taken = kg.linear(a, w, c, 1.0, 1.0, "relu", torch.randn(N, device="cuda"), "col", ops=ops,
                      row_sum=r, col_sum=s, workspace=kg.fold_workspace(M, N))
torch.cuda.synchronize()
print("chain folded + sums", st, taken)
assert st == "success" and taken == "tma"
# a C that TMA cannot read (ldc = 263): the chain kernel that stages only the column vectors
M, N, K = 136, 263, 72
w = torch.randn(N, K, device="cuda").bfloat16()
c = torch.randn(M, N, device="cuda").bfloat16()
st, taken = kg.linear(a, w, c, 1.0, 1.0, "relu", torch.randn(N, device="cuda"), "col", ops=ops,
                      workspace=kg.fold_workspace(M, N))
torch.cuda.synchronize()
print("chain folded, C unaligned", st, taken)
assert st == "success" and taken == "tma"
print("gemm_small: done")
