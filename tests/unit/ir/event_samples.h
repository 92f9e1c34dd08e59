#pragma once
// Event IR texts shared by the event IR unit tests.

namespace kiln::event::testing {

// Every construct of the grammar, in canonical form.
inline const char* kEveryConstruct = R"(event_program every
sizes K = 128, M = 256, N = 128

leaf mma_leaf(C: rw f32[64, 128], A: read bf16[64, 64], B: read bf16[64, 128]) {
  mma(C, A, B)
}

leaf epilogue(D: write bf16[2, 32], C: read f32[2, 32], alpha: f32, rows: i32) {
  scale(D, C, alpha)
  mask(D, rows, 0, 64, 1)
}

alloc D : GLOBAL bf16[256, 128] param write
alloc A : GLOBAL bf16[256, 128] param read layout row_major
alloc B : GLOBAL bf16[128, 128] param read
alloc X : NONE f32[128, 128]  # never materialized
part Dp = blocks(D, [128, 128], pad)
part Ap = blocks(A, [128, 64])
part Bp = blocks(B, [64, 128])
part Bc = blocks(B, [64, _])  # squeezed columns
%e0 = pfor (i, j) in [2, 1] @BLOCK warpspecialize pipeline = 2 smem_limit = 232448 persistent dma_registers = 40 compute_registers = 232 {  # the grid
  alloc Acc : REGISTER f32[128, 128] origin gemm_block.C
  part Accw = mma(Acc, acc, WARPGROUP, 128)
  part Accv = mma(Accw[g, 0], acc, WARP)
  part Acct = mma(Accv[w], acc, THREAD)
  alloc As : SHARED bf16[128, 64] stages 2 on k layout swizzle128 offset 0 mirrors Ap[i, 0] origin gemm_block.A
  part Asw = mma(As, lhs, WARPGROUP, 128)
  alloc Bs : SHARED bf16[64, 128] stages 2 on k layout swizzle128 offset 16384
  %z = call mma_leaf(Accw[g, 0], Asw[g], Bs) @WARPGROUP over (g: WARPGROUP 2) role compute
  %e1 = for k in [2] limit min(i + 1, 2) @BLOCK pipeline = 2 after [%z[:]] {
    %a = copy Ap[i, k] -> As @BLOCK role dma after [cross %m[:]@-2]  # copy-in A
    %b = copy Bp[k, 0] -> Bs @BLOCK role dma after [cross %m[:]@-2]
    %m = call mma_leaf(Accw[g, 0], Asw[g], Bs) @WARPGROUP over (g: WARPGROUP 2) role compute after [cross %a, cross %b, %m[g]@-1]
    yield %m[:]
  }
  alloc R : REGISTER bf16[2, 32] over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32)
  part Dt = blocks(Dp[i, j], [2, 32])
  %c = call epilogue(R, Acct[t], 0.5 * 2, M - i * 128) @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%e1]
  %o = copy add R -> Dt[w, t] @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%c[g, w, t]]
  %x = copy max X -> X @BLOCK
  %y = copy Dp[i, j] -> X @BLOCK
  %j = join @BLOCK after [%o[:, :, :], %x, %y]
  yield %j
}
%e2 = pfor t in [32] @THREAD after [%e0[:, :]] {
}
%done = join @HOST after [%e0[0, :], %e2[t + 1]]
)";

} // namespace kiln::event::testing
