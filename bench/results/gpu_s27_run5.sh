#!/usr/bin/env bash
# session 27, run 5: mbarrier waits with a suspend-time hint (try_wait.parity ..., hint: the
# slow path sleeps in NANOSLEEP.SYNCS until the barrier moves) against the spinning wait
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab27
bash $D/ab_pairs.sh $D "base hint hint1k" "plainba relu" \
  "c2,256,8192,8192 c2,256,6144,8192 c2,200,8000,4096" 3 2>&1 | tee $R/suspend_hint_s27.txt
for l in base hint; do KILN_AB_SUSTAIN=2 $D/c2_relu_$l 256 8192 8192 | sed "s/^/$l /"; done 2>&1 | tee $R/suspend_hint_sustain_s27.txt
