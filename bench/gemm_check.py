"""GPU correctness of kiln::gemm::gemmEx against a float64 reference on fresh random data:
tile-multiple and ragged sizes, both paths, every output dtype, epilogues, batches, all
transpositions, misaligned pointers, error values. Prints one line per case; exits 1 on failure.
Usage: python3 bench/gemm_check.py [--quick]"""
import math
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import kiln_gemm as kg  # noqa: E402

torch.manual_seed(1234)
dev = "cuda"
fails = 0
TOL = {torch.bfloat16: 1e-2, torch.float16: 2e-3, torch.float32: 1e-4}


def rel(out, ref):
    out = out.double()
    if not torch.isfinite(out).all():
        return math.inf
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def act_ref(x, act):
    if act == "relu":
        return torch.relu(x)
    if act == "gelu":
        return F.gelu(x, approximate="tanh")
    if act == "silu":
        return F.silu(x)
    return x


def with_bias(ref, bias, bias_mode):
    """ref + a row (bias[row]) or column (bias[col]) bias, in float64; bias None: ref."""
    if bias is None:
        return ref
    return ref + bias.double().unsqueeze(-1 if bias_mode == "row" else -2)


def report(name, err, tol, status, path, want_path=None):
    global fails
    ok = status == "success" and err <= tol and (want_path is None or path == want_path)
    fails += not ok
    print(f"{'PASS' if ok else 'FAIL'} {name:58s} err={err:.2e} tol={tol:.0e} path={path} "
          f"status={status}")


def case_linear(M, N, K, in_dt=torch.bfloat16, out_dt=torch.bfloat16, alpha=1.0, beta=0.0,
                act=None, bias_mode=None, batch=0, path="auto", want=None, bias_dt=torch.float32,
                bias_offset=0, ldc_pad=0):
    """ldc_pad: D's rows ldc = N + ldc_pad apart, the padding a sentinel no store may touch."""
    shp = (batch,) if batch else ()
    a = torch.randn(*shp, M, K, device=dev).to(in_dt)
    w = torch.randn(*shp, N, K, device=dev).to(in_dt)
    c_rows = torch.full((*shp, M, N + ldc_pad), 7.0, device=dev).to(out_dt)
    c = c_rows[..., :N]
    c.copy_(torch.randn(*shp, M, N, device=dev))
    c0 = c.double().clone()
    if beta == 0.0:
        c.fill_(float("nan"))  # poison: every element must be written, C never read
    bias = None
    if bias_mode:
        # bias_offset: the vector starts that many elements into its buffer (misaligned for TMA)
        n = M if bias_mode == "row" else N
        bias = torch.randn(*shp, n + bias_offset, device=dev).to(bias_dt)[..., bias_offset:]
    st, taken = kg.linear(a, w, c, alpha, beta, act, bias, bias_mode or "col", path)
    torch.cuda.synchronize()
    ref = alpha * (a.double() @ w.double().transpose(-1, -2))
    if beta != 0.0:
        ref = ref + beta * c0
    ref = with_bias(ref, bias, bias_mode)
    ref = act_ref(ref, act)
    bias_note = ""
    if bias_mode:
        bias_note = str(bias_dt)[6:] + (f"+{bias_offset}" if bias_offset else "")
    name = (f"linear {M}x{N}x{K}{' b'+str(batch) if batch else ''} {str(in_dt)[6:]}->"
            f"{str(out_dt)[6:]} a={alpha} b={beta} {act or ''} {bias_mode or ''} {bias_note} "
            f"{f'ldc+{ldc_pad} ' if ldc_pad else ''}[{path}]")
    tol = TOL[out_dt] if out_dt != torch.float32 else 2e-5 * math.sqrt(K) + 1e-5
    padding_kept = bool((c_rows[..., N:] == 7.0).all())
    report(name, rel(c, ref) if padding_kept else math.inf, tol, st, taken, want)


def case_trans(M, N, K, ta, tb, in_dt=torch.bfloat16, offset=0, out_dt=torch.float32,
               act=None, bias_mode=None, beta=0.0, batch=0):
    shp = (batch,) if batch else ()
    a_log = torch.randn(*shp, M, K, device=dev).to(in_dt)
    b_log = torch.randn(*shp, K, N, device=dev).to(in_dt)
    a_st = a_log if ta == "N" else a_log.transpose(-1, -2).contiguous()
    b_st = b_log if tb == "N" else b_log.transpose(-1, -2).contiguous()
    if offset:  # misaligned base pointers: views starting `offset` elements in
        a_buf = torch.empty(a_st.numel() + offset, device=dev, dtype=in_dt)
        a_buf[offset:] = a_st.flatten()
        a_st = a_buf[offset:].view(a_st.shape)
    c = torch.randn(*shp, M, N, device=dev).to(out_dt)
    c0 = c.double().clone()
    if beta == 0.0:
        c.fill_(float("nan"))
    bias = torch.randn(*shp, N if bias_mode == "col" else M, device=dev) if bias_mode else None
    lda, ldb = a_st.stride(-2), b_st.stride(-2)
    st, taken = kg.gemm_raw(ta, tb, M, N, K, 1.0, a_st, lda, b_st, ldb, beta, c, N, act=act,
                            bias=bias, bias_mode=bias_mode, batch=batch or 1,
                            sa=a_st.stride(0) if batch else 0, sb=b_st.stride(0) if batch else 0,
                            sc=c.stride(0) if batch else 0, a_dtype=in_dt,
                            sbias=bias.stride(0) if batch and bias is not None else 0)
    torch.cuda.synchronize()
    ref = a_log.double() @ b_log.double() + beta * c0
    ref = with_bias(ref, bias, bias_mode)
    ref = act_ref(ref, act)
    tma_ok = (not offset and in_dt in (torch.bfloat16, torch.float16) and lda % 8 == 0
              and ldb % 8 == 0)
    want = "tma" if tma_ok else "generic"
    tol = 2e-5 * math.sqrt(K) + 1e-5 if in_dt != torch.float32 else 1e-5
    if out_dt != torch.float32:
        tol = TOL[out_dt]
    report(f"op {ta}{tb} {M}x{N}x{K}{' b'+str(batch) if batch else ''} {str(in_dt)[6:]}->"
           f"{str(out_dt)[6:]} offset={offset} {act or ''} {bias_mode or ''} beta={beta}",
           rel(c, ref), tol, st, taken, want)


def elementwise_ref(x, op):
    """float64 reference of an ElementOp (scale, shift, relu); None: identity."""
    if op is None:
        return x
    scale, shift, relu = op
    y = scale * x + shift
    return torch.relu(y) if relu else y


def problem(shp, M, N, K, in_dt, out_dt, ta, tb, beta, scale=1.0):
    """Random logical A (M x K), B (K x N) of in_dt (times scale before the cast), stored per
    ta / tb (T: transposed copy), and C (M x N) of out_dt with its float64 copy; C is NaN-poisoned
    when beta == 0 (it must be written, never read)."""
    a_log = (torch.randn(*shp, M, K, device=dev) * scale).to(in_dt)
    b_log = (torch.randn(*shp, K, N, device=dev) * scale).to(in_dt)
    a_st = a_log if ta == "N" else a_log.transpose(-1, -2).contiguous()
    b_st = b_log if tb == "N" else b_log.transpose(-1, -2).contiguous()
    c = torch.randn(*shp, M, N, device=dev).to(out_dt)
    c0 = c.double().clone()
    if beta == 0.0:
        c.fill_(float("nan"))
    return a_log, b_log, a_st, b_st, c, c0


