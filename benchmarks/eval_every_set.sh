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
D=benchmarks/data; S=${DEV:-../shared/data/dev}; B=build/data
declare -A F=(
 [hw_en]="$S/handwritten.en.jsonl" [hw_fr]="$S/handwritten.fr.jsonl"
 [presidio]="$S/presidio_synth_v2.en.jsonl" [stdnum]="$S/stdnum_vectors.jsonl"
 [ho2]="$B/heldout_v2.jsonl" [reserve]="$B/real_reserve.jsonl"
 [v3k]="$B/v3_kinds.jsonl" [v4k]="$B/v4_kinds.jsonl" [v5k]="$B/v5_kinds.jsonl" [v6k]="$B/v6_kinds.jsonl")
OURS=""  # every held-out and probe set of benchmarks/data, by version, but those in $D/UNSCORED
UNSCORED=" $( { grep -v '^#' "$D/UNSCORED" 2>/dev/null || true; } | tr '\n' ' ') "
shopt -s nullglob
for f in $(printf '%s\n' $D/heldout_v*.en.jsonl $D/probe_v*.en.jsonl | sort -V); do
  n=$(basename "$f" .en.jsonl); F[$n]="$D/$n.en.jsonl $D/$n.fr.jsonl"
  [[ "$UNSCORED" == *" $n "* ]] || OURS="$OURS $n"
done
SETS=${ONLY:-"hw_en hw_fr$OURS presidio stdnum ho2 reserve v3k v4k v5k v6k"}
for s in $SETS; do
  files=${F[$s]:?unknown set $s}; ok=1
  for f in $files; do [ -f "$f" ] || ok=0; done
  [ $ok = 1 ] || { echo "skipped $s (missing files)"; continue; }
  # shellcheck disable=SC2086
  alias-engine eval $files ${MODEL:+--model "$MODEL"} ${RB:+--recall-bias "$RB"} ${THREADS:+--threads "$THREADS"} --backend "$BACKEND" --json "$OUT/$s.json" --save-predictions "$OUT/$s.pred.jsonl" \
    > "$OUT/$s.log" 2>&1 || echo "FAILED $s (see $OUT/$s.log)"
done
echo "done: $OUT"
