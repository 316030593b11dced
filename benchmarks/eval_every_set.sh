#!/usr/bin/env bash
# Every evaluation set of docs/benchmarks.md, one `alias-engine eval` each, under one backend:
#   benchmarks/eval_every_set.sh TAG onnxruntime|openvino      (ONLY="hw_en ho8 ..." to restrict;
#   MODEL=DIR to score a candidate model folder instead of models/, RB=R for --recall-bias R,
#   THREADS=N for --threads N, e.g. beside a training run)
# writes build/evals/TAG/SET.{json,pred.jsonl,log}; sets whose files are missing are skipped (the shared
# hand-written set needs ../shared, the generated ones the commands of "Data files").
# Held-out sets (heldout_v3-v10) are for scores only: never read their predictions' errors.
set -u
TAG=${1:?usage: benchmarks/eval_every_set.sh TAG BACKEND}; BACKEND=${2:?usage: benchmarks/eval_every_set.sh TAG BACKEND}
OUT=build/evals/$TAG; mkdir -p "$OUT"
D=benchmarks/data; S=${DEV:-../shared/data/dev}; B=build/data
declare -A F=(
 [hw_en]="$S/handwritten.en.jsonl" [hw_fr]="$S/handwritten.fr.jsonl"
 [presidio]="$S/presidio_synth_v2.en.jsonl" [stdnum]="$S/stdnum_vectors.jsonl"
 [ho2]="$B/heldout_v2.jsonl" [reserve]="$B/real_reserve.jsonl"
 [v3k]="$B/v3_kinds.jsonl" [v4k]="$B/v4_kinds.jsonl" [v5k]="$B/v5_kinds.jsonl" [v6k]="$B/v6_kinds.jsonl")
for i in 3 4 5 6 7 8 9 10; do F[heldout_v$i]="$D/heldout_v$i.en.jsonl $D/heldout_v$i.fr.jsonl"; done
for i in 1 2 3 4 5 6 7 8 9; do F[probe_v$i]="$D/probe_v$i.en.jsonl $D/probe_v$i.fr.jsonl"; done
SETS=${ONLY:-"hw_en hw_fr heldout_v3 heldout_v4 heldout_v5 heldout_v6 heldout_v7 heldout_v8 heldout_v9 heldout_v10 probe_v1 probe_v2 probe_v3 probe_v4 probe_v5 probe_v6 probe_v7 probe_v8 probe_v9 presidio stdnum ho2 reserve v3k v4k v5k v6k"}
for s in $SETS; do
  files=${F[$s]:?unknown set $s}; ok=1
  for f in $files; do [ -f "$f" ] || ok=0; done
  [ $ok = 1 ] || { echo "skipped $s (missing files)"; continue; }
  # shellcheck disable=SC2086
  alias-engine eval $files ${MODEL:+--model "$MODEL"} ${RB:+--recall-bias "$RB"} ${THREADS:+--threads "$THREADS"} --backend "$BACKEND" --json "$OUT/$s.json" --save-predictions "$OUT/$s.pred.jsonl" \
    > "$OUT/$s.log" 2>&1 || echo "FAILED $s (see $OUT/$s.log)"
done
echo "done: $OUT"
