#!/usr/bin/env bash
# session 36, runs 4 and 7 (H200): the library with the two-tile product's clusters along N
# (built here: JOBS=2 bash bench/build_gemm.sh build-gemm; xz -T2 -6 -c
# build-gemm/libkiln_gemm.so > build-s36/libkiln_gemm.so.xz): gemm_check.py as built and with
# KILN_GEMM_TWO_TILE_CLUSTER=0 (the unpaired two tiles and the 64 x 160 pairs it restores);
# compute-sanitizer memcheck / racecheck on tests/gpu/gemm_small.py (memcheck also with
# KILN_GEMM_TWO_TILE_CLUSTER=0, since run 7); the launch each changed shape takes
# (KILN_GEMM_DEBUG). Run 7 (the rules narrowed after runs 5-6): S=s36b, the results' suffix.
cd "$(dirname "$0")/../.."
R=${OUT:-bench/results}
SECONDS=0
mkdir -p build-gemm
python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-s36/libkiln_gemm.so.xz'), open('build-gemm/libkiln_gemm.so', 'wb'))" || exit 1
export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so PYTHONUNBUFFERED=1
timeout 240 python3 bench/gemm_check.py > $R/gemm_check_${S:-s36}.txt 2>&1
echo "gemm_check rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_${S:-s36}.txt)"
grep -v "^PASS" $R/gemm_check_${S:-s36}.txt | head -20
KILN_GEMM_TWO_TILE_CLUSTER=0 timeout 240 python3 bench/gemm_check.py > $R/gemm_check_${S:-s36}_nocluster.txt 2>&1
echo "gemm_check (no clusters) rc=$? PASS=$(grep -c '^PASS' $R/gemm_check_${S:-s36}_nocluster.txt)"
grep -v "^PASS" $R/gemm_check_${S:-s36}_nocluster.txt | head -20
echo "${SECONDS}s"
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
    > $R/sanitizer_${S:-s36}_$tool.txt 2>&1 && echo "compute-sanitizer $tool: clean" \
    || { echo "compute-sanitizer $tool: FAILED"; tail -20 $R/sanitizer_${S:-s36}_$tool.txt; }
done
KILN_GEMM_TWO_TILE_CLUSTER=0 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 \
  python3 tests/gpu/gemm_small.py > $R/sanitizer_${S:-s36}_memcheck_nocluster.txt 2>&1 \
  && echo "compute-sanitizer memcheck (no clusters): clean" \
  || { echo "compute-sanitizer memcheck (no clusters): FAILED"; tail -20 $R/sanitizer_${S:-s36}_memcheck_nocluster.txt; }
echo "${SECONDS}s"
for s in 129x4096x8192 160x4096x8192 176x4096x8192 192x4096x8192 152x7168x8192 \
         160x8192x8192 136x5120x4096 208x8192x8192 136x3968x6400 150x4352x4096; do
  KILN_GEMM_DEBUG=1 python3 bench/ncu_one.py ${s//x/ } 2>&1 | grep -m1 "kiln sm90" | sed "s/^/$s: /"
done | tee $R/launches_${S:-s36}.txt
echo "${SECONDS}s"