def case_chain(M, N, K, op_a, op_b, op_c=None, beta=0.0, act=None, bias_mode=None,
               in_dt=torch.bfloat16, out_dt=None, ta="N", tb="T", want="tma", path="auto",
               fold=False, batch=0):
    """The paper's Table 2 chain: D = act(opA(op(A)) opB(op(B)) + beta opC(C) + bias).
    fold: pass a workspace, so affine A/B transforms fold into the epilogue (fp32, unrounded)."""
    out_dt = out_dt or in_dt
    shp = (batch,) if batch else ()
    a_log, b_log, a_st, b_st, c, c0 = problem(shp, M, N, K, in_dt, out_dt, ta, tb, beta)
    bias = torch.randn(N if bias_mode == "col" else M, device=dev) if bias_mode else None
    st, taken = kg.gemm_raw(ta, tb, M, N, K, 1.0, a_st, a_st.stride(-2), b_st, b_st.stride(-2),
                            beta, c, N, act=act, bias=bias, bias_mode=bias_mode, a_dtype=in_dt,
                            path=path, ops=kg.element_ops(op_a, op_b, op_c), batch=batch or 1,
                            sa=a_st.stride(0) if batch else 0, sb=b_st.stride(0) if batch else 0,
                            sc=c.stride(0) if batch else 0,
                            workspace=kg.fold_workspace(M, N, batch or 1) if fold else None)
    torch.cuda.synchronize()
    # A and B transforms as the kernel rounds them: to the input type in the sm90 kernel's shared
    # memory, not at all when folded or on the generic kernel (fp32)
    relu_ab = (op_a is not None and op_a[2]) or (op_b is not None and op_b[2])
    smem = want == "tma" and not (fold and not relu_ab)
    rnd = (lambda x: x.to(in_dt).double()) if smem else (lambda x: x)  # noqa: E731
    ta_ = rnd(elementwise_ref(a_log.double(), op_a))
    tb_ = rnd(elementwise_ref(b_log.double(), op_b))
    ref = ta_ @ tb_
    if beta != 0.0:
        ref = ref + beta * elementwise_ref(c0, op_c)
    ref = act_ref(with_bias(ref, bias, bias_mode), act)
    report(f"chain {ta}{tb} {M}x{N}x{K}{' b'+str(batch) if batch else ''} {str(in_dt)[6:]}->"
           f"{str(out_dt)[6:]} A{op_a} B{op_b} C{op_c} b={beta} {act or ''} {bias_mode or ''} "
           f"{'fold ' if fold else ''}[{path}]",
           rel(c, ref), TOL[out_dt] if out_dt != torch.float32 else 1e-4, st, taken, want)


def case_sums(M, N, K, rows=True, cols=True, batch=0, act=None, bias_mode=None,
              out_dt=torch.bfloat16, want="tma", path="auto"):
    """Row / column sums of D in the epilogue vs float64 sums of the float64 reference."""
    shp = (batch,) if batch else ()
    a = torch.randn(*shp, M, K, device=dev).bfloat16()
    w = torch.randn(*shp, N, K, device=dev).bfloat16()
    c = torch.full((*shp, M, N), float("nan"), device=dev, dtype=out_dt)
    bias = torch.randn(*shp, N, device=dev) if bias_mode else None
    r = torch.zeros(*shp, M, device=dev) if rows else None
    s = torch.zeros(*shp, N, device=dev) if cols else None
    st, taken = kg.linear(a, w, c, act=act, bias=bias, bias_mode=bias_mode or "col", path=path,
                          row_sum=r, col_sum=s)
    torch.cuda.synchronize()
    ref = act_ref(with_bias(a.double() @ w.double().transpose(-1, -2), bias, bias_mode), act)
    err = rel(c, ref)
    # fp32 atomics over N (or M) terms: relative to the norm, ~1e-6 * sqrt(terms)
    if rows:
        err = max(err, rel(r, ref.sum(-1)) * (TOL[out_dt] / 1e-4))
    if cols:
        err = max(err, rel(s, ref.sum(-2)) * (TOL[out_dt] / 1e-4))
    report(f"sums {M}x{N}x{K}{' b'+str(batch) if batch else ''} rows={rows} cols={cols} "
           f"->{str(out_dt)[6:]} {act or ''} {bias_mode or ''} [{path}]", err, TOL[out_dt], st,
           taken, want)


def report_values(checks):
    """checks: (name, status got, status wanted) of calls that must fail with that error value."""
    global fails
    for name, got, want in checks:
        ok = got == want
        fails += not ok
        print(f"{'PASS' if ok else 'FAIL'} error value: {name:40s} got '{got}' want '{want}'")


def case_errors():
    a = torch.randn(64, 64, device=dev).bfloat16()
    c = torch.empty(64, 64, device=dev).bfloat16()
    bad_ld = "bad leading dimension"
    checks = [
        ("lda < K", kg.gemm_raw("N", "T", 64, 64, 64, 1, a, 32, a, 64, 0, c, 64)[0], bad_ld),
        ("ldc < N", kg.gemm_raw("N", "T", 64, 64, 64, 1, a, 64, a, 64, 0, c, 16)[0], bad_ld),
        ("M < 0", kg.gemm_raw("N", "T", -1, 64, 64, 1, a, 64, a, 64, 0, c, 64)[0], "invalid value"),
        ("fp8 out", kg.gemm_raw("N", "T", 64, 64, 64, 1, a, 64, a, 64, 0,
                                c.view(torch.float8_e4m3fn)[:, :64], 64)[0],
         "unsupported data type"),
        ("forced tma, lda % 8 != 0", kg.gemm_raw("N", "N", 64, 64, 60, 1, a, 60, a, 64, 0, c, 64,
                                                 path="tma")[0], "path unavailable"),
    ]
    report_values(checks)


quick = "--quick" in sys.argv
# tile multiples and ragged sizes, wgmma path
for (M, N, K) in [(128, 256, 64), (256, 512, 256), (1024, 1024, 1024), (2048, 2048, 512),
                  (129, 257, 72), (1000, 1000, 1000), (77, 300, 8), (1, 1, 8), (4095, 4097, 520),
                  (300, 5000, 4096)]:
    case_linear(M, N, K, want="tma")
for out_dt in (torch.float16, torch.float32):
    case_linear(333, 1000, 1000, out_dt=out_dt, want="tma")
case_linear(512, 768, 512, in_dt=torch.float16, out_dt=torch.float16, want="tma")
case_linear(513, 700, 264, in_dt=torch.float16, out_dt=torch.float32, want="tma")
# epilogues
case_linear(600, 900, 512, alpha=0.5, beta=0.75, want="tma")
case_linear(600, 900, 512, out_dt=torch.float32, alpha=-2.0, beta=1.5, want="tma")
for act in ("relu", "gelu", "silu"):
    case_linear(700, 1100, 384, act=act, bias_mode="col", want="tma")
case_linear(700, 1100, 384, act="relu", bias_mode="row", bias_dt=torch.bfloat16, want="tma")
# bias + act on several 128 x 256 tiles per CTA (264 tiles, ragged in M and N): every tile but a
# CTA's last leaves held under the next one's mainloop (store_deferred.cuh), ReLU by the pack
for act, dt in (("relu", torch.bfloat16), ("relu", torch.float16), ("gelu", torch.bfloat16)):
    case_linear(3000, 2600, 320, in_dt=dt, out_dt=dt, act=act, bias_mode="col", want="tma")
case_linear(700, 1100, 384, out_dt=torch.float32, act="gelu", bias_mode="col", alpha=2.0,
            beta=0.5, want="tma")
# the column bias starting the accumulator (acc_bias.cuh): 16-bit biases on ragged held tiles
# (the slot's zeros past N), fp32 output (direct stores), no bias with alpha (a zeroed slot,
# alpha 0 included), a batched bias; and the calls it cannot take (EpilogueLinear adds the bias
# instead): a bias TMA cannot read (one element off 16 bytes; a batch stride of 2200 bytes) and
# alpha = 0 with a bias (as every |alpha| < 1: bias / alpha could overflow)
for bdt in (torch.bfloat16, torch.float16):
    case_linear(3000, 2600, 320, act="gelu", bias_mode="col", bias_dt=bdt, want="tma")
case_linear(700, 1100, 384, out_dt=torch.float32, act="relu", bias_mode="col", alpha=-1.5,
            bias_dt=torch.bfloat16, want="tma")
