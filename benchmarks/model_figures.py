"""One row of figures per model from the files `eval --json` and `long_context.py --json` wrote.

    python benchmarks/model_figures.py build/figures/shipped build/figures/v2 ...

Each folder holds hw.json (hand-written fr+en), ps.json (presidio_synth_v2), ho1.json / ho2.json
(held-out synthetic splits of the old and the new generator), real.json (real text, PERSON) and
long.json; a missing file leaves its cells empty. Strict F1 and full leak in %.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from compare_evals import figures

from alias_engine.labels import LABELS


def _pct(x) -> str:
    return "" if x is None else f"{100 * x:.1f}"


def row(folder: Path) -> list[str]:
    cells = [folder.name]
    hw = folder / "hw.json"
    if hw.exists():
        f = figures(str(hw))
        weakest = min((lab for lab in LABELS if f.get(lab, {}).get("F1") is not None), key=lambda lab: f[lab]["F1"])
        cells += [f"{_pct(f['micro']['F1'])} / {_pct(f['micro']['leak'])}", f"{weakest} {_pct(f[weakest]['F1'])}",
                  " ".join(f"{lab[:4]} {_pct(f[lab]['F1'])}" for lab in LABELS if f.get(lab, {}).get("F1") is not None)]
    else:
        cells += ["", "", ""]
    ps = folder / "ps.json"
    if ps.exists():
        f = figures(str(ps))
        overlap = json.loads(ps.read_text())["evaluations"][0]["per_label"]["ADDRESS"]["relaxed_f1"]
        cells.append(f"{_pct(f['micro']['F1'])} / {_pct(f['PERSON']['F1'])} / {_pct(overlap)} / {_pct(f['micro']['leak'])}")
    else:
        cells.append("")
    for name in ("ho1.json", "ho2.json"):
        p = folder / name
        cells.append(f"{_pct(figures(str(p))['micro']['F1'])} / {_pct(figures(str(p))['PERSON']['leak'])}"
                     if p.exists() else "")
    real = folder / "real.json"
    cells.append(f"{_pct(figures(str(real))['PERSON']['F1'])} / {_pct(figures(str(real))['PERSON']['leak'])}"
                 if real.exists() else "")
    long = folder / "long.json"
    if long.exists():
        d = json.loads(long.read_text())
        r, s = d.get("records_joined", {}), d.get("synthetic_long", {})
        cells.append(f"{r.get('alone_person')} → {r.get('joined_person')}; {s.get('alone_person')} → "
                     f"{s.get('joined_person')} (all {s.get('alone_all')} → {s.get('joined_all')})")
    else:
        cells.append("")
    return cells


def main(argv: list[str]) -> int:
    head = ["model", "hand-written micro F1 / leak", "weakest label", "per label",
            "presidio micro / PERSON / ADDRESS overlap / leak", "held-out v1 micro / PERSON leak",
            "held-out v2 micro / PERSON leak", "real text PERSON F1 / leak",
            "PERSON overlap recall alone → joined: 400 records; long synthetic"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for folder in argv:
        print("| " + " | ".join(row(Path(folder))) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
