#!/usr/bin/env bash
# A/B of two builds of bench/sm90_kernel_ab.cu in alternation (ABAB), each against its peer in
# the same process: bench/ab_pairs.sh DIR "LABEL_A LABEL_B" "EPILOGUES" "SHAPES" [REPEATS]
# runs DIR/<cluster>_<epilogue>_<label> M N K for every shape "cM,N,K" (c1 or c2: the binary's
# cluster), epilogue and label, REPEATS (default 2) times in turn, and prefixes each line with
# its label (bench/defer_store_gpu.sh builds such a set and runs it).
set -uo pipefail
dir=$1; read -ra labels <<< "$2"; read -ra epis <<< "$3"; read -ra shapes <<< "$4"
repeats=${5:-2}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
for s in "${shapes[@]}"; do
    c=${s%%,*}; IFS=, read -r M N K <<< "${s#*,}"
    for e in "${epis[@]}"; do
        for ((r = 0; r < repeats; ++r)); do
            for l in "${labels[@]}"; do
                "$dir/${c}_${e}_$l" "$M" "$N" "$K" | sed "s/^/$l /"
            done
        done
    done
done
