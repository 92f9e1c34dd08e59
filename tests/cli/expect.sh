# Sourced by the tests/cli scripts: `expect CODE "substring of stdout+stderr" -- ARGS...` runs
# `$kiln ARGS...` and counts a failure (in $failures, printed with the command) unless it exits
# with CODE and its output holds the substring.
failures=0

expect() {
    local code=$1 want=$2
    shift 3
    local out rc
    out=$("$kiln" "$@" 2>&1)
    rc=$?
    if [[ $rc -ne $code || "$out" != *"$want"* ]]; then
        echo "FAIL: kiln $* -> exit $rc (want $code), output lacks: $want"
        echo "$out" | head -n 5
        failures=$((failures + 1))
    fi
}
