"""The label set of ../shared/LABELS.md and the BIOES tags the model predicts."""

from __future__ import annotations

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


def check_labels(labels: set[str] | frozenset[str] | list[str] | tuple[str, ...]) -> frozenset[str]:
    """Return `labels` as a frozenset, raising ValueError on a name not in LABELS."""
    unknown = sorted(set(labels) - set(LABELS))
    if unknown:
        raise ValueError(f"unknown label(s): {', '.join(unknown)}; known: {', '.join(LABELS)}")
    return frozenset(labels)