for alpha in (0.5, 0.0):
    case_linear(700, 1100, 384, act="relu", alpha=alpha, want="tma")
case_linear(1100, 1024, 256, batch=3, act="gelu", bias_mode="col", bias_dt=torch.bfloat16,
            want="tma")
case_linear(700, 1100, 384, act="gelu", bias_mode="col", bias_offset=1, want="tma")
case_linear(1100, 1100, 256, batch=2, act="relu", bias_mode="col", bias_dt=torch.bfloat16,
            want="tma")
case_linear(700, 1100, 384, act="gelu", bias_mode="col", alpha=0.0, want="tma")
# GELU with alpha folded into its constants (epilogue.cuh GeluScaled): a negative alpha on held
# tiles, no bias with |alpha| < 1; past 2^40 the fold's alpha^3 would not hold (EpilogueLinear)
case_linear(3000, 2600, 320, act="gelu", bias_mode="col", alpha=-2.5, want="tma")
case_linear(700, 1100, 384, act="gelu", alpha=0.25, want="tma")
case_linear(700, 1100, 384, act="gelu", bias_mode="col", alpha=2.0**41, want="tma")
# one wave of 128 x 128 tiles, two M-tiles: the bias + activation kernel runs in 2-CTA clusters
# (params.h pair_narrow_tiles), ragged M, N and K (the second CTA's rows past M), fp16, a batch;
# the plain product of the same shape runs on that kernel too (no bias, alpha 1, no activation)
case_linear(256, 8192, 1024, act="gelu", bias_mode="col", want="tma")
case_linear(250, 8000, 520, in_dt=torch.float16, out_dt=torch.float16, act="relu",
            bias_mode="col", want="tma")
case_linear(250, 8000, 520, want="tma")
case_linear(256, 4096, 512, out_dt=torch.float32, want="tma")
case_linear(200, 1000, 256, batch=3, in_dt=torch.float16, out_dt=torch.float16, want="tma")
case_linear(200, 1000, 256, batch=3, act="silu", bias_mode="col", bias_dt=torch.bfloat16,
            want="tma")
# few rows (src/gemm/few_rows.cuh): at most 64 rows against up to 132 128-row tiles of B run
# transposed on 128 x 16 tiles (up to 16 rows) or 128 x 64, D stored column by column; ragged N
# and K, one row, fp32 and fp16 outputs, the column bias as the transposed problem's row bias, a
# batch, and alpha with SiLU and no bias (the bias + activation kernel at 16 columns)
case_linear(16, 8192, 512, want="tma")
case_linear(1, 8200, 264, out_dt=torch.float32, want="tma")
case_linear(64, 8192, 256, act="gelu", bias_mode="col", bias_dt=torch.bfloat16, want="tma")
case_linear(33, 4000, 520, batch=2, in_dt=torch.float16, out_dt=torch.float16, act="relu",
            bias_mode="col", want="tma")
case_linear(7, 8448, 128, alpha=0.5, act="silu", want="tma")
# D^T's rows stored in pairs (store_direct_column_major): an odd N with an even ldc (the last
# tile's last row alone) and a batch of them, and an odd ldc (stored element by element)
case_linear(16, 4001, 264, ldc_pad=7, want="tma")
case_linear(40, 4001, 520, batch=2, ldc_pad=1, act="relu", bias_mode="col", want="tma")
case_linear(40, 4001, 264, ldc_pad=2, want="tma")
# a row bias is the transposed problem's column bias: the linear kernel, one with ReLU and a
# batch of ragged ones with alpha < 1
case_linear(16, 8192, 512, act="relu", bias_mode="row", want="tma")
case_linear(5, 4000, 264, batch=3, alpha=0.5, act="gelu", bias_mode="row",
            bias_dt=torch.bfloat16, want="tma")
# few rows against fewer tiles, K split (few_rows_splits): 4 splits of 32 tiles, 2 of 16
# ragged ones with an fp32 output and a column bias, a batch, SiLU split (the linear epilogue)
case_linear(16, 4096, 4096, want="tma")
case_linear(3, 2000, 2104, out_dt=torch.float32, act="gelu", bias_mode="col",
            bias_dt=torch.bfloat16, want="tma")
case_linear(40, 1000, 4104, batch=2, in_dt=torch.float16, out_dt=torch.float16, act="relu",
            bias_mode="col", want="tma")
case_linear(64, 4096, 2048, alpha=0.5, act="silu", want="tma")
# the column bias starting split 0's accumulator as the transposed problem's row bias (the other
# splits load a box past the weights' last tile: zeros): alpha 2 with an fp16 bias, ragged
# weights in a batch of bf16 biases, SiLU with a bias (split: the linear kernel), a bias TMA
# cannot read (offset by one element: the linear kernel)
case_linear(16, 4096, 4096, in_dt=torch.float16, out_dt=torch.float16, alpha=2.0, act="relu",
            bias_mode="col", bias_dt=torch.float16, want="tma")
case_linear(12, 1930, 4160, batch=2, act="gelu", bias_mode="col", bias_dt=torch.bfloat16,
            want="tma")
case_linear(16, 4096, 4096, act="silu", bias_mode="col", want="tma")
case_linear(16, 4096, 4096, act="relu", bias_mode="col", bias_offset=1, want="tma")
# few rows untransposed (few_rows_untransposed_width): A's rows one 64-row M-tile, one wave of
# the weights' 32-256-wide N-tiles, D row-major; D's column bias starts the accumulator
# (kAccBias), its row bias runs the linear kernel. 112-wide tiles with a bf16 column bias, 104
# wide (the last tile ragged) with an fp32 output, a batch (transposed: 128 x 64 tiles), D's row
# bias in fp16 at 64 rows
case_linear(32, 14336, 512, act="relu", bias_mode="col", bias_dt=torch.bfloat16, want="tma")
case_linear(40, 13000, 1000, out_dt=torch.float32, act="gelu", bias_mode="col", want="tma")
case_linear(33, 7000, 520, batch=2, want="tma")
case_linear(64, 13000, 264, in_dt=torch.float16, out_dt=torch.float16, act="relu",
            bias_mode="row", bias_dt=torch.float16, want="tma")
# every width: 80 (plain), 80 wide ragged with a column bias, 96 with D's row bias and GELU in
# fp16, 88 with an fp32 output, alpha < 1 (the linear kernel), SiLU and a padded ldc; 32 (64 x
# 4096, alpha 2 with an fp16 bias), 40 at one and 16 rows (ragged), 48 at 16 rows with an fp16
# output, 56 at 8 rows, 64, 72 (ragged K), 128 (132 tiles), 136 (the first past 132 of 128), 168,
# 224 (ragged), 256 (one row past 256 * 132 would leave the path), 152 and 248 wide
case_linear(32, 10240, 512, want="tma")
case_linear(40, 10200, 264, act="relu", bias_mode="col", bias_dt=torch.bfloat16, want="tma")
case_linear(64, 12288, 1000, in_dt=torch.float16, out_dt=torch.float16, act="gelu",
            bias_mode="row", bias_dt=torch.float16, want="tma")
case_linear(20, 11000, 520, out_dt=torch.float32, alpha=0.5, act="silu", ldc_pad=3, want="tma")
case_linear(64, 4096, 1024, alpha=2.0, act="relu", bias_mode="col", bias_dt=torch.float16,
            want="tma")
case_linear(1, 5000, 520, act="gelu", bias_mode="col", want="tma")
case_linear(16, 5119, 264, act="relu", bias_mode="col", want="tma")
case_linear(16, 6144, 512, in_dt=torch.float16, out_dt=torch.float16, act="silu",
            bias_mode="col", bias_dt=torch.float16, want="tma")
