"""kiln GEMM vs cuBLAS (torch.matmul / cuBLASLt fused epilogues), side by side in one process.
bf16 in, fp32 accumulate, bf16 out; random data; triton.testing.do_bench medians (it flushes L2
between reps). Prints a ratio table; writes JSON (GPU name, clocks, command) to --json.
Sections: gemm (plain + fused), splitk (shapes whose tiles leave SMs idle: split-K), tail
(shapes whose last wave is under half full: the tail split), decode (few rows: the transposed
path), cold (the decode rows and the streaming split-K rows with each call's weights cold in L2,
as a model's layers find them), chain
(element-wise ops on A, B, C, D), sums (row / column sums), trans, diag, complex, gett, fp8;
--only a,b runs some of them; --shapes picks the gemm section's shapes by name.
Usage: python3 bench/gemm_bench.py [--quick] [--only SECTIONS] [--shapes NAMES] [--json PATH]"""
import json
import os
import sys

import torch
from triton.testing import do_bench

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import cublas_peers as cb  # noqa: E402
import kiln_gemm as kg  # noqa: E402
from gemm_bench_util import Turns, bench, bench_pair, cold_copies, pair_fields, smi  # noqa: E402

quick = "--quick" in sys.argv
only = set(sys.argv[sys.argv.index("--only") + 1].split(",")) if "--only" in sys.argv else None


def want(section):
    return only is None or section in only


json_path = sys.argv[sys.argv.index("--json") + 1] if "--json" in sys.argv else None
torch.manual_seed(0)
dev = "cuda"


def bench_call(fn):
    """do_bench of single eager calls (L2 flushed between reps; includes host overhead)."""
    return do_bench(fn, warmup=50, rep=300, return_mode="median")


squares = [2048, 4096, 6144, 8192] if not quick else [4096, 8192]
llm = [("llama-qkv", 8192, 12288, 4096), ("llama-o", 8192, 4096, 4096),
       ("llama-up", 8192, 11008, 4096), ("llama-down", 8192, 4096, 11008),
       ("decode-ish", 256, 8192, 8192)] if not quick else [("llama-up", 8192, 11008, 4096)]
shapes = [(f"square-{s}", s, s, s) for s in squares] + llm
if "--shapes" in sys.argv:  # the gemm section's shapes by name, e.g. --shapes decode-ish
    picked = set(sys.argv[sys.argv.index("--shapes") + 1].split(","))
    shapes = [s for s in shapes if s[0] in picked]

rows = []
complex_peer_status = {}


def save():
    """Writes the rows so far (after each long section: a run cut short keeps what it measured)."""
    if json_path:
        with open(json_path, "w") as f:
            json.dump(dict(gpu=gpu_info(), command=" ".join(sys.argv), rows=rows,
                           complex_peer_status=complex_peer_status), f, indent=1)


def gpu_info():
    return dict(name=torch.cuda.get_device_name(),
                sms=torch.cuda.get_device_properties(0).multi_processor_count,
                clocks_sm_mem=smi("clocks.sm,clocks.mem"),
                max_clocks=smi("clocks.max.sm,clocks.max.mem"), driver=smi("driver_version"),
                torch=torch.__version__)


def plain_gemm_row(kind, name, a, w, out, cold=False):
    """kiln's plain GEMM (out = a w^T) vs torch.matmul, graph-timed and eager; appends a row.
    cold: each side's graph takes copies of w in turn that outgrow the L2 (cold_copies)."""
    (M, K), N = a.shape, w.shape[0]
    st, path = kg.linear(a, w, out)
    assert st == "success", st
    ref = a.float() @ w.float().t()
    err = ((out.float() - ref).norm() / ref.norm()).item()
    flop = 2.0 * M * N * K
    ws = cold_copies(w) if cold else [w]
    w_peer, w_kiln = Turns(ws), Turns(ws)
    t = bench_pair(lambda: torch.matmul(a, w_peer().t()), lambda: kg.linear(a, w_kiln(), out))
    e_cublas = bench_call(lambda: torch.matmul(a, w.t()))
    e_kiln = bench_call(lambda: kg.linear(a, w, out))
    rows.append(dict(kind=kind, shape=name, M=M, N=N, K=K, path=path, rel_err=err,
                     kiln_ms=t.kiln_ms, cublas_ms=t.peer_ms, kiln_tflops=flop / t.kiln_ms / 1e9,
                     cublas_tflops=flop / t.peer_ms / 1e9, **pair_fields(t),
                     eager_kiln_ms=e_kiln, eager_cublas_ms=e_cublas,
                     eager_ratio=e_cublas / e_kiln))
    return path


