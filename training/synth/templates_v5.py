"""Document kinds added by recipe v5, for the label whose precision falls most on hand-written text (PERSON:
with model v4, brands, apps, medicines, pets, towns, weekdays and titles of books were taken for people in
chats and notes). Everyday messages and notes where those names (all O, LABELS.md) sit beside people
(PERSON), and recipe v4's register and log kinds with their data flaws mended. Written through `fill`, so
spans are exact; no value or phrase comes from an evaluation set (the lists were checked against the dev
sets and probes, a value or a brand in one dropped; weekdays are listed whole)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

from training.synth.context import Ctx, in_lang
from training.synth.doc import Doc, fill
from training.synth.templates_v3 import _lower, _mapped, _with_keys
from training.synth.templates_v4 import registers, system_logs

TEMPLATES = json.loads((Path(__file__).parent / "templates_v5.json").read_text(encoding="utf-8"))
_in_lang = partial(in_lang, TEMPLATES)


def _everyday_resolve(ctx: Ctx):
    """ctx.resolve plus the names that are not people: a shop, an app or bank, a medicine, a pet (the same
    one for the whole document), an animal, a book or film title, a weekday. All O."""
    rng = ctx.rng
    pet = rng.choice(TEMPLATES["PETS"])
    local: dict[str, Callable[[int], object]] = {
        "SHOP": lambda n: (rng.choice(_in_lang(ctx, "SHOPS")), None),
        "APP": lambda n: (rng.choice(TEMPLATES["APPS"]), None),
        "MED": lambda n: (rng.choice(_in_lang(ctx, "MEDS")), None),
        "PET": lambda n: (pet, None),
        "ANIMAL": lambda n: (rng.choice(_in_lang(ctx, "ANIMALS")), None),
        "WORK": lambda n: (rng.choice(_in_lang(ctx, "WORKS")), None),
        "DAY": lambda n: (rng.choice(_in_lang(ctx, "DAYS")), None),
    }
    return _with_keys(ctx.resolve, local)


def everyday_chat(d: Doc, ctx: Ctx) -> None:
    """A family or friends' chat, in lower case two times in five, with weekday time stamps: first names are
    PERSON; shops, apps, medicines, pets, towns, titles and days are O."""
    rng = ctx.rng
    resolve = _everyday_resolve(ctx)
    if rng.random() < 0.4:
        resolve = _mapped(resolve, _lower)
    layout = rng.choice(TEMPLATES["CHAT_LAYOUTS"])
    minute = rng.randint(7 * 60, 21 * 60)
    for message in rng.sample(_in_lang(ctx, "EVERYDAY"), rng.randint(4, 8)):
        minute += rng.randint(0, 40)
        clock = f"{minute // 60 % 24:02d}:{minute % 60:02d}"
        who = rng.choice(("{FIRST}", "{FIRST:4}", "{PLAIN:4}"))
        day = rng.choice(_in_lang(ctx, "DAYS"))
        line = layout.replace("@DAY", day).replace("@TIME", clock).replace("@WHO", who).replace("@MSG", message)
        fill(d, line + "\n", resolve)


def everyday_notes(d: Doc, ctx: Ctx) -> None:
    """Notes, forms and records about a household or a patient: people are PERSON, the things they buy,
    take, read or keep are O."""
    rng = ctx.rng
    resolve = _everyday_resolve(ctx)
    for line in rng.sample(_in_lang(ctx, "PROSE"), rng.randint(2, 4)):
        fill(d, line + rng.choice((" ", "\n", "\n")), resolve)


def registers_mended(d: Doc, ctx: Ctx) -> None:
    """templates_v4.registers without a bare licence or permit column, with valid ISBNs."""
    registers(d, ctx, mended=True)


def system_logs_mended(d: Doc, ctx: Ctx) -> None:
    """templates_v4.system_logs with every IP labelled and codes without spaces in key=value lines."""
    system_logs(d, ctx, mended=True)


# The v5 kinds, about 10 % of a recipe-v5 mix (34 of 326 weight units); recipe v5 takes recipe v4's register and log kinds in these
# mended forms.
KINDS_V5 = (("everyday_chat", everyday_chat, 22), ("everyday_notes", everyday_notes, 12))
MENDED_V4 = {"registers": ("registers", registers_mended, 14), "system_logs": ("system_logs", system_logs_mended, 9)}