case_linear(8, 7000, 264, want="tma")
case_linear(48, 8192, 264, act="relu", bias_mode="col", want="tma")
case_linear(24, 9300, 1000, out_dt=torch.float32, want="tma")
case_linear(48, 16896, 136, act="gelu", bias_mode="col", want="tma")
case_linear(48, 17000, 136, act="relu", bias_mode="row", want="tma")
case_linear(64, 22016, 264, alpha=2.0, act="relu", bias_mode="col", want="tma")
case_linear(17, 28600, 136, out_dt=torch.float32, act="gelu", bias_mode="col", want="tma")
case_linear(33, 33792, 72, in_dt=torch.float16, out_dt=torch.float16, want="tma")
case_linear(40, 20000, 264, act="gelu", bias_mode="col", bias_dt=torch.float16, want="tma")
case_linear(64, 32000, 136, out_dt=torch.float32, act="relu", bias_mode="col", want="tma")
# short products (src/gemm/short_rows.cuh): 65 to 128 or 193 to 256 rows on paired 64-row
# tiles, 64 wide (127 x 4096: 64 pairs; 65 x 4224: 66, the second M-tile one row; 96 x 2100 b2:
# ragged N, whose last B box overhangs in the second CTA's half, direct stores) or 128 wide
# (96 x 5120, 100 x 8192, 256 and 200 rows: two pair rows); every epilogue kernel: copy,
# bias + activation (fp32 and fp16 outputs), linear with C and a row bias
case_linear(127, 4096, 512, want="tma")
case_linear(65, 4224, 128, act="relu", bias_mode="col", want="tma")
case_linear(96, 2100, 264, batch=2, in_dt=torch.float16, out_dt=torch.float16, act="gelu",
            bias_mode="col", bias_dt=torch.float16, want="tma")
case_linear(96, 5120, 520, out_dt=torch.float32, act="gelu", bias_mode="col", want="tma")
case_linear(100, 8192, 264, in_dt=torch.float16, out_dt=torch.float16, beta=0.5, act="relu",
            bias_mode="row", want="tma")
case_linear(256, 4096, 1024, alpha=2.0, act="silu", bias_mode="col", want="tma")
case_linear(200, 4000, 256, alpha=0.5, beta=1.0, want="tma")
# short products under half a wave of pairs split K (64 wide): 80 x 2048 in two (ragged K),
# 128 x 1024 in four (bias + ReLU: split 0 starts from the bias), 100 x 1000 in two (ragged N,
# C and a row bias, fp32 out: the linear epilogue's fix-up), 256 x 1024 (two pair rows, SiLU)
case_linear(80, 2048, 2056, want="tma")
case_linear(128, 1024, 4096, act="relu", bias_mode="col", want="tma")
case_linear(100, 1000, 2104, out_dt=torch.float32, beta=0.5, act="gelu", bias_mode="row",
            want="tma")
case_linear(256, 1024, 2048, alpha=2.0, act="silu", bias_mode="col", want="tma")
# transposed short products (129 to 160 rows, short_rows.cuh, D stored column by column): past
# past three quarters of a wave of 128-row weight tiles: the two-tile product with each weight
# tile's two CTAs a cluster (with KILN_GEMM_TWO_TILE_CLUSTER=0, 64 x 160 pairs: the weights on
# paired 64-row tiles, A's rows one 160-wide tile): the copy kernel; D's column bias as the
# transposed row bias (linear epilogue); ragged weights (6600: the last tile's second half or
# CTA past N) with an fp32 output and 129 rows; alpha 2 with D's row bias (the pairs' bias +
# activation kernel)
case_linear(160, 7168, 512, want="tma")
case_linear(150, 6500, 264, act="relu", bias_mode="col", want="tma")
case_linear(129, 6600, 520, out_dt=torch.float32, act="gelu", bias_mode="col",
            bias_dt=torch.bfloat16, want="tma")
case_linear(160, 6500, 128, alpha=2.0, act="relu", bias_mode="row", want="tma")
# the two-tile product (A's rows in two tiles, 72 wide up to 144 rows, 80 up to 160, the second
# one ragged) on 128-row weight tiles up to three quarters of a wave where the 64-row ones do
# not fit one: D's column bias as the transposed row bias; ragged weights (4300) with an fp32
# output and 129 rows (the second tile one row of 72); 150 rows on 128 x 80 tiles (68 CTAs);
# with C (beta 0.5) the product runs as written on 128-row tiles
case_linear(129, 4300, 520, out_dt=torch.float32, act="gelu", bias_mode="col",
            bias_dt=torch.bfloat16, want="tma")
case_linear(150, 4352, 264, act="relu", bias_mode="col", want="tma")
case_linear(150, 4224, 256, beta=0.5, want="tma")
# ... and on the weights' 64-row tiles (one consumer warpgroup, unpaired) where those fit one
# wave: 150 and 160 x 4224 (132 CTAs of 64 x 80) with D's column bias, and D's row bias as the
# transposed column bias with alpha 2 (the linear kernel); a batch in fp16 with D's row bias
# (SiLU, alpha 0.5; 64 x 72); 32 weight tiles of 128 rows (64 of 64 rows, 128 CTAs); 31 ragged
# ones with an fp32 output (64 x 72); K = 8192 keeps 128 x 72 tiles where they fit
case_linear(150, 4224, 264, act="relu", bias_mode="col", want="tma")
case_linear(160, 4224, 128, alpha=2.0, act="relu", bias_mode="row", want="tma")
case_linear(136, 2112, 256, batch=2, in_dt=torch.float16, out_dt=torch.float16, alpha=0.5,
            act="silu", bias_mode="row", want="tma")
case_linear(160, 4096, 1024, want="tma")
case_linear(144, 3968, 520, out_dt=torch.float32, act="gelu", bias_mode="col", want="tma")
case_linear(144, 4096, 8192, want="tma")
# 161 to 192 rows: the two-tile product on 64-row weight tiles where they fit one wave: 88
# wide (170 rows, ragged weights 4100: the last tile 4 rows) with D's column bias; 96 wide in
# fp16 with an fp32 output and GELU, ragged K; 96 wide, the copy kernel; a batch of 176 rows
# with D's row bias (SiLU; 64 CTAs at K = 256). (At 193-208 rows pairs of 64-row tiles fit
# wherever these would: 200 x 4096 x 512 runs 64 x 128 pairs.)
case_linear(170, 4100, 1000, act="relu", bias_mode="col", want="tma")
case_linear(190, 3000, 2056, in_dt=torch.float16, out_dt=torch.float32, act="gelu",
            bias_mode="col", bias_dt=torch.float16, want="tma")
case_linear(184, 4096, 512, want="tma")
case_linear(176, 1024, 256, batch=2, alpha=0.5, act="silu", bias_mode="row", want="tma")
case_linear(200, 4096, 512, want="tma")
# ... else on 128-row weight tiles past K = 4096 where they fill more than half a wave and at
# most one: 128 x 88 (176 rows; a batch with D's row bias, SiLU, 161 rows: the second tile 73
# rows of 88), 128 x 96 (ragged K and an fp16 output with D's column bias), 128 x 104 (13 column
# groups: the epilogue's chunks of one; an fp32 output and GELU); with C as written
case_linear(176, 7168, 4160, want="tma")
case_linear(161, 2240, 4160, batch=2, alpha=0.5, act="silu", bias_mode="row", want="tma")
case_linear(192, 5120, 4200, in_dt=torch.float16, out_dt=torch.float16, act="relu",
            bias_mode="col", bias_dt=torch.float16, want="tma")