for name, M, N, K in (shapes if want("gemm") else []):
    a = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
    w = torch.randn(N, K, device=dev, dtype=torch.bfloat16)
    out = torch.empty(M, N, device=dev, dtype=torch.bfloat16)
    bias = torch.randn(N, device=dev, dtype=torch.bfloat16)
    path = plain_gemm_row("gemm", name, a, w, out)
    flop = 2.0 * M * N * K
    for act, gelu in (("relu", False), ("gelu", True)):
        if quick and act == "gelu":
            continue
        t = bench_pair(
            lambda: torch._addmm_activation(bias, a, w.t(), use_gelu=gelu),
            lambda: kg.linear(a, w, out, act=act, bias=bias, bias_mode="col"))
        kg.linear(a, w, out, act=act, bias=bias, bias_mode="col")
        ref_e = torch._addmm_activation(bias.float(), a.float(), w.float().t(), use_gelu=gelu)
        e2 = ((out.float() - ref_e).norm() / ref_e.norm()).item()
        rows.append(dict(kind=f"gemm+bias+{act}", shape=name, M=M, N=N, K=K, path=path,
                         rel_err=e2, kiln_ms=t.kiln_ms, cublas_ms=t.peer_ms,
                         kiln_tflops=flop / t.kiln_ms / 1e9, cublas_tflops=flop / t.peer_ms / 1e9,
                         **pair_fields(t)))
    del a, w, out

# --- split-K: tiles that leave SMs idle (default_params splits their K; KILN_GEMM_SPLITK=S
# forces S splits, 1 none, for A/B runs in another process). 2048^3 fills the SMs with whole
# tiles (no split by default) and is here for the forced runs. 256 x 4096 x 4096,
# 128 x 8192 x 8192 and 127 x 4096 x 4096 run unsplit as short products on paired 64-row tiles
# (src/gemm/short_rows.cuh; KILN_GEMM_SHORT_ROWS=0 runs them split on 128-row tiles).
splitk_shapes = [(256, 4096, 4096), (128, 8192, 8192), (127, 4096, 4096), (512, 2048, 8192),
                 (1024, 1024, 8192), (256, 8192, 8192), (2048, 2048, 2048)]
# --- the tail split: more tiles than one wave, the last wave under half full (params.h
# tail_split_plan splits its tiles along K in a second launch; KILN_GEMM_TAIL_SPLIT=0 turns it
# off for A/B runs in another process). 1152 rows are 9 M-tiles, odd in pairs.
tail_shapes = [(2304, 2048, 8192), (2304, 4096, 4096), (4352, 4096, 4096), (1280, 4096, 16384),
               (1152, 4096, 16384)]
# --- few rows (LLM decoding): up to 64 rows against up to one wave of weight tiles run
# transposed on 128 x 16 (up to 16 rows) or 128 x 64 tiles, K split below 64 tiles (the last
# four; src/gemm/few_rows.cuh; KILN_GEMM_FEW_ROWS=0 turns that off for A/B runs in another
# process).
decode_shapes = [(16, 8192, 8192), (64, 8192, 8192), (8, 8192, 28672), (32, 14336, 4096),
                 (1, 8192, 8192), (16, 4096, 4096), (64, 4096, 11008), (16, 4096, 14336),
                 (1, 4096, 4096)]
# --- cold: the rows above that stream their weights, each call's weights cold in L2 (the
# timed graph's calls take copies in turn): weights that fit in L2 (32 MiB at 4096 x 4096) are
# otherwise mostly found there from the graph's previous call, which cuBLAS's 127-row kernel
# gains more from than kiln's (bench/NOTES.md v37).
cold_shapes = [s for s in splitk_shapes if s[0] <= 256] + decode_shapes
for section, kind, section_shapes in (("splitk", "gemm splitk", splitk_shapes),
                                      ("tail", "gemm tail", tail_shapes),
                                      ("decode", "gemm decode", decode_shapes),
                                      ("cold", "gemm cold", cold_shapes)):
    for M, N, K in (section_shapes if want(section) else []):
        a = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
        w = torch.randn(N, K, device=dev, dtype=torch.bfloat16)
        plain_gemm_row(kind, f"{M}x{N}x{K}", a, w,
                       torch.empty(M, N, device=dev, dtype=torch.bfloat16), cold=section == "cold")
        del a, w
