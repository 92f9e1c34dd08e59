"""Triton peers of kiln's GEMM-family examples (examples/gemm.kiln, dual_gemm.kiln,
gemm_rowsum.kiln), written the way the Triton Hopper tutorials write them: TMA tensor descriptors
(host-side `TensorDescriptor`, block shapes set per config by a pre-hook), a grouped-M tile order
for L2 reuse, a software-pipelined K loop (num_stages), fp32 accumulators, autotuned per (M, N, K).

  gemm(a, b, c)          C = A·B
  dual_gemm(a, b1, b2, o) O = silu(A·B1) * (A·B2), both accumulators in one kernel (SwiGLU)
  gemm_rowsum(a, b, c, r) C = A·B and r[i] = Σj of the fp32 accumulator row (r zeroed here,
                          then each tile adds its partial row sums with a relaxed atomic add)

Requires: bf16, row-major, contiguous A (M×K), B (K×N), outputs C/O (M×N) and r f32[M]; rows
16-byte aligned (K and N multiples of 8), which TMA needs (`tma_compatible` says so). Ragged
edges (M, N, K not tile multiples) are handled by TMA's zero fill and clipped stores.
Guarantees: each launcher returns nothing and writes its outputs in full; `chosen_config(kind)`
names the config the autotuner picked for the last launch of that kernel."""
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

# Which block dimensions each descriptor argument is tiled by.
_DESC_BLOCK_DIMS = {
    "a_desc": ("BLOCK_M", "BLOCK_K"),
    "b_desc": ("BLOCK_K", "BLOCK_N"),
    "b1_desc": ("BLOCK_K", "BLOCK_N"),
    "b2_desc": ("BLOCK_K", "BLOCK_N"),
    "c_desc": ("BLOCK_M", "BLOCK_N"),
}


def _set_block_shapes(nargs):
    """Config pre-hook: a TMA box is part of the descriptor, so it follows the tile of each
    config the autotuner tries."""
    for name, dims in _DESC_BLOCK_DIMS.items():
        if name in nargs:
            nargs[name].block_shape = [nargs[d] for d in dims]


def _config(bm, bn, bk, warps, stages, group_m=8):
    return triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": group_m},
                         num_warps=warps, num_stages=stages, pre_hook=_set_block_shapes)


# One accumulator: the large Hopper tiles (two warpgroups of 64×256 wgmma) first, smaller tiles
# for shapes that would leave SMs idle. Configs that do not fit shared memory are dropped by the
# autotuner (OutOfResources), so the list can reach for the deeper pipelines.
SINGLE_ACC_CONFIGS = [
    _config(128, 256, 64, 8, 3),
    _config(128, 256, 64, 8, 4),
    _config(256, 128, 64, 8, 3),
    _config(256, 128, 64, 8, 4),
    _config(128, 128, 64, 8, 4),
    _config(128, 128, 64, 4, 4),
    _config(128, 128, 128, 8, 3),
    _config(64, 128, 64, 4, 4),
]

# Two accumulators: a 128×128 dual tile holds as many fp32 values as a 128×256 single tile (128
# registers a thread at 8 warps), so the widest tiles of the list above would spill.
DUAL_ACC_CONFIGS = [
    _config(128, 128, 64, 8, 3),
    _config(128, 128, 64, 8, 4),
    _config(64, 256, 64, 8, 3),
    _config(128, 64, 64, 4, 4),
    _config(64, 128, 64, 4, 4),
    _config(128, 128, 32, 8, 5),
]


