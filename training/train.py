"""CPU-friendly fine-tuning of the trimmed encoder as a BIOES token classifier.

    nohup python -m training.train --base build/base --out build/train \
        --synth build/data/synth.jsonl --steps 3000 > /dev/null 2>&1 &

Logs to OUT/log.txt, checkpoints to OUT/ckpt.pt every --save-every steps and
resumes from it when started again with the same arguments; the final model
goes to OUT/final (transformers format + tokenizer.json).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import time
import zlib
from pathlib import Path

from alias_engine.detectors.contract import special_ids
from alias_engine.labels import BIOES_TAGS
from training.tags import IGNORE, TAG_ID, Chunk, encode_document

WINDOW_FILE = "alias_engine_window.json"
SHARED_TRAIN = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "train"


def read_jsonl(path: Path, labels: frozenset[str] | None = None) -> list[tuple[str, list[tuple[int, int, str]]]]:
    docs = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            d = json.loads(line)
            spans = [(s["start"], s["end"], s["label"]) for s in d["spans"] if labels is None or s["label"] in labels]
            docs.append((d["text"], spans))
    return docs


def load_chunks(tokenizer, docs, size: int) -> list[Chunk]:
    chunks: list[Chunk] = []
    for text, spans in docs:
        chunks += encode_document(tokenizer, text, spans, size)
    return chunks


# The share of real records that no training run draws, whatever its --real-docs: the real-text held-out
# set (training/real_heldout.py). Without it, a recipe drawing 12,000 documents took 9,600 of the 9,748
# that have names, and left no real names to measure on.
REAL_RESERVE_PERCENT = 15


def in_real_reserve(text: str) -> bool:
    """Whether a real record is kept out of training (a fixed choice by a hash of its text)."""
    return zlib.crc32(text.encode("utf-8")) % 100 < REAL_RESERVE_PERCENT


def real_docs(paths: list[Path], limit: int, seed: int, reserve: bool = True) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """Real text with names: PERSON spans only (other annotated entities stay O), never a record of the
    reserve (`reserve=False` gives the draw of models trained before it existed, the shipped one's)."""
    docs = []
    for p in paths:
        docs += [d for d in read_jsonl(p, frozenset({"PERSON"})) if not (reserve and in_real_reserve(d[0]))]
    rnd = random.Random(seed)
    rnd.shuffle(docs)
    # keep all documents with names, and a share of those without
    with_names = [d for d in docs if d[1]]
    without = [d for d in docs if not d[1]]
    chosen = with_names[: int(limit * 0.8)] + without[: limit - min(len(with_names), int(limit * 0.8))]
    rnd.shuffle(chosen)
    return chosen


# How long texts put documents side by side: a blank line, one line break (chat exports,
# joined records, lists: a name line right after another text's last line), a rule, a space.
LONG_SEPARATORS = ("\n\n", "\n", "\n", "\n\n\n", "\n---\n", " ")


def long_documents(docs: list[tuple[str, list]], count: int, seed: int) -> list[tuple[str, list]]:
    """`count` long texts, each 2 to 8 random documents joined by a separator drawn from
    LONG_SEPARATORS (spans moved along): the model then sees many values in one window, and
    values right after unrelated text, as in a long text."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        text, spans = "", []
        for doc_text, doc_spans in rnd.sample(docs, min(len(docs), rnd.randint(2, 8))):
            if text:
                text += rnd.choice(LONG_SEPARATORS)
            spans += [(start + len(text), end + len(text), label) for start, end, label in doc_spans]
            text += doc_text
        out.append((text, spans))
    return out


def distill_loss(student, teacher, mask, temperature: float):
    """KL divergence from the teacher's tag distribution to the student's on every real token,
    scaled by temperature^2 so that its gradients keep their size as the temperature changes."""
    import torch.nn.functional as F

    keep = mask.bool()
    log_p = F.log_softmax(student[keep] / temperature, dim=-1)
    q = F.softmax(teacher[keep] / temperature, dim=-1)
    return F.kl_div(log_p, q, reduction="batchmean") * temperature**2


def tag_loss(logits, labels, outside_weight: float):
    """Cross-entropy over the gold tags, tokens tagged O weighted `outside_weight` (1: plain
    cross-entropy; below 1 a missed value costs more than a false one, which trades precision
    for recall). Positions labelled IGNORE (padding, specials) do not count."""
    import torch
    import torch.nn.functional as F

    weight = torch.ones(logits.shape[-1], dtype=torch.float32, device=logits.device)
    weight[TAG_ID["O"]] = outside_weight
    return F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), labels.reshape(-1),
                           weight=weight, ignore_index=IGNORE)


def make_batches(chunks: list[Chunk], batch: int, seed: int, max_tokens: int | None = None) -> list[list[int]]:
    """Shuffled batches of similar length (less padding), deterministic for `seed`: `batch`
    chunks each, or with `max_tokens` as many as fit in that many padded positions (at most
    4 x `batch`)."""
    rnd = random.Random(seed)
    order = list(range(len(chunks)))
    rnd.shuffle(order)
    pool = batch * 50
    batches = []
    for i in range(0, len(order), pool):
        part = sorted(order[i : i + pool], key=lambda k: len(chunks[k].ids))
        if max_tokens is None:
            batches += [part[j : j + batch] for j in range(0, len(part), batch)]
            continue
        current: list[int] = []
        for k in part:  # ascending length: the newest chunk is the longest of the batch
            if current and ((len(current) + 1) * len(chunks[k].ids) > max_tokens or len(current) >= 4 * batch):
                batches.append(current)
                current = []
            current.append(k)
        if current:
            batches.append(current)
    rnd.shuffle(batches)
    return batches


def collate(chunks: list[Chunk], pad_id: int = 1):
    import torch

    n = max(len(c.ids) for c in chunks)
    ids = torch.full((len(chunks), n), pad_id, dtype=torch.long)
    mask = torch.zeros((len(chunks), n), dtype=torch.long)
    labels = torch.full((len(chunks), n), IGNORE, dtype=torch.long)
    for i, c in enumerate(chunks):
        ids[i, : len(c.ids)] = torch.tensor(c.ids)
        mask[i, : len(c.ids)] = 1
        labels[i, : len(c.tags)] = torch.tensor(c.tags)
    return ids, mask, labels


def build_model(base: Path, layers: int, pick: str = "first"):
    """`layers` encoder layers of `base`: its first ones, or with `pick="alternate"` every
    other one (a student that keeps the whole depth's range of features)."""
    import torch
    from transformers import BertForTokenClassification

    tags = list(BIOES_TAGS)
    model = BertForTokenClassification.from_pretrained(
        str(base),
        num_labels=len(tags),
        id2label=dict(enumerate(tags)),
        label2id={t: i for i, t in enumerate(tags)},
    )
    total = model.config.num_hidden_layers
    if layers < total:
        if pick == "alternate":
            keep = [round(i * (total - 1) / (layers - 1)) for i in range(layers)] if layers > 1 else [total - 1]
        else:
            keep = list(range(layers))
        model.bert.encoder.layer = torch.nn.ModuleList([model.bert.encoder.layer[i] for i in keep])
        model.config.num_hidden_layers = layers
    model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    return model


def log(out: Path, msg: str) -> None:
    line = f"{time.strftime('%H:%M:%S')} {msg}"
    print(line, flush=True)
    with (out / "log.txt").open("a", encoding="utf-8") as f:
        f.write(line + "\n")


def use_bf16(precision: str) -> bool:
    """bf16 autocast for `--precision bf16`, and for `auto` where the CPU computes bf16 in AMX tiles
    (1.5-1.8x a step measured there for the 12-layer encoder) or is an AMD CPU with AVX512-BF16 (1.45x
    on a Zen 4 EPYC); with AVX512-BF16 alone on an Intel Xeon a step was 1.3x slower than fp32
    (docs/benchmarks.md); fp32 otherwise. The weights and the optimiser stay fp32: autocast runs the
    matrix products in bf16."""
    if precision == "auto":
        from alias_engine.detectors.backends import bf16_pays

        return bf16_pays()
    return precision == "bf16"


def train(args: argparse.Namespace) -> None:
    import torch
    from tokenizers import Tokenizer

    if not (math.isfinite(args.outside_weight) and args.outside_weight > 0):
        raise SystemExit(f"--outside-weight must be a finite number above 0, got {args.outside_weight}")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = Tokenizer.from_file(str(args.base / "tokenizer.json"))
    pad_id = special_ids(tokenizer)[2]

    synth = []
    for p in args.synth:
        synth += read_jsonl(p)
    real_paths = sorted(args.real.glob("*.jsonl")) if args.real and args.real.is_dir() else []
    real = real_docs(real_paths, args.real_docs, args.seed) if real_paths and args.real_docs else []
    chunks = load_chunks(tokenizer, synth, args.max_len) + load_chunks(tokenizer, real, args.max_len)
    log(out, f"data: {len(synth)} synthetic + {len(real)} real documents -> {len(chunks)} chunks of <= {args.max_len}")
    max_tokens = None
    if args.long_docs:
        if not 3 <= args.long_len <= min(512, args.batch * args.max_len):
            raise SystemExit(f"--long-len must be between 3 and {min(512, args.batch * args.max_len)} "
                             "(the encoder's 512 positions and one batch's budget of --batch x --max-len)")
        long = load_chunks(tokenizer, long_documents(synth + real, args.long_docs, args.seed), args.long_len)
        chunks += long
        max_tokens = args.batch * args.max_len
        log(out, f"data: {args.long_docs} long texts -> {len(long)} chunks of <= {args.long_len}; "
                 f"batches of <= {max_tokens} positions")

    model = build_model(args.base, args.layers, args.layer_pick)
    if args.outside_weight != 1:
        log(out, f"loss: tokens tagged O weighted {args.outside_weight}")
    bf16 = use_bf16(args.precision)
    log(out, f"precision: {'bf16 autocast' if bf16 else 'fp32'} (asked: {args.precision})")
    teacher = None
    if args.teacher:
        from transformers import BertForTokenClassification

        teacher = BertForTokenClassification.from_pretrained(str(args.teacher)).eval()
        teacher.requires_grad_(False)
        log(out, f"distilling from {args.teacher} ({teacher.config.num_hidden_layers} layers), "
                 f"weight {args.distill_weight}, temperature {args.temperature}")
    head = [p for n, p in model.named_parameters() if n.startswith("classifier") and p.requires_grad]
    body = [p for n, p in model.named_parameters() if not n.startswith("classifier") and p.requires_grad]
    opt = torch.optim.AdamW([{"params": body, "lr": args.lr}, {"params": head, "lr": args.head_lr}], weight_decay=0.01)

    def lr_factor(step: int) -> float:
        if step < args.warmup:
            return (step + 1) / args.warmup
        return max(0.0, (args.steps - step) / max(1, args.steps - args.warmup))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_factor)
    step = 0
    ckpt = out / "ckpt.pt"
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        step = state["step"]
        torch.set_rng_state(state["rng"])
        log(out, f"resumed from step {step}")

    # Epoch e has its own shuffled batches (seed + e); with a token budget their number varies
    # by epoch, so steps map to (epoch, batch) by counting each epoch's batches.
    epoch, epoch_start = 0, 0
    batches = make_batches(chunks, args.batch, args.seed, max_tokens)
    model.train()
    t0, loss_sum, n_loss = time.time(), 0.0, 0
    while step < args.steps:
        k = step - epoch_start
        if k >= len(batches):
            epoch_start += len(batches)
            epoch += 1
            batches = make_batches(chunks, args.batch, args.seed + epoch, max_tokens)
            continue
        ids, mask, labels = collate([chunks[i] for i in batches[k]], pad_id)
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            result = model(input_ids=ids, attention_mask=mask)
            loss = tag_loss(result.logits, labels, args.outside_weight)
            if teacher is not None:
                with torch.no_grad():
                    soft = teacher(input_ids=ids, attention_mask=mask).logits
                loss = (1 - args.distill_weight) * loss + args.distill_weight * distill_loss(
                    result.logits.float(), soft.float(), mask, args.temperature)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        loss_sum += float(loss.detach())
        n_loss += 1
        if step % args.log_every == 0 or step == args.steps:
            dt = (time.time() - t0) / n_loss
            log(
                out,
                f"step {step}/{args.steps} epoch {epoch} loss {loss_sum / n_loss:.4f} {dt:.2f} s/step lr {sched.get_last_lr()[0]:.2e}",
            )
            t0, loss_sum, n_loss = time.time(), 0.0, 0
        if step % args.save_every == 0 or step == args.steps:
            tmp = out / "ckpt.pt.tmp"
            torch.save(
                {
                    "model": model.state_dict(),
                    "opt": opt.state_dict(),
                    "sched": sched.state_dict(),
                    "step": step,
                    "rng": torch.get_rng_state(),
                },
                tmp,
            )
            os.replace(tmp, ckpt)
            log(out, f"checkpoint at step {step}")
    final = out / "final"
    model.eval()
    model.save_pretrained(final)
    (final / "tokenizer.json").write_text((args.base / "tokenizer.json").read_text(encoding="utf-8"), encoding="utf-8")
    # the longest chunks trained on: the window the engine should read this model in
    window = args.long_len if args.long_docs else args.max_len
    (final / WINDOW_FILE).write_text(json.dumps({"window_length": window}) + "\n", encoding="utf-8")
    log(out, f"done: final model in {final}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="fine-tune the PII token classifier")
    ap.add_argument("--base", type=Path, default=Path("build/base"))
    ap.add_argument("--out", type=Path, default=Path("build/train"))
    ap.add_argument("--synth", type=Path, nargs="+", default=[Path("build/data/synth.jsonl")])
    ap.add_argument("--real", type=Path, default=SHARED_TRAIN, help="folder of real jsonl files (PERSON spans used)")
    ap.add_argument("--real-docs", type=int, default=8000, help="how many real documents to mix in")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--long-docs", type=int, default=0,
                    help="also train on this many long texts (2-8 synthetic and real documents joined), chunked at --long-len;"
                         " batches are then capped at --batch x --max-len positions")
    ap.add_argument("--long-len", type=int, default=512, help="chunk length of the long texts (tokens, specials included)")
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--layer-pick", choices=("first", "alternate"), default="first",
                    help="with --layers below the base's depth: keep its first layers, or spread them over its depth")
    ap.add_argument("--teacher", type=Path, default=None,
                    help="a trained tagger (transformers folder) whose soft tags the student learns beside the gold tags")
    ap.add_argument("--distill-weight", type=float, default=0.5, help="share of the loss that is the teacher's")
    ap.add_argument("--temperature", type=float, default=2.0)
    ap.add_argument("--outside-weight", type=float, default=1.0,
                    help="loss weight of the tokens tagged O (below 1 favours recall)")
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--head-lr", type=float, default=5e-4)
    ap.add_argument("--warmup", type=int, default=150)
    ap.add_argument("--precision", choices=("auto", "bf16", "fp32"), default="auto",
                    help="bf16 autocast (auto: where the CPU has AMX, or is an AMD with AVX512-BF16) or fp32")
    ap.add_argument("--threads", type=int, default=1, help="1 is much faster than 2 when other jobs share the cores")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--log-every", type=int, default=20)
    ap.add_argument("--save-every", type=int, default=200)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    train(parse_args(argv))


if __name__ == "__main__":
    main()
