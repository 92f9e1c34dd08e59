#!/usr/bin/env bash
# session 23, run 7: the generated attention kernels, old emitter (threadIdx.x / 128 - 1) against
# new (warpgroup_index() - 1), in alternation, `kiln run --gpu --no-check --iters 30`
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
mkdir -p /tmp/kiln && tar xzf build-kiln23/k23.tgz -C /tmp/kiln
export LD_LIBRARY_PATH=/tmp/kiln/lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
for e in attention_d64 attention_d64_causal attention_d128 attention_d128_causal; do
  for sz in "--size Z=32 --size N=4096" "--size Z=128 --size N=1024"; do
    for r in 1 2 3; do
      for v in kiln_old kiln; do
        t=$(timeout 120 /tmp/kiln/bin/$v run examples/$e.kiln --gpu --no-check --iters 30 $sz 2>&1 | grep -o "median [0-9.]* ms")
        echo "$e $sz $v round $r: $t"
      done
    done
  done
done | tee $R/attention_emitter_ab_s23.txt
