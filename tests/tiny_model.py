"""A tiny stand-in for the shipped model: same files, inputs and outputs, crafted weights.

The tokenizer is a Unigram over a few words and every single character we use
(line breaks and runs of spaces normalised to one space, Metaspace
pre-tokenizer, <s> … </s> post-processor, <pad> = 1), like the real XLM-R one. The ONNX graph looks each token id up in a table of 49 logits
(Gather), multiplies by an identity matrix (MatMul) and zeroes padded
positions: a token's tag depends on the token alone, so tests know what the
model says. Every word not listed in TAGGED is background (O, p ≈ 0.98).
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import numpy as np

from alias_engine.labels import BIOES_TAGS

SPECIALS = ["<s>", "<pad>", "</s>", "<unk>"]
TAGGED = {
    "▁Jean": "B-PERSON",
    "▁Dupont": "E-PERSON",
    "▁Zoé": "S-PERSON",
    "▁Lef": "S-PERSON",  # "Lefèvre" → "▁Lef" "èvre": only the first piece is tagged
    "▁0612345678": "S-PHONE",
    "▁hunter2!": "S-SECRET",
}
WEAK = {"▁Maybe": "S-PERSON"}  # argmax S-PERSON with probability ≈ 0.55
FILLER = ["▁lorem", "▁ipsum", "▁dolor", "▁sit", "▁amet", "▁le", "▁the", "▁of", "▁and", "▁de", "▁à", "èvre"]
CHARS = string.ascii_letters + string.digits + string.punctuation + "éèêàçùôÉ€😀"


def vocabulary() -> list[tuple[str, float]]:
    pieces = [(t, 0.0) for t in SPECIALS] + [("▁", -4.0)]
    pieces += [(w, -1.0) for w in [*TAGGED, *WEAK, *FILLER]]
    seen = {p for p, _ in pieces}
    pieces += [(c, -8.0) for c in CHARS if c not in seen]
    return pieces


def logit_table(pieces: list[tuple[str, float]]) -> np.ndarray:
    table = np.zeros((len(pieces), len(BIOES_TAGS)), dtype=np.float32)
    table[:, 0] = 8.0
    for row, (piece, _) in enumerate(pieces):
        if piece in TAGGED:
            table[row, 0] = 0.0
            table[row, BIOES_TAGS.index(TAGGED[piece])] = 8.0
        elif piece in WEAK:
            table[row, 0] = 4.3
            table[row, BIOES_TAGS.index(WEAK[piece])] = 5.0
    return table


def build_tokenizer(pieces: list[tuple[str, float]]):
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers, processors

    tokenizer = Tokenizer(models.Unigram(pieces, unk_id=3, byte_fallback=False))
    # Like XLM-R's: line breaks read as spaces, runs of spaces as one.
    tokenizer.normalizer = normalizers.Sequence([normalizers.Replace(Regex("[\r\n\t]"), " "),
                                                 normalizers.Replace(Regex(" {2,}"), " ")])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 0), ("</s>", 2)])
    tokenizer.add_special_tokens(SPECIALS)
    return tokenizer


def build_onnx(table: np.ndarray):
    from onnx import TensorProto, helper, numpy_helper

    n_tags = table.shape[1]
    nodes = [
        helper.make_node("Gather", ["table", "input_ids"], ["emb"], axis=0),
        helper.make_node("MatMul", ["emb", "eye"], ["raw"]),
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["maskf", "axis"], ["mask3"]),
        helper.make_node("Mul", ["raw", "mask3"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes, "tiny_tagger",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", "seq", n_tags])],
        initializer=[numpy_helper.from_array(table, "table"),
                     numpy_helper.from_array(np.eye(n_tags, dtype=np.float32), "eye"),
                     numpy_helper.from_array(np.array([-1], dtype=np.int64), "axis")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def build_tiny_model(directory: Path, max_length: int = 512, window_length: int | None = None) -> Path:
    """Write model.onnx, tokenizer.json and labels.json into `directory`; return it."""
    import onnx

    directory.mkdir(parents=True, exist_ok=True)
    pieces = vocabulary()
    build_tokenizer(pieces).save(str(directory / "tokenizer.json"))
    onnx.save(build_onnx(logit_table(pieces)), str(directory / "model.onnx"))
    labels = {"scheme": "BIOES", "tags": list(BIOES_TAGS), "max_length": max_length}
    if window_length is not None:
        labels["window_length"] = window_length
    (directory / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return directory
