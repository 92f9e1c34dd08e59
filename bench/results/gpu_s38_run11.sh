#!/usr/bin/env bash
# session 38, run 11 (H200): the library whose transposed two-tile products run D's column bias
# + activation on the bias + activation kernel, the bias starting the accumulator as the
# kernel's row bias (kAccRowBias; built here and carried as build-s38/libkiln_gemm.so.xz):
# gemm_check.py, compute-sanitizer memcheck / racecheck on tests/gpu/gemm_small.py, then
# skinny_ab.py twotilequad and colstore with bias + ReLU (run 6's skinny_ab_s38c.txt has the same
# rows on the linear kernel, measured the same way) and twotilequad with bias + GELU.
cd "$(dirname "$0")/../.."
source bench/ab_build.sh
R=${OUT:-bench/results}
S=s38d
SECONDS=0
unpack_library build-s38/libkiln_gemm.so.xz || exit 1
export PYTHONUNBUFFERED=1
library_check $R $S
echo "${SECONDS}s"
{
  timeout 200 python3 bench/skinny_ab.py "rowbias" twotilequad relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "rowbias" colstore relu 2>&1
  timeout 200 python3 bench/skinny_ab.py "rowbias" twotilequad gelu 2>&1
} | tee $R/skinny_ab_$S.txt | cut -c1-150
echo "${SECONDS}s"