save()

# --- the paper's Table 2 ladder: element-wise ops on A, B, C, D (cuBLASLt cannot fuse them) ---
# kiln: one call (C transformed at its load, D in the epilogue; the affine A/B transforms folded
# into the epilogue through a row-sum prepass ("fold"), or applied in place in the shared-memory
# stage, the general path for any element-wise op ("smem")); peer: the same values through
# cuBLAS plus the torch element-wise kernels a framework would launch. C and D share kiln's
# buffer (C is read, D written in place); the peer reads c and writes a new tensor.
ADD = (1.0, 0.5, False)  # x + 0.5 (exact in bf16: the same values on both sides)
RELU = (1.0, 0.0, True)
for n in ([] if not want("chain") else [4096] if quick else [2048, 4096, 8192]):
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    w = torch.randn(n, n, device=dev, dtype=torch.bfloat16)  # N x K (torch.nn.Linear weight)
    c = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    bias = torch.randn(n, device=dev, dtype=torch.bfloat16)
    out = torch.empty_like(c)
    ws = kg.fold_workspace(n, n)
    ladder = {
        # kind: (kiln ops (A, B, C), beta, the peer sequence)
        "chain relu(D)": ((None, None, None), 0.0,
                          lambda: torch.relu_(torch.matmul(a, w.t()))),
        "chain relu(C),relu(D)": ((None, None, RELU), 1.0,
                                  lambda: torch.relu_(torch.addmm(torch.relu(c).add_(bias), a,
                                                                  w.t()))),
        "chain A+,B+,relu(C),relu(D)": ((ADD, ADD, RELU), 1.0,
                                        lambda: torch.relu_(torch.addmm(
                                            torch.relu(c).add_(bias), a + 0.5, (w + 0.5).t()))),
    }
    ladder["chain A+,B+,relu(C),relu(D) smem"] = ladder["chain A+,B+,relu(C),relu(D)"]
    flop = 2.0 * n ** 3
    for kind, (ops, beta, peer) in ladder.items():
        use_bias = beta != 0.0
        ev = kg.element_ops(*ops)
        run = lambda: kg.linear(a, w, out, beta=beta, act="relu",  # noqa: E731
                                bias=bias if use_bias else None, ops=ev,
                                workspace=None if kind.endswith("smem") else ws)
        out.copy_(c)
        st, path = run()
        assert st == "success", st
        ref = peer().float()
        err = ((out.float() - ref).norm() / ref.norm()).item()
        t_p = bench(peer)
        t_k = bench(run)
        rows.append(dict(kind=kind, shape=f"square-{n}", M=n, N=n, K=n, path=path, rel_err=err,
                         kiln_ms=t_k, cublas_ms=t_p, kiln_tflops=flop / t_k / 1e9,
                         cublas_tflops=flop / t_p / 1e9, ratio=t_p / t_k,
                         peer="cuBLAS + torch element-wise kernels"))
    del a, w, c, out, ws
    save()

# --- row / column sums of D in the epilogue vs cuBLAS + torch.sum (fp32 sums of the result) ---
for n in ([] if not want("sums") else [4096] if quick else [4096, 8192]):
    a = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    w = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    out = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    r = torch.zeros(n, device=dev)
    s = torch.zeros(n, device=dev)
    flop = 2.0 * n ** 3
    t_plain = bench(lambda: kg.linear(a, w, out))
    for kind, rows_, cols_ in (("gemm+rowsum", True, False), ("gemm+rowsum+colsum", True, True)):
        def run():
            r.zero_()  # the sums accumulate: zeroing is part of every call, as for the peer
            s.zero_()
            return kg.linear(a, w, out, row_sum=r if rows_ else None,
                             col_sum=s if cols_ else None)

        def peer():
            d = torch.matmul(a, w.t())
            return (d.sum(1, dtype=torch.float32),
                    d.sum(0, dtype=torch.float32) if cols_ else None)

        st, path = run()
        assert st == "success", st
        ref = (a.float() @ w.float().t())
        err = ((r - ref.sum(1)).norm() / ref.sum(1).norm()).item()
        if cols_:
            err = max(err, ((s - ref.sum(0)).norm() / ref.sum(0).norm()).item())
        t_p = bench(peer)
        t_k = bench(run)
        rows.append(dict(kind=kind, shape=f"square-{n}", M=n, N=n, K=n, path=path, rel_err=err,
                         kiln_ms=t_k, cublas_ms=t_p, kiln_tflops=flop / t_k / 1e9,
                         cublas_tflops=flop / t_p / 1e9, ratio=t_p / t_k,
                         peer="cuBLAS + torch.sum", vs_kiln_plain=t_plain / t_k))
    del a, w, out
    save()