case_linear(200, 8000, 4160, out_dt=torch.float32, act="gelu", bias_mode="col", want="tma")
case_linear(208, 4480, 4104, beta=0.5, want="tma")
# The two CTAs of a weight tile as a 2-CTA cluster along N sharing it (each loads half of it
# and multicasts it): the 128-row cases above from three fifths of a wave (176 x 7168, 192 x
# 5120, 200 x 8000: the last weight tile's second half past N; and those past three quarters
# that ran as 64 x 160 pairs before) and a batch of them (161 rows, 96 CTAs); the 64-row tiles
# 72 wide where the weights outgrow the L2 (144 x 4096 x 8192 above): ragged weights (4100:
# the last tile's first half 4 rows through its tail map, the second wholly past N) with D's
# column bias and an fp32 output; a batch whose weights outgrow the L2 together, with D's row
# bias; fp16 with ragged K. Unpaired: 136 x 3968 x 6400 (48 MiB of weights, in the L2; 62 CTAs
# of 128-row tiles), 129 x 4300 and 150 x 4352 above (68 CTAs), 160 x 4096 x 8192 (80 wide:
# the weights evict-first).
case_linear(161, 3000, 4160, batch=2, alpha=0.5, act="silu", bias_mode="row", want="tma")
case_linear(131, 4100, 8192, out_dt=torch.float32, act="relu", bias_mode="col", want="tma")
case_linear(140, 2048, 8192, batch=2, alpha=0.5, act="silu", bias_mode="row", want="tma")
case_linear(137, 4160, 7000, in_dt=torch.float16, out_dt=torch.float16, act="gelu",
            bias_mode="col", bias_dt=torch.float16, want="tma")
case_linear(136, 3968, 6400, want="tma")
case_linear(160, 4096, 8192, act="relu", bias_mode="col", want="tma")
# 129-160 rows past K = 8192 (the pairs' bound): the two tiles at any K: 64 x 72 clustered
# (ragged weights and K), 64 x 80 unpaired with D's column bias, 128 x 80 clustered (96 CTAs)
# with an fp32 output
case_linear(133, 4100, 9000, want="tma")
case_linear(155, 4096, 10000, act="relu", bias_mode="col", want="tma")
case_linear(150, 6144, 9000, out_dt=torch.float32, act="gelu", bias_mode="col", want="tma")
# 161-208 rows from K = 1024 on clustered 128-row two tiles (ragged K; ragged weights with D's
# column bias; fp16 in, an fp32 output with GELU)
case_linear(176, 7168, 1032, want="tma")
case_linear(200, 6100, 2048, act="relu", bias_mode="col", want="tma")
case_linear(184, 5120, 1536, in_dt=torch.float16, out_dt=torch.float32, act="gelu",
            bias_mode="col", want="tma")
# 4 x 2 clusters (the plain product's clustered 128-row two tiles up to K = 4096 where every
# cluster is resident; 176 x 7168 x 1032 above runs them too): weight tiles not a multiple of
# four (42: the last cluster's last two wholly past N) with a ragged K, a batch (6 clusters
# each), 72 wide in fp16 (each CTA loads 24 of A's rows, the fourth only rows past the tile),
# 104 wide with an fp32 output, an odd number of weights with a padded ldc, K = 4096 (the
# bound); bias + ReLU on the same shape keeps 1 x 2 clusters
case_linear(170, 5250, 1000, want="tma")
case_linear(176, 3000, 2048, batch=2, want="tma")
case_linear(129, 6000, 1536, in_dt=torch.float16, out_dt=torch.float16, want="tma")
case_linear(208, 6144, 1024, out_dt=torch.float32, want="tma")
case_linear(200, 6143, 2048, ldc_pad=1, want="tma")
case_linear(184, 5120, 4096, want="tma")
case_linear(184, 5120, 4096, act="relu", bias_mode="col", want="tma")
# The two-tile products' bias + activation kernel: D's column bias starts the accumulator as
# the kernel's row bias (kAccRowBias; the cases above with a column bias and |alpha| >= 1 take it
# too): 64 x 80 tiles with alpha 2 and a bf16 bias, ragged weights on clustered 128 x 88 tiles
# (the last tile's bias rows past N zero-filled) with an fp16 bias
case_linear(150, 4200, 520, alpha=2.0, act="gelu", bias_mode="col", bias_dt=torch.bfloat16,
            want="tma")
case_linear(176, 7000, 2048, act="silu", bias_mode="col", bias_dt=torch.float16, want="tma")
# D^T's rows in pairs with an odd number of weights and an even ldc (the last weight tile's
# last row alone): 64 x 160 pairs, 64 x 80 two tiles (66 weight tiles), clustered 64 x 72 past
# K = 8192, clustered 128 x 88 in fp16 with D's column bias
case_linear(150, 6501, 264, ldc_pad=3, want="tma")
case_linear(150, 4223, 264, ldc_pad=1, act="relu", bias_mode="col", want="tma")
case_linear(133, 4099, 9000, ldc_pad=5, want="tma")
case_linear(176, 7167, 4160, in_dt=torch.float16, out_dt=torch.float16, act="gelu",
            bias_mode="col", bias_dt=torch.float16, ldc_pad=1, want="tma")
# 2-CTA clusters with an odd number of M-tiles (the spare CTA loads zeros, stores nothing)
case_linear(2100, 4096, 256, want="tma")
case_linear(1100, 2048, 128, batch=8, act="relu", bias_mode="row", want="tma")
# strided batches
case_linear(200, 300, 128, batch=3, want="tma")
case_linear(256, 512, 256, batch=4, act="silu", bias_mode="col", out_dt=torch.float32, want="tma")
# generic path: forced, transposes, misalignment, other dtypes
case_linear(333, 555, 200, path="generic", want="generic")
case_linear(129, 257, 72, path="generic", act="gelu", bias_mode="row", beta=0.5, want="generic")
for ta in "NT":
    for tb in "NT":
        case_trans(130, 250, 96, ta, tb)
case_trans(130, 250, 96, "N", "T", offset=1)
case_trans(200, 100, 30, "N", "T")  # K % 8 != 0: TMA strides not 16-byte multiples
case_trans(130, 250, 96, "N", "N", in_dt=torch.float32)
case_trans(64, 80, 48, "T", "T", in_dt=torch.float16)
# MN-major operands on the TMA/wgmma path (transposed A and/or B stored K x N)
for ta in "NT":
    for tb in "NT":
        case_trans(136, 264, 96, ta, tb)
        case_trans(200, 328, 104, ta, tb, out_dt=torch.bfloat16)  # ragged M, N and K
        case_trans(1024, 2048, 512, ta, tb, out_dt=torch.bfloat16)  # 2-CTA clusters, many tiles
        case_trans(72, 136, 520, ta, tb, in_dt=torch.float16, out_dt=torch.float16)
case_trans(256, 512, 192, "T", "N", act="gelu", bias_mode="col", beta=0.5, out_dt=torch.bfloat16)
case_trans(300, 520, 136, "N", "N", act="relu", bias_mode="row", batch=3)
case_trans(136, 200, 64, "T", "T", batch=4, act="silu", bias_mode="col", out_dt=torch.bfloat16)
case_errors()
# TMA-store epilogue (16-bit D, 16-byte aligned rows) with C read in place, bias + activation,
# padded ldc, and the direct-store fallback next to it (ldc * 2 % 16 != 0 above)
case_linear(640, 1024, 512, alpha=0.5, beta=0.75, want="tma")
case_linear(704, 1152, 384, act="gelu", bias_mode="col", beta=0.5, want="tma")
case_linear(704, 1152, 384, in_dt=torch.float16, out_dt=torch.float16, act="relu",
            bias_mode="row", want="tma")
case_trans(136, 264, 96, "N", "T", out_dt=torch.bfloat16)  # MN-major path, TMA store


def case_split_deterministic(M, N, K):
    """Split-K sums its partials in split order whichever split finishes last: two calls on the
    same data give the same bits."""
    a = torch.randn(M, K, device=dev).bfloat16()
    w = torch.randn(N, K, device=dev).bfloat16()
    outs = [torch.full((M, N), float("nan"), device=dev, dtype=torch.float32) for _ in range(3)]
    for out in outs:
        kg.linear(a, w, out)
    torch.cuda.synchronize()
    same = all(torch.equal(outs[0], o) for o in outs[1:])
    report(f"split-K {M}x{N}x{K} ->float32 three calls bit-identical", 0.0 if same else math.inf,
           0.0, "success", "tma")


