# Sourced by the device scripts that time bench/sm90_kernel_ab.cu variants (defer_store_gpu.sh,
# power_gpu.sh): ab_build OUT EPILOGUE [DEFINES...] builds the harness against cuBLAS / cuBLASLt
# for one epilogue (copy: the plain product; relu / gelu: EpilogueBiasAct with its column bias
# staged; plainba: the plain product on EpilogueBiasAct, no bias) into OUT; on failure it says
# so and touches OUT's folder's `failed`.
ab_build() {
    local out=$1 defs=(-DKILN_AB_CUBLAS "${@:3}")
    case $2 in
    copy) ;;
    relu) defs+=(-DKILN_AB_BIAS_ACT -DKILN_AB_EPISTAGE=8) ;;
    gelu) defs+=(-DKILN_AB_BIAS_ACT -DKILN_AB_EPISTAGE=8 -DKILN_AB_GELU) ;;
    plainba) defs+=(-DKILN_AB_PLAIN_BIAS_ACT -DKILN_AB_EPISTAGE=8) ;;
    *) echo "ab_build: unknown epilogue $2"; touch "$(dirname "$out")/failed"; return 1 ;;
    esac
    nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Idevice "${defs[@]}" \
        bench/sm90_kernel_ab.cu -o "$out" -ldl -lcublas -lcublasLt \
        || { echo "build failed: $out"; touch "$(dirname "$out")/failed"; }
}

# ab_time BINARY M N K: one line "BINARY MxNxK: kiln X peer Y TFLOP/s (ratio R [lo, hi])" from a
# harness binary (the current environment applies: KILN_AB_*, KILN_GEMM_*), or its MISMATCH;
# BINARY is a path, printed as its file name.
ab_time() {
  echo -n "$(basename "$1") $2x$3x$4: "
  timeout 60 "$1" "$2" "$3" "$4" 2>&1 | tail -1 \
    | grep -o "cuBLAS[Lt]* *[0-9.]* TFLOP/s  library/peer [0-9.]* \[[0-9., ]*\]\|MISMATCH.*" \
    | awk '{ if ($1 ~ /MISMATCH/) print; else printf "kiln %6.1f peer %6.1f TFLOP/s (%s %s %s)\n", $2 * $5, $2, $5, $6, $7 }'
}

# unpack_library XZ: the library built here and carried compressed (xz -T2 -6 -c
# build-gemm/libkiln_gemm.so > XZ; the device has python's lzma but no xz) into build-gemm/, and
# KILN_GEMM_LIB exported for bench/kiln_gemm.py.
unpack_library() {
  mkdir -p build-gemm
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open('build-gemm/libkiln_gemm.so', 'wb'))" "$1" \
    || { echo "unpack_library: cannot unpack $1"; return 1; }
  export KILN_GEMM_LIB=build-gemm/libkiln_gemm.so
}

# library_check R S: the library's checks on a GPU (after unpack_library): gemm_check.py into
# R/gemm_check_S.txt (its PASS count and every other line printed), then compute-sanitizer
# memcheck and racecheck on tests/gpu/gemm_small.py into R/sanitizer_S_{memcheck,racecheck}.txt.
library_check() {
  local r=$1 s=$2 tool
  timeout 200 python3 bench/gemm_check.py > "$r/gemm_check_$s.txt" 2>&1
  echo "gemm_check rc=$? PASS=$(grep -c '^PASS' "$r/gemm_check_$s.txt")"
  grep -v "^PASS" "$r/gemm_check_$s.txt" | head -20
  for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 tests/gpu/gemm_small.py \
      > "$r/sanitizer_${s}_$tool.txt" 2>&1 && echo "compute-sanitizer $tool: clean" \
      || { echo "compute-sanitizer $tool: FAILED"; tail -20 "$r/sanitizer_${s}_$tool.txt"; }
  done
}
