#!/usr/bin/env bash
# Packs a built `kiln` with the shared libraries it links that a bare GPU machine lacks (fmt,
# Z3, CBC and theirs; not glibc or libstdc++, which the machine has in newer versions) into
# OUT_DIR/bin and OUT_DIR/lib, so tests/gpu/runtime_gpu.sh OUT_DIR runs it there without
# building (the machine's image has no Debian -dev packages and no network). libcuda and libnvrtc
# are not packed: kiln opens them at run time from the machine's driver and CUDA toolkit.
# Usage: tests/gpu/pack_kiln.sh KILN_BINARY OUT_DIR
set -euo pipefail
kiln=${1:?usage: pack_kiln.sh KILN_BINARY OUT_DIR}
out=${2:?usage: pack_kiln.sh KILN_BINARY OUT_DIR}
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
cp "$kiln" "$out/bin/kiln"
ldd "$kiln" | awk '$3 ~ /^\// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
    libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | ld-linux* | libstdc++.so* | \
        libgcc_s.so*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
    esac
done
du -sh "$out"