# --- transposed operands (MN-major A and/or B on the TMA/wgmma path) vs cuBLAS on the same op ---
kiln_nt = {r["M"]: r["kiln_ms"] for r in rows if r["kind"] == "gemm" and r["M"] == r["N"] == r["K"]}
for n in ([] if not want("trans") else [4096] if quick else [2048, 4096, 8192]):
    for ta, tb in (("N", "N"), ("T", "N"), ("T", "T")):
        a_st = torch.randn(n, n, device=dev, dtype=torch.bfloat16)  # M x K (N) or K x M (T)
        b_st = torch.randn(n, n, device=dev, dtype=torch.bfloat16)  # K x N (N) or N x K (T)
        a_v = a_st if ta == "N" else a_st.t()
        b_v = b_st if tb == "N" else b_st.t()
        out = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
        run = lambda: kg.gemm_raw(ta, tb, n, n, n, 1.0, a_st, n, b_st, n, 0.0, out, n)
        st, path = run()
        assert st == "success", st
        ref = a_v.float() @ b_v.float()
        err = ((out.float() - ref).norm() / ref.norm()).item()
        t_c = bench(lambda: torch.matmul(a_v, b_v))
        t_k = bench(run)
        flop = 2.0 * n ** 3
        rows.append(dict(kind=f"gemm {ta}{tb}", shape=f"square-{n}", M=n, N=n, K=n, path=path,
                         rel_err=err, kiln_ms=t_k, cublas_ms=t_c, kiln_tflops=flop / t_k / 1e9,
                         cublas_tflops=flop / t_c / 1e9, ratio=t_c / t_k,
                         vs_kiln_nt=kiln_nt[n] / t_k if n in kiln_nt else None))
        del a_st, b_st, out

# --- GemmKernels §5 variants (generic FPU kernel with layouts/predicates) ---
for n in ([] if not want("diag") else [4096] if quick else [4096, 8192]):
    d = torch.randn(n, device=dev, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=dev, dtype=torch.bfloat16)
    dm = torch.diag(d)  # cuBLAS side: the diagonal matrix materialized beforehand (not timed)
    out = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    assert kg.diag_a(d, b, out) == "success"
    want = d.float()[:, None] * b.float()
    err = ((out.float() - want).norm() / want.norm()).item()
    t_c = bench(lambda: torch.matmul(dm, b))
    t_k = bench(lambda: kg.diag_a(d, b, out))
    flop = 2.0 * n * n * n  # the dense product cuBLAS performs
    rows.append(dict(kind="diagonal-A", shape=f"n={n}", M=n, N=n, K=n, path="diag-op",
                     rel_err=err, kiln_ms=t_k, cublas_ms=t_c, kiln_tflops=flop / t_k / 1e9,
                     cublas_tflops=flop / t_c / 1e9, ratio=t_c / t_k,
                     kiln_gbps=2 * n * n * 2 / t_k / 1e6))
    t_g = bench(lambda: kg.diag_a(d, b, out, generic=True))
    rows.append(dict(kind="diagonal-A tiled", shape=f"n={n}", M=n, N=n, K=n, path="generic",
                     rel_err=err, kiln_ms=t_g, cublas_ms=t_c, kiln_tflops=flop / t_g / 1e9,
                     cublas_tflops=flop / t_c / 1e9, ratio=t_c / t_g))
