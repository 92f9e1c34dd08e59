#!/usr/bin/env bash
# session 33, run 0 (H200): harness and cuBLAS kernel names only (the library is building)
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
SECONDS=0
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader
# The split-K section's long-K rows (1024 x 1024 x 8192 at 0.89, 512 x 2048 x 8192 at 0.94 of
# cuBLAS in session 32): cuBLAS's kernels, then the harness's tile shapes against cuBLAS
# (KILN_AB_SPLITS: K splits of every tile).
python3 bench/cublas_kernels.py 1024x1024x8192 512x2048x8192 2>&1 | grep -v Warn | tee $R/cublas_kernels_s33b.txt | cut -c1-200
for shape in "1024 1024 8192" "512 2048 8192"; do
  for v in m128n128s:2 m128n128s:1 m128n128c2s:1 m128n128c2s:2 m64n128c2:1 m64n128c2:2 m128n64:1 m128n64c2:1; do
    echo "== ${v%%:*} splits ${v##*:} $shape"
    KILN_AB_SPLITS=${v##*:} timeout 60 build-s33/${v%%:*} $shape 2>&1 | tail -3
  done
done | tee $R/longk_harness_s33.txt
echo "${SECONDS}s"
# The harness's 64 x 64 pairs at 127 / 128 rows under the three L2 settings (the harness also
# flushes L2 only before each replay of its 10-launch graph).
for shape in "127 4096 4096" "128 4096 4096" "127 4096 8192"; do
  for v in default normal,normal normal,last first,first; do
    if [ $v = default ]; then e=(); else e=("KILN_GEMM_L2=$v"); fi
    echo "== m64n64c2 L2 $v $shape"
    env "${e[@]}" KILN_AB_SPLITS=1 timeout 60 build-s33/m64n64c2 $shape 2>&1 | tail -2
  done
done | tee $R/l2_harness_s33.txt
echo "${SECONDS}s"
