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