if not quick and want("complex"):
    for n in (2048, 4096):
        a = torch.randn(n, n, device=dev, dtype=torch.complex64)
        b = torch.randn(n, n, device=dev, dtype=torch.complex64)
        out = torch.empty(n, n, device=dev, dtype=torch.complex64)
        assert kg.cgemm(a, b, out) == "success"
        ref = a @ b
        err = ((out - ref).abs().norm() / ref.abs().norm()).item()
        t_c = bench(lambda: torch.matmul(a, b))
        t_k = bench(lambda: kg.cgemm(a, b, out))
        flop = 8.0 * n * n * n
        rows.append(dict(kind="complex c64", shape=f"{n}^3", M=n, N=n, K=n, path="generic",
                         rel_err=err, kiln_ms=t_k, cublas_ms=t_c, kiln_tflops=flop / t_k / 1e9,
                         cublas_tflops=flop / t_c / 1e9, ratio=t_c / t_k))
# --- GETT: tensor contractions vs torch.einsum (permute copies + cuBLAS), bf16 ---
# All with the same 2*2048^3 FLOP. Two kinds: the paper's TCCG benchmark 1 (abc = bda * dc) and
# the two "copy" permutations below it put a contracted mode between two free modes of an
# operand, so einsum must materialize a permuted copy of that operand before its GEMM (what
# GETT avoids); abc = acd * db and ab = acd * dcb fold into plain matrices, so einsum runs them
# as one cuBLAS GEMM with no copy (D at most a permuted view): there the ratio is GEMM vs GEMM.
gett = [("abc = bda * dc", dict(a=64, b=32, c=2048, d=2048)),
        ("abc = adb * dc", dict(a=32, b=64, c=2048, d=2048)),   # A copied by einsum
        ("abc = ad * bdc", dict(a=2048, b=32, c=64, d=2048)),   # B copied by einsum
        ("abc = acd * db", dict(a=32, b=2048, c=64, d=2048)),   # no copy: one GEMM
        ("ab = acd * dcb", dict(a=2048, b=2048, c=32, d=64)),
        # the other single-contraction 3-index cases of the TCCG benchmark, same FLOP
        ("abc = dca * bd", dict(a=32, b=2048, c=64, d=2048)),
        ("abc = adc * bd", dict(a=32, b=2048, c=64, d=2048)),
        ("abc = adc * db", dict(a=32, b=2048, c=64, d=2048)),
        ("ab = acd * dbc", dict(a=2048, b=2048, c=32, d=64)),
        ("ab = cad * dcb", dict(a=2048, b=2048, c=32, d=64))]
for spec, ext in ([] if not want("gett") else gett[:3] if quick else gett):
    lhs, rhs = spec.replace(" ", "").split("=")
    sa, sb = rhs.split("*")
    A = torch.randn(*[ext[m] for m in sa], device=dev, dtype=torch.bfloat16)
    B = torch.randn(*[ext[m] for m in sb], device=dev, dtype=torch.bfloat16)
    D = torch.empty(*[ext[m] for m in lhs], device=dev, dtype=torch.bfloat16)
    eq = f"{sa},{sb}->{lhs}"
    st, path = kg.contract(spec, ext, A, B, D, with_path=True)
    assert st == "success", st
    ref = torch.einsum(eq, A.float(), B.float())
    err = ((D.float() - ref).norm() / ref.norm()).item()
    t_c = bench(lambda: torch.einsum(eq, A, B))
    t_k = bench(lambda: kg.contract(spec, ext, A, B, D))
    flop = 2.0
    for m in set(sa + sb):
        flop *= ext[m]
    shape = ",".join(f"{m}={ext[m]}" for m in sorted(ext))
    rows.append(dict(kind=f"GETT {spec.replace(' ', '')}", shape=shape, M=0, N=0, K=0,
                     path=path, rel_err=err, kiln_ms=t_k, cublas_ms=t_c,
                     kiln_tflops=flop / t_k / 1e9, cublas_tflops=flop / t_c / 1e9,
                     ratio=t_c / t_k))
    del A, B, D

