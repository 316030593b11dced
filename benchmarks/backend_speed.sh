#!/usr/bin/env bash
# The speed table of docs/benchmarks.md for one CPU: ORT (the shipped int8 graph), the per-token
# int8 graph batched, and OpenVINO, alternating over two rounds, each with `bench` on the
# hand-written dev set and `run_presidio.py` (alias-engine beside Presidio in one process).
#
#   benchmarks/backend_speed.sh OUT_DIR        # from the repository root, nothing else running
#
# Needs the venv of the README and build/presidio-venv (benchmarks/requirements.txt).
set -euo pipefail
out=${1:?usage: benchmarks/backend_speed.sh OUT_DIR}
D=${DEV:-../shared/data/dev}
mkdir -p "$out" build/pt
lscpu > "$out/lscpu.txt"
git rev-parse HEAD > "$out/commit.txt"
cat "$D/handwritten.en.jsonl" "$D/handwritten.fr.jsonl" > "$out/hw.jsonl"
if [ ! -f build/pt/model.onnx ]; then
  python benchmarks/requantize.py per-token models/model.onnx build/pt/model.onnx
  cp models/labels.json models/tokenizer.json models/MODEL_CARD.md build/pt/
fi
run() {  # name, engine args...
  name=$1; shift
  echo "== $(date -u +%T) $name: bench"
  alias-engine bench --data "$out/hw.jsonl" --max-length 10000 --runs 30 "$@" \
      --json "$out/bench.$name.$round.json" > "$out/bench.$name.$round.txt" 2>&1
  echo "== $(date -u +%T) $name: against Presidio"
  build/presidio-venv/bin/python benchmarks/run_presidio.py "$D/handwritten.en.jsonl" "$D/handwritten.fr.jsonl" \
      "$@" > "$out/presidio.$name.$round.txt" 2>&1
}
for round in 1 2; do
  order="ort pt ov"; [ "$round" = 2 ] && order="ov pt ort"
  for b in $order; do
    case $b in
      ort) run ort --backend onnxruntime ;;
      pt) run pt --backend onnxruntime --model build/pt ;;
      ov) run ov --backend openvino ;;
    esac
  done
done
for f in "$out"/bench.*.txt; do echo "$f: $(grep -E '^throughput|^latency' "$f" | tr '\n' ' ')"; done
grep -h "^speed" "$out"/presidio.*.txt
