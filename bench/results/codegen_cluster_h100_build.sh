#!/usr/bin/env bash
# Local copy of tests/gpu/codegen_gemm.sh's build step against build-clu-gpu/codegen_gemm.cu (HEAD's
# harness has kElemType = kElemType for bf16, which does not compile).
cd /work/main
BIN=build-clu-gpu/bin; mkdir -p $BIN
size() { sed -n '1s/.*sizes \(.*\)).*/\1/p' "$1" | tr ',' '\n' | sed -n "s/^ *$2 = \([0-9]*\)$/\1/p"; }
kind_flags() {
    grep -q "wgmma::DType::F16" "$1" && echo -DKILN_F16
    case $(sed -n "1s/.*event program '\([a-z_]*\)'.*/\1/p" "$1") in
    batched_gemm) echo "-DKILN_Z=$(size "$1" Z)" ;;
    gemm_rowsum) echo -DKILN_ROWSUM ;;
    dual_gemm) echo -DKILN_DUAL ;;
    esac
}
build() {
    nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Idevice \
        -DKILN_GENERATED="\"$PWD/$2\"" -DKILN_M=$(size "$2" M) -DKILN_N=$(size "$2" N) \
        -DKILN_K=$(size "$2" K) $(kind_flags "$2") build-clu-gpu/codegen_gemm.cu -lcublas -o "$BIN/$1"
}
for f in build-clu-gpu/cu/*.cu; do
    n=$(basename "$f" .cu)
    [ -x "$BIN/$n" ] && [ "$BIN/$n" -nt "$f" ] && continue
    echo "$n"
    printf '%s\n' "$n $f"
done | awk 'NF==2' | xargs -P 2 -L 1 bash -c "$(declare -f size kind_flags build); BIN=$BIN; build \$0 \$1 > $BIN/\$0.build 2>&1 || echo BUILD FAILED \$0"