# --- complex on the tensor cores: bf16 planes, fp32 accumulate, complex64 out ---
# Peers, all cuBLAS on the same values: cublasGemmEx with CUDA_C_16BF inputs (probed: cuBLAS
# answers NOT_SUPPORTED on H100, so it is recorded, not timed); four real cublasGemmEx on the
# bf16 planes with fp32 output (the 4M method: the same arithmetic as kiln's, split fp32 planes
# out); cublasGemmEx on CUDA_C_32F with CUBLAS_COMPUTE_32F_FAST_16BF (tensor cores on
# bf16-rounded inputs); cublasCgemm (torch complex64 matmul, fp32 FFMA) and cublasCgemm3m.
# TFLOP/s count 8 n^3 real FLOP for every side.
for n in ([] if not want("complex") else [4096, 8192] if quick else [2048, 4096, 8192]):
    ar, ai, br, bi = (torch.randn(n, n, device=dev, dtype=torch.bfloat16) for _ in range(4))
    a64 = torch.complex(ar.float(), ai.float())
    b64 = torch.complex(br.float(), bi.float())
    out = torch.empty(n, n, device=dev, dtype=torch.complex64)
    run = lambda: kg.cgemm_planar("N", "N", n, n, n, ar, ai, n, br, bi, n, out, n)  # noqa: E731
    st, path = run()
    assert st == "success", st
    ref = a64 @ b64
    err = ((out - ref).abs().norm() / ref.abs().norm()).item()
    flop = 8.0 * n ** 3
    # A/B of the cluster size (KILN_GEMM_COMPLEX_CLUSTER, read on every call): 1 (the default
    # since v8) and 2; kiln_ms / ratio are the default's, kiln_cluster2_ms / ratio_cluster2 the
    # 2-CTA clusters'. (gemm_bench_v8.json was measured when 2 was the default: there kiln_ms is
    # the 2-CTA time and kiln_cluster1_ms the no-cluster one.)
    t_cluster = {}
    for cl in ("1", "2"):
        os.environ["KILN_GEMM_COMPLEX_CLUSTER"] = cl
        t_cluster[cl] = bench(run)
    del os.environ["KILN_GEMM_COMPLEX_CLUSTER"]
    t_k = t_cluster["1"]
    peer_out = torch.empty_like(out)
    peer_re, peer_im = torch.empty(n, n, device=dev), torch.empty(n, n, device=dev)
    peers = {"cuBLAS 4M: 4 x gemmEx bf16->f32": lambda: cb.complex_4m(ar, ai, br, bi, peer_re,
                                                                      peer_im),
             "cgemm (c64 FFMA)": lambda: torch.matmul(a64, b64, out=peer_out),
             "cgemm3m": lambda: cb.cgemm3m(a64, b64, peer_out),
             "gemmEx C_32F FAST_16BF": lambda: cb.gemm_ex_c32(a64, b64, peer_out,
                                                             cb.COMPUTE_32F_FAST_16BF)}
    a16 = torch.stack([ar, ai], -1)
    b16 = torch.stack([br, bi], -1)
    st16 = cb.gemm_ex_c16(a16, b16, peer_out, cb.CUDA_C_16BF)
    torch.cuda.synchronize()
    complex_peer_status["gemmEx C_16BF in / C_32F out / COMPUTE_32F"] = st16
    if st16 == 0:
        peers["gemmEx C_16BF"] = lambda: cb.gemm_ex_c16(a16, b16, peer_out, cb.CUDA_C_16BF)
    for peer, fn in peers.items():
        if n == 8192 and peer.startswith("cgemm"):
            continue  # FFMA peers take ~0.1 s a call at 8192: measured at 2048 and 4096
        for t in (peer_out, peer_re, peer_im):  # poison: the peer must write its result
            t.fill_(float("nan"))
        status = fn()  # cuBLAS status from the ctypes peers, a tensor from torch
        torch.cuda.synchronize()
        if isinstance(status, int) and status != 0:
            complex_peer_status[f"{peer} at {n}"] = status
            continue
        got = torch.complex(peer_re, peer_im) if "4M" in peer else peer_out
        perr = ((got - ref).abs().norm() / ref.abs().norm()).item()
        try:
            t_c = bench(fn)
        except RuntimeError as e:  # e.g. a peer that cannot be captured in a CUDA graph
            complex_peer_status[f"{peer} at {n}"] = str(e)[:200]
            continue
        rows.append(dict(kind="complex bf16 planes", shape=f"{n}^3", M=n, N=n, K=n, path=path,
                         peer=peer, rel_err=err, peer_rel_err=perr, kiln_ms=t_k, cublas_ms=t_c,
                         kiln_tflops=flop / t_k / 1e9, cublas_tflops=flop / t_c / 1e9,
                         ratio=t_c / t_k, kiln_cluster2_ms=t_cluster["2"],
                         ratio_cluster2=t_c / t_cluster["2"]))
    del ar, ai, br, bi, a64, b64, out, peer_out, peer_re, peer_im, a16, b16
    save()

