#!/usr/bin/env bash
# The rules' and the engine's speed at HEAD against an earlier commit, alternating over two rounds in one
# run: `bench --rules-only`, `bench` under ONNX Runtime, and `run_presidio.py` (alias-engine beside Presidio
# in one process) under ORT and `auto`. The earlier commit runs from a git worktree (its code and rules)
# with the same model folder.
#
#   benchmarks/speed_against_commit.sh BASE_COMMIT OUT_DIR [MODEL_DIR]   # from the repository root,
#                                                                      # nothing else running
# Needs the venv of the README (active) and build/presidio-venv (benchmarks/requirements.txt).
set -euo pipefail
base=${1:?usage: benchmarks/speed_against_commit.sh BASE_COMMIT OUT_DIR [MODEL_DIR]}
out=${2:?usage: benchmarks/speed_against_commit.sh BASE_COMMIT OUT_DIR [MODEL_DIR]}
model=$(realpath "${3:-models}")
D=${DEV:-../shared/data/dev}
wt=build/base-worktree
mkdir -p "$out"
lscpu > "$out/lscpu.txt"
git rev-parse HEAD > "$out/commit.txt"
git worktree remove --force "$wt" 2>/dev/null || true
git worktree add -q "$wt" "$base"
trap 'git worktree remove --force "$wt"' EXIT
side_run() {  # side (base|head), then the command with its arguments
  local side=$1; shift
  if [ "$side" = base ]; then (cd "$wt" && PYTHONPATH="$PWD" "$@"); else "$@"; fi
}
opts=(--threads 2 --max-length 100000 --no-cold-start --runs 30)
for round in 1 2; do
  order="base head"; [ "$round" = 2 ] && order="head base"
  for side in $order; do
    side_run "$side" python -m alias_engine.cli bench --rules-only "${opts[@]}" > "$out/rules.$side.$round.txt" 2>&1
    side_run "$side" python -m alias_engine.cli bench --backend onnxruntime --model "$model" "${opts[@]}" \
      > "$out/bench.$side.$round.txt" 2>&1
    for backend in onnxruntime auto; do
      pp=""; [ "$side" = base ] && pp=$(realpath "$wt")
      PYTHONPATH=$pp build/presidio-venv/bin/python benchmarks/run_presidio.py "$D/handwritten.en.jsonl" \
        "$D/handwritten.fr.jsonl" --model "$model" --backend "$backend" > "$out/presidio.$side.$backend.$round.txt" 2>&1
    done
    echo "round $round $side: $(grep -h 'throughput' "$out/rules.$side.$round.txt" | cut -c1-60) |" \
         "$(grep -h 'throughput' "$out/bench.$side.$round.txt" | cut -c1-60) |" \
         "$(grep -h '^speed' "$out"/presidio."$side".*."$round".txt | sed 's/.*ratio //' | tr '\n' ' ')"
  done
done
