"""The labels: the twelve of ../shared/LABELS.md the model knows, and any a rules file declares.

Every label is one entry (`LabelSpec`) that says, as data, what the
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

Each engine has its own `LabelSet` (`engine.rules.labels`): the twelve, and what its rules
files declare; `BUILTIN` is the twelve alone.

>>> BUILTIN.spec("IBAN").compare
'compact'
>>> mine = BUILTIN.with_declared([LabelSpec("DOCTEST_CODE", description="a doctest's label")])
>>> "DOCTEST_CODE" in mine, "DOCTEST_CODE" in BUILTIN
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
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


BUILTIN_SPECS: tuple[LabelSpec, ...] = (
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
)

_OPAQUE_CODE = LabelSpec("UNKNOWN")


class LabelSet:
    """The labels one engine knows: the twelve, then those its rules files declared, in order.

    Immutable: `with_declared` returns a new set, so an engine's extra rules never change
    what another engine (or `unmask` without rules) knows.
    """

    def __init__(self, declared: Iterable[LabelSpec] = ()) -> None:
        specs = {spec.name: spec for spec in BUILTIN_SPECS}
        for spec in declared:
            known = specs.get(spec.name)
            if known is not None and known != spec:
                what = "a built-in label" if spec.name in LABELS else "declared differently elsewhere"
                raise ValueError(f"label {spec.name} is {what}")
            specs[spec.name] = spec
        self._specs = specs
        self.names: tuple[str, ...] = tuple(specs)

    def with_declared(self, specs: Iterable[LabelSpec]) -> LabelSet:
        """This set and `specs` (a rules file's `labels`); the same declaration twice is fine, a
        different one is a ValueError (two files may not give one label two meanings), and the
        twelve cannot change."""
        return LabelSet([*(self._specs[name] for name in self.names[len(LABELS):]), *specs])

    def spec(self, label: str) -> LabelSpec:
        """The entry of `label`; an unknown label gets the defaults (an opaque code)."""
        return self._specs.get(label, _OPAQUE_CODE)

    def check(self, labels: Iterable[str]) -> frozenset[str]:
        """`labels` as a frozenset, raising ValueError on a name not in this set."""
        labels = frozenset(labels)
        unknown = sorted(labels - set(self._specs))
        if unknown:
            raise ValueError(f"unknown label(s): {', '.join(unknown)}; known: {', '.join(self.names)}")
        return labels

    def __contains__(self, label: object) -> bool:
        return label in self._specs

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LabelSet) and self._specs == other._specs

    def __hash__(self) -> int:
        return hash(tuple(self._specs.values()))

    def __repr__(self) -> str:
        return f"LabelSet({', '.join(self.names)})"


BUILTIN = LabelSet()  # the twelve: what `unmask` and anything without an engine knows
