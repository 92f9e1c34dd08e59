# shellcheck shell=bash
# Sourced by the compile-only checks (compile_check.sh, codegen_check.sh): the verdict on one
# nvcc -Xptxas -v log. `verdict NAME LOG` prints "NAME status" and, when the status is not ok,
# the log's non-info lines, and returns 1. Statuses: a compile error (the log holds
# COMPILE_FAILED), local-memory spills, a stack frame, or a ptxas warning that setmaxnreg was
# ignored, wgmma serialized, or a warpgroup.arrive injected before a wgmma reading registers
# (C7519: registers written after the batch's wgmma.fence).
verdict() {
    local name=$1 log=$2 status=ok
    if grep -q COMPILE_FAILED "$log"; then status="compile error"; fi
    if grep "spill" "$log" | grep -qv " 0 bytes spill stores, 0 bytes spill loads"; then status="spills"; fi
    if grep "stack frame" "$log" | grep -qv "^\s*0 bytes stack frame"; then status="stack frame"; fi
    # The codes in their parentheses: bare, they matched the hash ptxas puts in the mangled name
    # of an anonymous namespace (_GLOBAL__N__c7519e8e, from a clone's path).
    if grep -qi "(C7508)\|(C7519)\|setmaxnreg.*ignored\|wgmma.*serializ" "$log"; then
        status="ptxas perf warning"
    fi
    printf '%-40s %s\n' "$name" "$status"
    [ "$status" = ok ] && return 0
    grep -v "^ptxas info" "$log" | head -20
    return 1
}
