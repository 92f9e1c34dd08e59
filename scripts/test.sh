#!/usr/bin/env bash
# The whole test suite, set-up included: installs the Debian packages kiln needs, builds it,
# runs every CTest test (unit, golden, interp, nvcc compile-only when nvcc is present), then the
# parser fuzzer under AddressSanitizer for a bounded number of cases.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$jobs"

# Fuzzed parser input must give an error or a valid program, never a crash: run it where a
# memory error cannot hide.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKILN_ASAN=ON >/dev/null
ninja -C build-asan kiln_ir_tests kiln_passes_tests
# Each run must execute at least one test: an empty filter match would pass silently.
run_asan() {
    local out
    out=$("$@" 2>&1) || { echo "$out"; return 1; }
    echo "$out" | tail -n 3
    echo "$out" | grep -q "PASSED  \] [1-9]" || { echo "no test ran: $*"; return 1; }
}
KILN_FUZZ_CASES="${KILN_FUZZ_CASES:-3000}" \
    run_asan ./build-asan/tests/unit/ir/kiln_ir_tests --gtest_filter='Fuzz.*'
# The same mutated examples through verification and instantiation.
run_asan ./build-asan/tests/unit/passes/kiln_passes_tests --gtest_filter='Robustness.*'

