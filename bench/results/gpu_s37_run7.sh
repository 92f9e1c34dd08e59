#!/usr/bin/env bash
# session 37, run 7 (H200): the final library (commit 8c5a376's sources: the pair store compiled
# up to 160-wide tiles, the clustered two tiles from K = 1024; built here and carried as
# build-s37/libkiln_gemm.so.xz): gemm_check.py and compute-sanitizer on gemm_small.py (run 4's
# PART=check with S=s37b), the launches of the changed shapes (KILN_GEMM_DEBUG), and one
# gemm_bench.py --only gemm,decode sample (the issue's table: plain, bias + ReLU / GELU).
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
S=s37b PART=check bash bench/results/gpu_s37_run4.sh || exit 1
source bench/ab_build.sh
unpack_library build-s37/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
for s in 176x7168x2048 208x8192x1024 184x5120x960 129x4096x8192 16x8192x8192 150x4352x4096; do
  KILN_GEMM_DEBUG=1 python3 bench/ncu_one.py ${s//x/ } 2>&1 | grep -m1 "kiln sm90" | sed "s/^/$s: /"
done | tee $R/launches_s37.txt | cut -c1-200
timeout 300 python3 bench/gemm_bench.py --only gemm,decode --json $R/gemm_bench_s37_h200.json 2>&1 \
  | tee $R/gemm_bench_s37_h200.txt | grep "gemm" | awk '{print $1, $2, $(NF-6)}' | head -40
echo "${SECONDS}s"
