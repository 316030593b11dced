#!/usr/bin/env bash
# Every evaluation set of docs/benchmarks.md, one `alias-engine eval` each, under one backend:
#   benchmarks/eval_every_set.sh TAG onnxruntime|openvino      (ONLY="hw_en heldout_v8 ..." to restrict;
#   MODEL=DIR to score a candidate model folder instead of models/, RB=R for --recall-bias R,
#   THREADS=N for --threads N, e.g. beside a training run)
# writes build/evals/TAG/SET.{json,pred.jsonl,log}; sets whose files are missing are skipped (the shared
# hand-written set needs ../shared, the generated ones the commands of "Data files").
# Held-out sets (heldout_v*) are for scores only: never read their predictions' errors; those listed in
# benchmarks/data/UNSCORED are left out unless ONLY names them. Pool sets and
# compare models with `python benchmarks/pooled_evals.py "SET ..." TAG...`.
set -u
TAG=${1:?usage: benchmarks/eval_every_set.sh TAG BACKEND}; BACKEND=${2:?usage: benchmarks/eval_every_set.sh TAG BACKEND}
OUT=build/evals/$TAG; mkdir -p "$OUT"
S=${DEV:-../shared/data/dev}
# the sets and their files, from benchmarks/evaluation_sets.py (every set but the unscored ones, or those of ONLY)
declare -A F=(); SETS=""
# shellcheck disable=SC2086
LISTING=$(python3 "$(dirname "$0")/evaluation_sets.py" --dev "$S" ${ONLY:-}) || exit 2
while read -r name files; do F[$name]=$files; SETS="$SETS $name"; done <<< "$LISTING"
for s in $SETS; do
  files=${F[$s]}; ok=1
  for f in $files; do [ -f "$f" ] || ok=0; done
  [ $ok = 1 ] || { echo "skipped $s (missing files)"; continue; }
  # shellcheck disable=SC2086
  alias-engine eval $files ${MODEL:+--model "$MODEL"} ${RB:+--recall-bias "$RB"} ${THREADS:+--threads "$THREADS"} --backend "$BACKEND" --json "$OUT/$s.json" --save-predictions "$OUT/$s.pred.jsonl" \
    > "$OUT/$s.log" 2>&1 || echo "FAILED $s (see $OUT/$s.log)"
done
echo "done: $OUT"