# --- fp8 (e4m3 in, fp32 accumulate, bf16 out) vs cuBLASLt through torch._scaled_mm ---
for n in ([] if not want("fp8") else [4096, 8192] if quick else [4096, 6144, 8192]):
    a = (torch.randn(n, n, device=dev) / 4).to(torch.float8_e4m3fn)
    w = (torch.randn(n, n, device=dev) / 4).to(torch.float8_e4m3fn)  # N x K: B = w^T, K-major
    out = torch.empty(n, n, device=dev, dtype=torch.bfloat16)
    one = torch.ones((), device=dev)
    st, path = kg.linear(a, w, out)
    assert st == "success", st
    ref = a.float() @ w.float().t()
    err = ((out.float() - ref).norm() / ref.norm()).item()
    t_k = bench(lambda: kg.linear(a, w, out))
    flop = 2.0 * n ** 3
    # fast_accum=True: cuBLASLt keeps the tensor core's own accumulation, as kiln does (no
    # periodic promotion to a separate fp32 sum); the default (False) promotes and is reported too.
    for fast in (True, False):
        lt = lambda: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one,  # noqa: E731
                                      out_dtype=torch.bfloat16, use_fast_accum=fast)
        perr = ((lt().float() - ref).norm() / ref.norm()).item()
        t_c = bench(lt)
        rows.append(dict(kind="fp8 e4m3", shape=f"square-{n}", M=n, N=n, K=n, path=path,
                         peer=f"torch._scaled_mm fast_accum={fast} (cuBLASLt)", rel_err=err,
                         peer_rel_err=perr, kiln_ms=t_k, cublas_ms=t_c,
                         kiln_tflops=flop / t_k / 1e9, cublas_tflops=flop / t_c / 1e9,
                         ratio=t_c / t_k))
    del a, w, out
    save()

def flop_of(r):
    return r["kiln_tflops"] * r["kiln_ms"] * 1e9


save()
gpu = gpu_info()
print(f"\nGPU: {gpu}")
print("times: CUDA-graph replay medians (eager = single calls via do_bench, incl. host overhead);\n"
      "gemm and gemm+bias rows: kiln and the peer timed in alternation, the order swapped every "
      "round; ratio = median of 8 rounds [lowest, highest], then the medians of the rounds that "
      "timed the peer first / kiln first")
print(f"{'kind':18s} {'shape':14s} {'M':>6s} {'N':>6s} {'K':>6s} {'path':7s} "
      f"{'kiln TF/s':>9s} {'cuBLAS TF/s':>11s} {'ratio':>6s} {'eager':>6s} {'err':>8s}")
if complex_peer_status:
    print(f"cuBLAS 16-bit complex probe (cublasStatus_t, 0 = supported): {complex_peer_status}")
for r in rows:
    eg = f"{r['eager_ratio']:6.3f}" if "eager_ratio" in r else (
        f"nt{r['vs_kiln_nt']:4.2f}" if r.get("vs_kiln_nt") else "     -")
    print(f"{r['kind']:18s} {r['shape']:14s} {r['M']:6d} {r['N']:6d} {r['K']:6d} {r['path']:7s} "
          f"{r['kiln_tflops']:9.1f} {r['cublas_tflops']:11.1f} {r['ratio']:6.3f} {eg} "
          f"{r['rel_err']:8.1e}"
          + (f" [{r['ratio_range'][0]:.3f}, {r['ratio_range'][1]:.3f}]"
             if "ratio_range" in r else "")
          + (f" p/k-first {r['ratio_peer_first']:.3f}/{r['ratio_kiln_first']:.3f}"
             if "ratio_peer_first" in r else "")
          + (f"  vs {r['peer']}" if "peer" in r else "")
          + (f" (err {r['peer_rel_err']:.1e})" if "peer_rel_err" in r else "")
          + (f"  [kiln plain / this: {r['vs_kiln_plain']:.3f}]" if "vs_kiln_plain" in r else "")
          + (f"  [2-CTA clusters: {flop_of(r) / r['kiln_cluster2_ms'] / 1e9:.1f} TF/s, ratio "
             f"{r['ratio_cluster2']:.3f}]" if "kiln_cluster2_ms" in r else ""))
save()
