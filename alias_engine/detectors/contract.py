"""What a model must be for the engine to read it, shared with training/ so that the two cannot drift.

A model folder holds `model.onnx` (inputs `input_ids`, `attention_mask`, output
`logits` of shape [batch, seq, len(BIOES_TAGS)]), `tokenizer.json` (a
`tokenizers` file with `<s>`, `</s>`, `<pad>` and `<unk>`) and `labels.json`:

    {"scheme": "BIOES", "tags": [...BIOES_TAGS...], "max_length": 512, "window_length": 128}

`window_length` is the length (special tokens included) the model was trained
on; the engine reads texts in windows of that length.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeGuard

from ..errors import ModelError
from ..labels import BIOES_TAGS

MODEL_FILES = ("model.onnx", "tokenizer.json", "labels.json")
SPECIAL_TOKENS = ("<s>", "</s>", "<pad>", "<unk>")


def labels_json(window_length: int, max_length: int = 512) -> dict:
    """The labels.json a model trained on windows of `window_length` tokens ships with."""
    return {"scheme": "BIOES", "tags": list(BIOES_TAGS), "max_length": max_length, "window_length": window_length}


def read_labels_json(path: Path) -> int:
    """Check labels.json; return the window length in positions (special tokens included)."""
    try:
        meta = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(meta, dict) or meta.get("scheme") != "BIOES":
        raise ModelError(f"{path}: expected {{\"scheme\": \"BIOES\", ...}}")
    if meta.get("tags") != list(BIOES_TAGS):
        raise ModelError(f"{path}: tags do not match this engine's {len(BIOES_TAGS)} BIOES tags "
                         "(model trained for another label set)")
    max_length = meta.get("max_length", 512)
    if not _is_int(max_length) or not 3 <= max_length <= 8192:
        raise ModelError(f"{path}: max_length must be an integer between 3 and 8192")
    # The length the model was trained on, when shorter than what its positions allow:
    # a tagger fine-tuned on 128-token chunks loses most of its recall past them.
    window_length = meta.get("window_length", max_length)
    if not _is_int(window_length) or not 3 <= window_length <= max_length:
        raise ModelError(f"{path}: window_length must be an integer between 3 and max_length")
    return window_length


def special_ids(tokenizer) -> tuple[int, int, int, int]:
    """The ids of `<s>`, `</s>`, `<pad>` and `<unk>` in `tokenizer`; ModelError if one is missing."""
    return tuple(_special_id(tokenizer, token) for token in SPECIAL_TOKENS)  # type: ignore[return-value]


def read_tokenizer(path: Path):
    """A `tokenizers.Tokenizer` from tokenizer.json, without truncation or padding."""
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(str(path))
    except Exception as exc:
        raise ModelError(f"{path} is not a valid tokenizers file: {str(exc)[:200]}") from None
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def _special_id(tokenizer, token: str) -> int:
    token_id = tokenizer.token_to_id(token)
    if token_id is None:
        raise ModelError(f"tokenizer.json has no {token} token")
    return token_id


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
