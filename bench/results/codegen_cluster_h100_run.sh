#!/usr/bin/env bash
# Device run: cluster vs no cluster, generated kernels (build-clu-gpu/cu, binaries in bin).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
LOG=$OUT/run.log; SAN=$OUT/sanitizer.log; J=$OUT/codegen_cluster.jsonl
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee $OUT/gpu.txt
one() {  # NAME PASS
    local r; timeout ${3:-60} bin/$1 bin/$1.json > bin/$1.out 2>&1; r=$?
    echo "$1 [pass $2 rc=$r] $(tail -1 bin/$1.out)" | tee -a $LOG
    [ -s bin/$1.json ] && sed "s/^{/{\"case\": \"$1\", \"pass\": $2, /" bin/$1.json >> $J
    rm -f bin/$1.json
}
one gemm_small_odd_c2 1 20
grep -q correct bin/gemm_small_odd_c2.out || { echo PROBE FAILED; cat bin/gemm_small_odd_c2.out; exit 1; }
for n in gemm_small_c2 bmm_small_c2 dual_small_c2 rowsum_small_c2 gemm_127x4096x4096_c2 gemm_127x4096x4096 gemm_4000 gemm_4000_c2; do one $n 1; done
S="gemm_4096 gemm_6144 gemm_8192 gemm_4096x11008x4096 gemm_4096x4096x11008 gemm_8192x14336x4096 gemm_8192x4096x14336 gemm_16384x4096x4096 gemm_4096x28672x4096"
for n in $S bmm_8x2048 dual_4096x11008x4096 dual_8192x14336x4096 rowsum_8192; do one $n 1; one ${n}_c2 1; done
for n in $S; do one ${n}_c2 2; one $n 2; done
for n in gemm_small_odd_c2 gemm_small_c2 bmm_small_c2 dual_small_c2 rowsum_small_c2; do
  for tool in memcheck racecheck synccheck; do
    case $tool$n in racecheckgemm_small_c2|racecheckbmm_small_c2|synccheckgemm_small_c2|synccheckbmm_small_c2) continue;; esac
    echo "== $tool $n" >> $SAN
    KILN_ITERS=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 bin/$n bin/san.json >> $SAN 2>&1
    echo "$tool $n rc=$?" | tee -a $LOG
  done
done
echo ALL DONE | tee -a $LOG