# split-K (default_params: tiles leaving half the SMs idle, >= 16 k-blocks per split): 2, 3 and
# 4 splits, ragged M, N and K (a split's k-blocks differ by one), C read by the last split only,
# every output type, batches, MN-major operands, fp8 below; 2-CTA clusters (128x256 tiles) split
# only when forced (KILN_GEMM_BN=256 KILN_GEMM_SPLITK=S, bench/results/gpu_v10_commands.txt)
case_linear(256, 2048, 4096, want="tma")  # 4 splits
case_linear(200, 1000, 2104, alpha=0.5, beta=0.75, want="tma")  # 2 splits of 16 / 17 k-blocks
case_linear(256, 1536, 3072, out_dt=torch.float32, act="gelu", bias_mode="col", beta=0.5,
            want="tma")  # 3 splits
case_linear(128, 512, 4096, batch=3, act="relu", bias_mode="row", want="tma")
case_linear(100, 700, 2048, in_dt=torch.float16, out_dt=torch.float16, want="tma")
for ta in "NT":
    for tb in "NT":
        case_trans(256, 1000, 2056, ta, tb, out_dt=torch.bfloat16)
case_split_deterministic(384, 1024, 4096)  # 4 splits: the order matters beyond p0 + p1
# tail maps on split tiles (kernel_sm90.cuh Config::TailMaps): one ragged M-tile split as far as
# 64 CTAs, A's box 96 / 80 rows, B's last box 80 / 104 rows; the rows left stale in shared
# memory reach only partials past M or N
case_linear(96, 2000, 4160, act="relu", bias_mode="col", want="tma")  # 16 tiles x 4 splits
case_linear(80, 1000, 8192, out_dt=torch.float32, beta=0.5, want="tma")  # 8 tiles x 4 splits
case_split_deterministic(96, 1000, 4096)
# bias + activation on split tiles (EpilogueBiasAct): split 0 starts from the bias, the others
# from a box wholly past N that TMA zero-fills (acc_bias.cuh); ragged, negative alpha, batched
# 16-bit biases, fp32 output (direct stores)
case_linear(256, 2048, 4096, act="gelu", bias_mode="col", want="tma")  # 4 splits
case_linear(200, 1000, 2104, act="relu", bias_mode="col", alpha=-2.0, bias_dt=torch.bfloat16,
            want="tma")  # 2 splits
case_linear(128, 512, 4096, batch=3, act="relu", bias_mode="col", bias_dt=torch.float16,
            want="tma")  # 4 splits
case_linear(128, 512, 4096, batch=3, act="silu", bias_mode="col", bias_dt=torch.float16,
            want="tma")  # 4 splits, SiLU: EpilogueLinear
case_linear(256, 1536, 3072, out_dt=torch.float32, act="gelu", bias_mode="col",
            want="tma")  # 3 splits
# tail split (params.h tail_split_plan, run_sm90_any): paired 128x256 tiles past one wave whose
# last wave leaves over half of the 66 pairs idle: the whole tiles in one launch, the last ones
# split along K in a second, unpaired (H100 / H200: 132 SMs)
case_linear(2304, 2048, 2048, want="tma")  # 72 pair tiles: the last 6 in 2 splits
case_linear(2300, 2050, 2104, act="gelu", bias_mode="col", want="tma")  # ragged: 81, 15 x 2
case_linear(2304, 2048, 4096, out_dt=torch.float32, act="relu", bias_mode="row", beta=0.5,
            want="tma")  # C read by the last split only; 6 tiles x 4 splits
case_linear(1280, 4096, 4096, in_dt=torch.float16, out_dt=torch.float16,
            want="tma")  # 80 pair tiles, 14 x 4
# 9 M-tiles, odd in pairs: 80 pair tiles, the last 14 in 4 splits over 10 rows (pair_rows)
case_linear(1152, 4096, 4096, want="tma")
case_linear(1100, 4000, 4096, act="gelu", bias_mode="row", beta=0.5,
            want="tma")  # the same, ragged M and N, C read by the last split
case_linear(2304, 2048, 2048, batch=2, act="silu", bias_mode="col", want="tma")  # 144: 12 x 2
case_split_deterministic(2304, 2048, 4096)
# fill widths (params.h fill_tile_n): one wave of 128 x 144, 160 or 192 tiles where 128 x 256
# tiles leave SMs idle and 128 x 128 ones spill into a second (132 SMs); 144 and 160 columns
# leave through direct stores, and need B K-major (not whole 64-row chunks)
case_linear(1024, 2304, 4096, want="tma")  # 8 x 16 tiles 144 wide
case_linear(1000, 2300, 1000, act="gelu", bias_mode="col", bias_dt=torch.bfloat16,
            want="tma")  # ragged, 144: bias + activation
case_linear(768, 3072, 520, in_dt=torch.float16, out_dt=torch.float32, act="relu",
            bias_mode="row", beta=0.5, want="tma")  # 6 x 22 tiles of 144: linear, fp32 out
case_linear(1000, 3000, 1000, act="silu", bias_mode="col", want="tma")  # ragged, 8 x 16 of 192
case_linear(640, 4100, 1000, act="gelu", bias_mode="col", bias_dt=torch.bfloat16,
            want="tma")  # ragged, 5 x 26 tiles of 160
case_linear(512, 2304, 512, batch=2, act="relu", bias_mode="col", want="tma")  # 4 x 16 x 2, 144
case_trans(1024, 2304, 1000, "T", "N", out_dt=torch.bfloat16)  # B MN-major: 192
case_trans(1024, 2304, 1000, "T", "T", out_dt=torch.bfloat16, act="relu",
           bias_mode="col")  # A MN-major, B K-major: 144
# element-wise transforms of A, B, C (the paper's Table 2 chain) on the sm90 kernel and the
# generic fallback; ragged K (the zero fill must stay zero after A + 1)
RELU_ADD = (1.0, 0.5, True)
case_chain(1024, 1024, 512, (1.0, 0.25, False), (1.0, -0.5, False))
case_chain(1000, 1000, 1000, (1.0, 0.25, False), (1.0, -0.5, False), RELU_ADD, beta=1.0,
           act="relu", bias_mode="col")
case_chain(256, 512, 72, (1.0, 1.0, False), (2.0, 0.0, True), beta=0.5)  # K % 64 != 0
case_chain(129, 264, 200, (0.5, 0.0, True), (1.0, 1.0, False), (1.0, 0.0, True), beta=1.0,
           in_dt=torch.float16, act="gelu", bias_mode="row")
case_chain(2048, 4096, 256, (1.0, 0.125, False), (1.0, 0.125, False), RELU_ADD, beta=1.0,
           act="relu", bias_mode="col")  # BN = 256, 2-CTA clusters
case_chain(200, 300, 136, (1.0, 0.5, False), None, RELU_ADD, beta=1.0, ta="T", tb="N",
           want="generic")  # MN-major operands: the transforms run on the generic kernel
case_chain(200, 300, 136, (1.0, 0.5, False), (1.0, 0.5, False), RELU_ADD, beta=1.0,
           out_dt=torch.float32, want="generic")
case_chain(300, 200, 128, (1.0, 0.5, True), (1.0, 0.5, False), RELU_ADD, beta=1.0,
           path="generic", want="generic")
# affine A/B transforms folded into the epilogue (row-sum prepass + rank-1 corrections)
case_chain(1024, 1024, 512, (1.0, 0.25, False), (1.0, -0.5, False), fold=True)
case_chain(1000, 1000, 1000, (2.0, 0.25, False), (0.5, -0.5, False), RELU_ADD, beta=1.0,
           act="relu", bias_mode="col", fold=True)
case_chain(129, 263, 200, (1.0, 1.0, False), (1.0, 0.5, False), RELU_ADD, beta=1.0,
           in_dt=torch.float16, act="gelu", bias_mode="row", fold=True)  # odd N: v's padding
