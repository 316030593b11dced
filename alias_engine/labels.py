"""The labels: the twelve of ../shared/LABELS.md the model knows, and any a rules file declares.

Every label is one registry entry (`LabelSpec`) that says, as data, what the
rest of the engine does with its values:

- `compare`: when two occurrences are the same value (masks.value_key):
  "compact" (separators and case ignored: numbers), "caseless" (case and
  spacing ignored), "exact" (spacing ignored);
- `restore`: how restore finds a surrogate an LLM may have edited: "number"
  (separators ignored), "case_style" (any case, and the original comes back in
  the case it was written in: names, addresses), "caseless" (any case, the
  original as it was), "case_sensitive" (only as written: codes, secrets);
- `surrogate`: the surrogate operator of pseudonymise/surrogates.py
  ("identifier" keeps the shape of a code with other characters);
- `priority`: between two labels on the same characters from detectors of the
  same rank and the same score, the higher wins (merge.py; 0 for the twelve).

The model's tags (BIOES_TAGS) stay those of the twelve: a model knows only the
labels it was trained on, and the labels a rules file adds are found by rules.

>>> label_spec("IBAN").compare
'compact'
>>> register_label(LabelSpec("DOCTEST_CODE", description="a doctest's label")).name in known_labels()
True
"""

from __future__ import annotations

from dataclasses import dataclass

LABELS: tuple[str, ...] = (
    "PERSON",
    "ADDRESS",
    "EMAIL",
    "PHONE",
    "IBAN",
    "CREDIT_CARD",
    "NATIONAL_ID",
    "BIRTH_DATE",
    "IDENTIFIER",
    "IP_ADDRESS",
    "URL",
    "SECRET",
)

BIOES_TAGS: tuple[str, ...] = ("O",) + tuple(
    f"{prefix}-{label}" for label in LABELS for prefix in ("B", "I", "E", "S")
)

COMPARE = ("compact", "caseless", "exact")
RESTORE = ("number", "case_style", "caseless", "case_sensitive")
SURROGATES = ("person", "address", "email", "phone", "iban", "card", "national_id", "birth_date", "identifier",
              "ip", "url", "secret")


@dataclass(frozen=True)
class LabelSpec:
    """One label and how its values are compared, restored, faked and ranked (see the module)."""

    name: str
    compare: str = "exact"
    restore: str = "case_sensitive"
    surrogate: str = "identifier"
    priority: int = 0
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isupper() or not self.name.replace("_", "").isalnum() \
                or not self.name[0].isalpha():
            raise ValueError(f"a label is a name in capitals, letters, digits and _, not {self.name!r}")
        for key, allowed in (("compare", COMPARE), ("restore", RESTORE), ("surrogate", SURROGATES)):
            if getattr(self, key) not in allowed:
                raise ValueError(f"label {self.name}: {key} must be one of {', '.join(allowed)}")
        if not isinstance(self.priority, int) or isinstance(self.priority, bool):
            raise ValueError(f"label {self.name}: priority must be an integer")


_REGISTRY: dict[str, LabelSpec] = {spec.name: spec for spec in (
    LabelSpec("PERSON", "caseless", "case_style", "person"),
    LabelSpec("ADDRESS", "caseless", "case_style", "address"),
    LabelSpec("EMAIL", "caseless", "caseless", "email"),
    LabelSpec("PHONE", "compact", "number", "phone"),
    LabelSpec("IBAN", "compact", "number", "iban"),
    LabelSpec("CREDIT_CARD", "compact", "number", "card"),
    LabelSpec("NATIONAL_ID", "compact", "number", "national_id"),
    LabelSpec("BIRTH_DATE", "exact", "caseless", "birth_date"),
    LabelSpec("IDENTIFIER", "exact", "case_sensitive", "identifier"),
    LabelSpec("IP_ADDRESS", "exact", "caseless", "ip"),
    LabelSpec("URL", "caseless", "case_sensitive", "url"),
    LabelSpec("SECRET", "exact", "case_sensitive", "secret"),
)}


def register_label(spec: LabelSpec) -> LabelSpec:
    """Add a label (a rules file's `labels`); the same declaration twice is fine, a different one is
    a ValueError (two files may not give one label two meanings), and the twelve cannot change."""
    known = _REGISTRY.get(spec.name)
    if known is not None and known != spec:
        what = "a built-in label" if spec.name in LABELS else "declared differently elsewhere"
        raise ValueError(f"label {spec.name} is {what}")
    _REGISTRY[spec.name] = spec
    return spec


def label_spec(label: str) -> LabelSpec:
    """The registry entry of `label`; an unknown label gets the defaults (an opaque code)."""
    return _REGISTRY.get(label, _OPAQUE_CODE)


_OPAQUE_CODE = LabelSpec("UNKNOWN")


def known_labels() -> tuple[str, ...]:
    """The twelve labels, then those rules files declared, in order of declaration."""
    return tuple(_REGISTRY)


def check_labels(labels: set[str] | frozenset[str] | list[str] | tuple[str, ...]) -> frozenset[str]:
    """Return `labels` as a frozenset, raising ValueError on a name not in the registry."""
    unknown = sorted(set(labels) - set(_REGISTRY))
    if unknown:
        raise ValueError(f"unknown label(s): {', '.join(unknown)}; known: {', '.join(_REGISTRY)}")
    return frozenset(labels)