@triton.jit
def _tile_origin(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    """Grouped-M order: consecutive programs walk GROUP_M tile rows down one tile column, so the
    B panel they share stays in L2."""
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * tiles_n
    first_m = (pid // per_group) * GROUP_M
    group_rows = min(tiles_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % group_rows
    pid_n = (pid % per_group) // group_rows
    return pid_m * BLOCK_M, pid_n * BLOCK_N


@triton.jit
def _accumulate(a_desc, b_desc, off_m, off_n, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([off_m, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, off_n])
        acc = tl.dot(a, b, acc)
    return acc


@triton.autotune(configs=SINGLE_ACC_CONFIGS, key=["M", "N", "K"])
@triton.jit(do_not_specialize=["M", "N", "K"])
def _gemm_kernel(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    off_m, off_n = _tile_origin(M, N, BLOCK_M, BLOCK_N, GROUP_M)
    acc = _accumulate(a_desc, b_desc, off_m, off_n, K, BLOCK_M, BLOCK_N, BLOCK_K)
    c_desc.store([off_m, off_n], acc.to(tl.bfloat16))


@triton.autotune(configs=SINGLE_ACC_CONFIGS, key=["M", "N", "K"])
@triton.jit(do_not_specialize=["M", "N", "K"])
def _gemm_rowsum_kernel(a_desc, b_desc, c_desc, r_ptr, M, N, K, BLOCK_M: tl.constexpr,
                        BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    off_m, off_n = _tile_origin(M, N, BLOCK_M, BLOCK_N, GROUP_M)
    acc = _accumulate(a_desc, b_desc, off_m, off_n, K, BLOCK_M, BLOCK_N, BLOCK_K)
    c_desc.store([off_m, off_n], acc.to(tl.bfloat16))
    # Columns past N were loaded as TMA zero fill, so they add nothing to the row sums.
    rows = off_m + tl.arange(0, BLOCK_M)
    tl.atomic_add(r_ptr + rows, tl.sum(acc, axis=1), mask=rows < M, sem="relaxed")


@triton.autotune(configs=DUAL_ACC_CONFIGS, key=["M", "N", "K"])
@triton.jit(do_not_specialize=["M", "N", "K"])
def _dual_gemm_kernel(a_desc, b1_desc, b2_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    off_m, off_n = _tile_origin(M, N, BLOCK_M, BLOCK_N, GROUP_M)
    gate = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    up = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        # One A tile feeds both products: the fusion's saving over two GEMMs.
        a = a_desc.load([off_m, k * BLOCK_K])
        gate = tl.dot(a, b1_desc.load([k * BLOCK_K, off_n]), gate)
        up = tl.dot(a, b2_desc.load([k * BLOCK_K, off_n]), up)
    c_desc.store([off_m, off_n], (gate * tl.sigmoid(gate) * up).to(tl.bfloat16))


def _desc(t):
    # The block shape is a placeholder until a config's pre-hook sets it.
    return TensorDescriptor.from_tensor(t, [1] * t.dim())


def _grid(M, N):
    return lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)


def tma_compatible(M, N, K):
    """TMA rows must start 16-byte aligned: bf16 row lengths K (A) and N (B, C) multiples of 8."""
    return K % 8 == 0 and N % 8 == 0


def gemm(a, b, c):
    M, K = a.shape
    N = b.shape[1]
    _gemm_kernel[_grid(M, N)](_desc(a), _desc(b), _desc(c), M, N, K)


def gemm_rowsum(a, b, c, r):
    M, K = a.shape
    N = b.shape[1]
    r.zero_()
    _gemm_rowsum_kernel[_grid(M, N)](_desc(a), _desc(b), _desc(c), r, M, N, K)


def dual_gemm(a, b1, b2, o):
    M, K = a.shape
    N = b1.shape[1]
    _dual_gemm_kernel[_grid(M, N)](_desc(a), _desc(b1), _desc(b2), _desc(o), M, N, K)


_KERNEL_OF = {"gemm": _gemm_kernel, "dual": _dual_gemm_kernel, "rowsum": _gemm_rowsum_kernel}


def chosen_config(kind):
    """The config of the last launch of `kind`'s kernel, e.g. 'BLOCK_M=128 BLOCK_N=256 BLOCK_K=64
    GROUP_M=8 num_warps=8 num_stages=3'."""
    cfg = _KERNEL_OF[kind].best_config
    tiles = " ".join(f"{k}={v}" for k, v in cfg.kwargs.items())
    return f"{tiles} num_warps={cfg.num_warps} num_stages={cfg.num_stages}"
