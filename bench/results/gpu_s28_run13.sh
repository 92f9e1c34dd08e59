#!/usr/bin/env bash
# session 28, run 13: a tail map for the box that overhangs a K-major operand's rows (tN / tail)
# against HEAD's kernel, which zero-fills the rest of that box (fN / early), in turn
cd "$(dirname "$0")/.."
R=${OUT:-bench/results}
D=build-ab28
f() { sed 's/staging=[0-9]* tail=0\/0 splits=0 defer=[01] band=0//; s/reference max|diff|/err/g'; }
{
bash $D/ab_pairs.sh $D "f144 t144" "copy" "c1,768,3072,4096 c1,768,3030,4096 c1,768,3168,4096 c2,768,3072,4096" 2
bash $D/ab_pairs.sh $D "f144 t144" "relu" "c1,768,3072,4096" 2
bash $D/ab_pairs.sh $D "f192 t192" "copy" "c1,1024,2900,4096 c1,1024,3072,4096" 2
bash $D/ab_pairs.sh $D "early256 tail256" "copy" "c2,4096,4000,4096 c2,2048,2000,2048" 2
bash $D/ab_pairs.sh $D "early tail" "plainba relu" "c2,200,8000,4096 c2,160,7168,8192 c2,256,8192,8192" 2
} 2>&1 | f | tee $R/tail_map_s28.txt
