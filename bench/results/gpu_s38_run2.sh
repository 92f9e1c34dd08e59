#!/usr/bin/env bash
# session 38, run 2 (H200): where the 4 x 2 clusters of run 1 stop gaining: K = 2560-4096 at
# 176 x 7168, 200 x 6144, 184 x 5120, and the 72- and 80-wide tiles (129-160 rows) at K = 1024 and
# 2048; harness, as run 1, two rounds. Then how many 8- and 2-CTA clusters the kernels keep
# resident (KILN_GEMM_DEBUG's max_clusters): run 1's 4 x 2 launches of 128 CTAs ran at half speed.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
D=build-s38h
export KILN_AB_GROUP=1 KILN_AB_STORE_T=1
{
for r in 1 2; do
  echo "round $r"
  for s in "88 7168 176 2560" "88 7168 176 3072" "88 7168 176 4096" \
           "104 6144 200 3072" "104 6144 200 4096" "96 5120 184 3072" "96 5120 184 4096" \
           "72 7168 144 2048" "72 7168 136 1024" "72 6144 140 2048" "80 7168 160 2048" \
           "80 6144 152 1024" "80 7168 160 4096"; do
    set -- $s
    for c in cn2 c42; do ab_time $D/t$1$c $2 $3 $4; done
  done
done
echo "resident clusters"
for c in t88cn2 t88c42 t72c42; do
  KILN_GEMM_DEBUG=1 KILN_AB_ONCE=1 $D/$c 8192 176 1024 2>&1 | grep -o "cluster=[0-9x]* .*max_clusters=[0-9]* grid=[0-9]*" | head -1
done
nvidia-smi -q | grep -i -A2 "gpc\|Product Name" | head
} 2>&1 | tee $OUT/cluster42_s38b.txt