case_chain(200, 301, 136, (1.0, 0.5, False), (3.0, 0.25, False), None, batch=3, fold=True)
case_chain(256, 512, 72, (1.0, 0.5, True), (1.0, 0.5, False), fold=True)  # ReLU: not foldable
# row / column sums in the epilogue (tolerance: the sums at 1e-4 relative, D at its dtype's)
case_sums(1024, 2048, 512)
case_sums(1000, 1000, 1000, act="relu", bias_mode="col")
case_sums(129, 264, 72, cols=False, batch=3)
case_sums(200, 136, 64, rows=False)
case_sums(300, 200, 128, out_dt=torch.float32, want="generic")
case_sums(300, 200, 128, path="generic", want="generic")


def case_special():
    # diagonal A (layout + predicate), ragged size
    for n, N, odt, generic in ((1000, 700, torch.float32, True),
                               (256, 512, torch.float32, True),
                               (1000, 700, torch.float32, False),
                               (1000, 704, torch.bfloat16, False),
                               (333, 517, torch.bfloat16, False)):
        d = torch.randn(n, device=dev).bfloat16()
        b = torch.randn(n, N, device=dev).bfloat16()
        out = torch.full((n, N), float("nan"), device=dev, dtype=odt)
        st = kg.diag_a(d, b, out, generic)
        torch.cuda.synchronize()
        report(f"diagonal A {n}x{N} bf16->{str(odt)[6:]} {'generic' if generic else 'operator'}",
               rel(out, d.double()[:, None] * b.double()), 1e-6 if odt == torch.float32 else 5e-3,
               st, "generic")
    # complex (interleaved) and dual numbers
    a = torch.randn(150, 70, device=dev, dtype=torch.complex64)
    b = torch.randn(70, 90, device=dev, dtype=torch.complex64)
    out = torch.full((150, 90), float("nan"), device=dev, dtype=torch.complex64)
    st = kg.cgemm(a, b, out)
    torch.cuda.synchronize()
    ref = a.to(torch.complex128) @ b.to(torch.complex128)
    err = ((out.to(torch.complex128) - ref).abs().norm() / ref.abs().norm()).item()
    report("complex 150x90x70 c64", err, 1e-5, st, "generic")
    a = torch.randn(130, 40, 2, device=dev)
    b = torch.randn(40, 60, 2, device=dev)
    out = torch.full((130, 60, 2), float("nan"), device=dev)
    st = kg.dual_gemm(a, b, out)
    torch.cuda.synchronize()
    av, ae, bv, be = a[..., 0].double(), a[..., 1].double(), b[..., 0].double(), b[..., 1].double()
    ref = torch.stack([av @ bv, av @ be + ae @ bv], -1)
    report("dual numbers 130x60x40", rel(out, ref), 1e-5, st, "generic")
    # GETT: abc = bda * dc (the paper's TCCG benchmark shape, scaled down) and a 3-mode case
    ext = dict(a=24, b=16, c=72, d=40)
    A = torch.randn(ext["b"], ext["d"], ext["a"], device=dev).bfloat16()
    B = torch.randn(ext["d"], ext["c"], device=dev).bfloat16()
    D = torch.full((ext["a"], ext["b"], ext["c"]), float("nan"), device=dev)
    st, taken = kg.contract("abc = bda * dc", ext, A, B, D, with_path=True)
    torch.cuda.synchronize()
    report("contract abc = bda * dc (a=24: A copied to K-major, then tma)",
           rel(D, torch.einsum("bda,dc->abc", A.double(), B.double())), 1e-5, st, taken, "tma")
    # GETT on the TMA/wgmma path: the benchmark's three permutations at small, ragged extents
    for spec, ext, odt in (("abc = bda * dc", dict(a=64, b=6, c=200, d=136), torch.bfloat16),
                           ("abc = bda * dc", dict(a=128, b=3, c=72, d=64), torch.float32),
                           ("abc = acd * db", dict(a=5, b=136, c=64, d=72), torch.bfloat16),
                           ("ab = acd * dcb", dict(a=200, b=136, c=3, d=64), torch.bfloat16),
                           ("abc = acd * db", dict(a=5, b=136, c=64, d=72), torch.float16),
                           ("abc = adb * dc", dict(a=3, b=64, c=200, d=136), torch.bfloat16),
                           ("abc = ad * bdc", dict(a=200, b=3, c=128, d=72), torch.bfloat16),
                           ("abc = bda * dc", dict(a=64, b=2, c=504, d=2048), torch.bfloat16),
                           # an operand copied into a K-major order first (contract_plan.h):
                           # B transposed (k orders disagree), A transposed (D's columns would
                           # scatter), B gathered (its contiguous mode kept)
                           ("ab = acd * dbc", dict(a=200, b=136, c=4, d=64), torch.bfloat16),
                           ("abc = dca * bd", dict(a=8, b=200, c=72, d=136), torch.bfloat16),
                           ("ab = adc * dbc", dict(a=136, b=200, c=32, d=8), torch.float16),
                           # D's columns (c, a) with c a multiple of 64: the rank-4 TMA store
                           ("abc = acd * db", dict(a=3, b=200, c=128, d=72), torch.bfloat16),
                           ("abc = dca * bd", dict(a=5, b=136, c=64, d=72), torch.bfloat16)):
        lhs, rhs = spec.replace(" ", "").split("=")
        ta_, tb_ = rhs.split("*")
        in_dt = torch.float16 if odt == torch.float16 else torch.bfloat16
        A = torch.randn(*[ext[m] for m in ta_], device=dev).to(in_dt)
        B = torch.randn(*[ext[m] for m in tb_], device=dev).to(in_dt)
        D = torch.full([ext[m] for m in lhs], float("nan"), device=dev, dtype=odt)
        st, taken = kg.contract(spec, ext, A, B, D, with_path=True)
        torch.cuda.synchronize()
        ref = torch.einsum(f"{ta_},{tb_}->{lhs}", A.double(), B.double())
        tol = 1e-4 if odt == torch.float32 else TOL[odt]
        report(f"contract {spec} {ext} ->{str(odt)[6:]}", rel(D, ref), tol, st, taken, "tma")
    ext = dict(a=6, b=10, c=7, d=9, e=5, f=4)
    A = torch.randn(ext["e"], ext["a"], ext["f"], ext["b"], device=dev)
    B = torch.randn(ext["f"], ext["c"], ext["e"], ext["d"], device=dev)
    D = torch.full((ext["a"], ext["d"], ext["b"], ext["c"]), float("nan"), device=dev)
    st, taken = kg.contract("adbc = eafb * fced", ext, A, B, D, with_path=True)
    torch.cuda.synchronize()
    report("contract adbc = eafb * fced (f32)",
           rel(D, torch.einsum("eafb,fced->adbc", A.double(), B.double())), 1e-5, st, taken,
           "generic")


case_special()


def planes(rows, cols, dt, offset=0, batch=0):
    """A random complex matrix as (re, im) planes of dtype dt (stored rows x cols), optionally
    starting `offset` elements into a buffer (misaligned)."""
    shp = (batch,) if batch else ()
    out = []
    for _ in range(2):
        x = torch.randn(*shp, rows, cols, device=dev).to(dt)
        if offset:
            buf = torch.empty(x.numel() + offset, device=dev, dtype=dt)
            buf[offset:] = x.flatten()
            x = buf[offset:].view(x.shape)
        out.append(x)
    return out


