#!/usr/bin/env bash
# Every figure a model candidate is judged on (docs/benchmarks.md, "Detection"; CHANGELOG.md for the candidates measured so far), for one model folder.
#
#   bash benchmarks/measure_model.sh MODEL_DIR OUT_DIR [extra eval options, e.g. --recall-bias 0.3]
#   python benchmarks/model_figures.py OUT_DIR1 OUT_DIR2 ...     # one row per folder
#
# Needs the data sets, made once (build/ is not in git):
#   python -m training.generate --out build/data/heldout_v2.jsonl --n 1000 --seed 1001 --split heldout
#   python -m training.real_heldout --out build/data/real_heldout.jsonl      # the reserve no training draws
#   build/data/heldout_v1.jsonl: the same generate command run in a checkout of f6015f4
#   (python -m alias_engine.training.generate ...), the shipped model's own generator.
# A model trained before the reserve existed with more than --real-docs 8000 has no clean real-text
# figure (it drew the reserve's records too).
set -euo pipefail
model=$1 out=$2
shift 2
dev=${DEV:-../shared/data/dev}
data=${DATA:-build/data}
mkdir -p "$out"
extra=("$@")
ev() { alias-engine eval "$@" --model "$model" "${extra[@]}" > /dev/null; }
ev "$dev/handwritten.fr.jsonl" "$dev/handwritten.en.jsonl" --json "$out/hw.json"
ev "$dev/presidio_synth_v2.en.jsonl" --json "$out/ps.json"
[ -f "$data/heldout_v1.jsonl" ] && ev "$data/heldout_v1.jsonl" --json "$out/ho1.json"
ev "$data/heldout_v2.jsonl" --json "$out/ho2.json"
ev "$data/real_heldout.jsonl" --json "$out/real.json"
python benchmarks/long_context.py --model "$model" --records "$dev/presidio_synth_v2.en.jsonl" --limit 400 \
    --synthetic "$data/heldout_v2.jsonl" --json "$out/long.json" > /dev/null
echo "figures of $model in $out"
