#!/usr/bin/env bash
# session 41: the library's last 16 units (sm90_f16_f16, sm90_f16_f32, complex_sm90_bf16,
# complex_sm90_f16, each operand order) compiled on the lent machine's 16 cores while the two
# cores here built the rest (bench/build_gemm.sh's flags), returned as gzip'd tar chunks of at
# most 15 MiB (the device returns 8 files of 16 MiB); a unit past 520 s is left to the build
# here. Unpacked here into build-gemm/, where build_gemm.sh writes their keys' files on relink.
cd "$(dirname "$0")/../.."
FLAGS=(-std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -Idevice -Iinclude
       -Xptxas -v)
mkdir -p /tmp/units
for src in sm90_f16_f16 sm90_f16_f32 complex_sm90_bf16 complex_sm90_f16; do
  for m in 0 1 2 3; do
    timeout 520 nvcc "${FLAGS[@]}" -DKILN_SM90_MAJOR=$m -c src/gemm/$src.cu \
      -o /tmp/units/${src}_m$m.o > /tmp/units/${src}_m$m.ptxas.log 2>&1 \
      || { echo "unit ${src}_m$m failed or timed out"; rm -f /tmp/units/${src}_m$m.o; } &
  done
done
wait
ls -la /tmp/units/*.o
tar -C /tmp/units -czf - . | split -b 15m - "${OUT:-/tmp}/units.tgz."
ls -la "${OUT:-/tmp}"