def case_complex(M, N, K, ta="N", tb="N", in_dt=torch.bfloat16, out="c64", batch=0, offset=0,
                 path="auto", want="tma"):
    """cgemm_planar vs a complex128 reference. out: "c64" (interleaved fp32 = complex64),
    "bf16"/"f16" (interleaved 16-bit pairs) or "split-<f32|bf16|f16>" (two planes)."""
    ar, ai = planes(M if ta == "N" else K, K if ta == "N" else M, in_dt, offset, batch)
    br, bi = planes(K if tb == "N" else N, N if tb == "N" else K, in_dt, 0, batch)
    shp = (batch,) if batch else ()
    odt = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
    if out == "c64":
        c = torch.full((*shp, M, N), complex(float("nan"), 0), device=dev, dtype=torch.complex64)
        get, odt_c = (lambda: c.to(torch.complex128)), torch.float32
    elif out.startswith("split-"):
        odt_c = odt[out[6:]]
        c = (torch.full((*shp, M, N), float("nan"), device=dev, dtype=odt_c),
             torch.full((*shp, M, N), float("nan"), device=dev, dtype=odt_c))
        get = lambda: torch.complex(c[0].double(), c[1].double())  # noqa: E731
    else:
        odt_c = odt[out]
        c = torch.full((*shp, M, N, 2), float("nan"), device=dev, dtype=odt_c)
        get = lambda: torch.complex(c[..., 0].double(), c[..., 1].double())  # noqa: E731
    st, taken = kg.cgemm_planar(ta, tb, M, N, K, ar, ai, ar.stride(-2), br, bi, br.stride(-2), c,
                                N, batch=batch or 1, sa=ar.stride(0) if batch else 0,
                                sb=br.stride(0) if batch else 0, sc=M * N if batch else 0,
                                path=path)
    torch.cuda.synchronize()
    A = torch.complex(ar.double(), ai.double())
    B = torch.complex(br.double(), bi.double())
    A = A if ta == "N" else A.transpose(-1, -2)
    B = B if tb == "N" else B.transpose(-1, -2)
    ref = A @ B
    got = get()
    err = math.inf if not torch.isfinite(torch.view_as_real(got)).all() else \
        ((got - ref).abs().norm() / ref.abs().norm()).item()
    tol = TOL[odt_c] if odt_c != torch.float32 else 2e-5 * math.sqrt(K) + 1e-5
    report(f"complex planar {ta}{tb} {M}x{N}x{K}{' b'+str(batch) if batch else ''} "
           f"{str(in_dt)[6:]}->{out} offset={offset} [{path}]", err, tol, st, taken, want)


def case_complex_errors():
    x = torch.randn(64, 64, device=dev).bfloat16()
    c = torch.empty(64, 64, device=dev, dtype=torch.complex64)
    f = torch.randn(64, 64, device=dev)
    xo = torch.empty(64 * 64 + 1, device=dev).bfloat16()[1:].view(64, 64)  # misaligned
    checks = [
        ("complex lda < K", kg.cgemm_planar("N", "N", 64, 64, 64, x, x, 32, x, x, 64, c, 64)[0],
         "bad leading dimension"),
        ("complex f32 planes", kg.cgemm_planar("N", "N", 64, 64, 64, f, f, 64, f, f, 64, c, 64)[0],
         "unsupported data type"),
        ("complex forced tma, misaligned plane",
         kg.cgemm_planar("N", "N", 64, 64, 64, x, xo, 64, x, x, 64, c, 64, path="tma")[0],
         "path unavailable"),
    ]
    report_values(checks)


# complex on the tensor cores: tile multiples, ragged sizes, every operand order and output form
case_complex(256, 256, 128)
case_complex(1024, 2048, 512)  # 2-CTA clusters, many tiles
for ta in "NT":
    for tb in "NT":
        case_complex(200, 328, 104, ta, tb)  # ragged M, N and K
case_complex(129, 264, 72, out="bf16")
case_complex(129, 264, 72, in_dt=torch.float16, out="split-f32")
case_complex(304, 136, 520, in_dt=torch.float16, out="split-f16", ta="T")
case_complex(136, 200, 64, out="split-bf16", tb="T")
case_complex(77, 8, 8)
case_complex(200, 300, 128, tb="T", batch=3)
case_complex(130, 250, 30, want="generic")  # lda = 30: TMA stride rule fails
case_complex(130, 250, 96, offset=1, want="generic")
case_complex(130, 250, 96, path="generic", out="split-bf16", want="generic")
case_complex_errors()

F8 = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}


def case_fp8(M, N, K, kind="e4m3", out_dt=torch.bfloat16, ta="N", tb="T", alpha=1.0, beta=0.0,
             act=None, bias_mode=None, batch=0, path="auto", want="tma"):
    """fp8 A and B (scaled by 1/4 so e4m3 keeps its precision), fp32 accumulate; reference on
    the dequantized inputs. alpha stands for a folded per-tensor scale."""
    shp = (batch,) if batch else ()
    a_log, b_log, a_st, b_st, c, c0 = problem(shp, M, N, K, F8[kind], out_dt, ta, tb, beta, 0.25)
    bias = torch.randn(*shp, N if bias_mode == "col" else M, device=dev) if bias_mode else None
    st, taken = kg.gemm_raw(ta, tb, M, N, K, alpha, a_st, a_st.stride(-2), b_st,
                            b_st.stride(-2), beta, c, N, act=act, bias=bias,
                            bias_mode=bias_mode, batch=batch or 1,
                            sa=a_st.stride(0) if batch else 0, sb=b_st.stride(0) if batch else 0,
                            sc=c.stride(0) if batch else 0, path=path,
                            sbias=bias.stride(0) if batch and bias is not None else 0)
    torch.cuda.synchronize()
    ref = alpha * (a_log.float().double() @ b_log.float().double()) + beta * c0
    ref = with_bias(ref, bias, bias_mode)
    ref = act_ref(ref, act)
    # fp32 output: Hopper's fp8 wgmma adds products in reduced precision (not IEEE fp32 FMA),
    # so the bound is looser than the 16-bit path's.
    tol = TOL[out_dt] if out_dt != torch.float32 else 1e-3
    report(f"fp8 {kind} {ta}{tb} {M}x{N}x{K}{' b'+str(batch) if batch else ''} ->"
           f"{str(out_dt)[6:]} a={alpha} b={beta} {act or ''} {bias_mode or ''} [{path}]",
           rel(c, ref), tol, st, taken, want)


def case_fp8_errors():
    a = torch.randn(64, 64, device=dev).to(torch.float8_e4m3fn)
    c = torch.empty(64, 64, device=dev).bfloat16()
    checks = [
        ("fp8 forced tma, B MN-major (NN)",
         kg.gemm_raw("N", "N", 64, 64, 64, 1, a, 64, a, 64, 0, c, 64, path="tma")[0],
         "path unavailable"),
        ("fp8 forced tma, lda % 16 != 0",
         kg.gemm_raw("N", "T", 64, 64, 40, 1, a, 40, a, 40, 0, c, 64, path="tma")[0],
         "path unavailable"),
    ]
    report_values(checks)


# fp8 (QGMMA) on the sm90 kernel: K-major A (Op::N) and B (Op::T)
case_fp8(256, 512, 256)
case_fp8(1024, 1024, 1024, out_dt=torch.float32)
case_fp8(129, 257, 528)  # ragged M, N; K a multiple of 16 but not of the 128-deep k-block
case_fp8(4095, 4097, 528, kind="e5m2")
case_fp8(333, 1000, 1040, kind="e5m2", out_dt=torch.float32)
case_fp8(600, 900, 512, out_dt=torch.float16, alpha=0.25)
case_fp8(700, 1100, 384, alpha=0.5, act="relu", bias_mode="col")
case_fp8(600, 900, 512, out_dt=torch.float32, alpha=2.0, beta=0.5, act="gelu", bias_mode="row")
case_fp8(1100, 2048, 256, batch=3)
case_fp8(256, 2048, 4096, out_dt=torch.float32, beta=0.5, act="relu", bias_mode="col")  # 2 splits
case_fp8(130, 250, 96, tb="N", want="generic")  # B MN-major: no 8-bit transpose -> generic
case_fp8(130, 250, 96, ta="T", kind="e5m2", want="generic")
case_fp8(130, 250, 40, want="generic")  # lda = 40 bytes: TMA stride rule fails
case_fp8(130, 250, 96, path="generic", want="generic")
case_fp8_errors()
print(f"gemm_check: {fails} failure(s)")
sys.exit(1 if fails else 0)
