"""PyTorch's scaled_dot_product_attention (cuDNN / FlashAttention backends) as the peer of kiln's
generated attention kernels: bf16 Q, K, V of shape [Z, N, D] (Z = batch x heads), scale 1/sqrt(D),
the same CUDA-event timing as `kiln run --gpu` (median of launches after a warm-up).
Usage: python3 bench/attention_sdpa.py Z N D [causal]   -> one line: ms and TFLOP/s"""
import sys

import torch
import torch.nn.functional as F

Z, N, D = (int(x) for x in sys.argv[1:4])
causal = len(sys.argv) > 4 and sys.argv[4] not in ("0", "false")
q, k, v = (torch.randn(1, Z, N, D, device="cuda", dtype=torch.bfloat16) for _ in range(3))
run = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=D ** -0.5)
for _ in range(3):
    run()
times = []
for _ in range(20):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    run()
    b.record()
    b.synchronize()
    times.append(a.elapsed_time(b))
ms = sorted(times)[len(times) // 2]
flop = 4.0 * Z * N * N * D * (0.5 if causal else 1.0)
print(f"sdpa Z={Z} N={N} D={D} causal={int(causal)}: {ms:.4f} ms  {flop / ms / 1e9:.1f} TFLOP/s")
