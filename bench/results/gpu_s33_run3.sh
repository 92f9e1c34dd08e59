#!/usr/bin/env bash
# session 33, run 3 (H200): where kiln's 64 x 64 pairs wait at 127 x 4096 x 4096 (Nsight Compute
# stall samples per SASS instruction): the producer on empty slots (the consumer bounds the
# ring) or the consumer on full ones (the loads do).
cd "$(dirname "$0")/.."
D=build-s33
KILN_AB_ONCE=1 KILN_AB_SPLITS=1 ncu --section SourceCounters --section WarpStateStats \
  --import-source no -k regex:"gemm_kernel" -c 1 -f -o $OUT/short64 $D/m64n64c2 127 4096 4096 2>&1 | tail -2
ncu -i $OUT/short64.ncu-rep --page source --print-source sass --csv > $OUT/short64_source.csv 2> $OUT/source.err
ncu -i $OUT/short64.ncu-rep --page details > $OUT/short64_details.txt 2>&1
wc -l $OUT/short64_source.csv; head -c 400 $OUT/short64_source.csv; head -3 $OUT/source.err
