"""Document kinds added by recipe v3, one per failure class measured on hand-written text: headings and
titles, brand names, lab-result tables, lower-case chats, statements, data exports, ISO 20022 payment XML,
and code with real secrets next to example placeholders. Written through `fill`, so spans are exact."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

from training.synth import negatives
from training.synth.context import Ctx, in_lang
from training.synth.doc import Doc, fill
from training.synth.templates import _org_resolver

# The text of these kinds is data; this module holds only how documents are put together from it.
TEMPLATES = json.loads((Path(__file__).parent / "templates_v3.json").read_text(encoding="utf-8"))
_t = partial(in_lang, TEMPLATES)
LAB_TESTS = {"fr": negatives.WORDS["LAB_TESTS_FR"], "en": negatives.WORDS["LAB_TESTS_EN"]}
LAB_QUALITATIVE = {"fr": negatives.WORDS["LAB_QUALITATIVE_FR"], "en": negatives.WORDS["LAB_QUALITATIVE_EN"]}
LAB_SECTIONS = {"fr": negatives.WORDS["LAB_SECTIONS_FR"], "en": negatives.WORDS["LAB_SECTIONS_EN"]}

Resolve = Callable[[str, int], object]


def _indexed(template: str, i: int) -> str:
    """Every placeholder of `template` about person `i` ({FULL} -> {FULL:3})."""
    return template.replace("}", f":{i}}}")


def _with_keys(resolve: Resolve, local: dict[str, Callable[[int], object]]) -> Resolve:
    """`resolve` plus keys this kind draws itself: local[key](n) returns the value as `resolve` would."""
    def resolved(key: str, n: int):
        return local[key](n) if key in local else resolve(key, n)
    return resolved


def _mapped(resolve: Resolve, fn: Callable[[str, str | None], str]) -> Resolve:
    """`resolve` with fn(text, label) applied to every piece of every value."""
    def resolved(key: str, n: int):
        value = resolve(key, n)
        pieces = [(fn(text, label), label) for text, label in (value if isinstance(value, list) else [value])]
        return pieces if isinstance(value, list) else pieces[0]
    return resolved


def _flat(text: str, _label: str | None = None) -> str:
    return text.replace("\n", ", ")


def _lower(text: str, label: str | None) -> str:
    """Names, addresses, e-mails and context words as typed in a chat; codes and secrets keep their case."""
    if label not in (None, "PERSON", "ADDRESS", "EMAIL"):
        return text
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


# --- 1. headings and section titles next to names -------------------------------------------------


def _heading_line(ctx: Ctx) -> str:
    before, after = ctx.rng.choice(TEMPLATES["HEADING_STYLES"])
    return f"{before}{{HEADING}}{after}"


def headings(d: Doc, ctx: Ctx) -> None:
    """A report, minutes or contract in sections: titles in capitals or title case are O, the names right
    under or beside them are PERSON."""
    rng = ctx.rng
    resolve = _org_resolver(ctx, "", "")
    fill(d, _heading_line(ctx) + "\n" + rng.choice(_t(ctx, "HEADING_BYLINES")) + "\n\n", resolve)
    for _ in range(rng.randint(2, 4)):
        if rng.random() < 0.25:
            fill(d, rng.choice(_t(ctx, "HEADING_INLINE")) + "\n", resolve)
        else:
            fill(d, _heading_line(ctx) + rng.choice(("\n", "\n", "\n\n")), resolve)
        for line in rng.sample(_t(ctx, "HEADING_LINES"), rng.randint(1, 3)):
            fill(d, rng.choice(("", "", "- ", "• ")) + line + "\n", resolve)
        d.t("\n")


# --- 2. brand, shop, car, software and delivery-service names next to names ------------------------


def brands(d: Doc, ctx: Ctx) -> None:
    """Notes and expense lines where shops, cars, software and couriers (O) sit beside people (PERSON)."""
    rng = ctx.rng
    if rng.random() < 0.3:
        head = rng.choice(_t(ctx, "BRAND_EXPENSE_HEADS"))
        sep = next(s for s in (" | ", ";", "\t") if s in head)
        d.t(head + "\n")
        for i in range(1, rng.randint(3, 7)):
            row = rng.choice(_t(ctx, "BRAND_EXPENSE_ROWS")).replace(" @ ", sep)
            fill(d, _indexed(row, i) + "\n", ctx.resolve)
        return
    for line in rng.sample(_t(ctx, "BRAND_LINES"), rng.randint(2, 5)):
        fill(d, line + (rng.choice((" ", "\n", "\n")) if line.endswith(".") else "\n"), ctx.resolve)


# --- 3. lab tests and measured fields in results tables -------------------------------------------


def _number(value: float, decimals: int, fr: bool) -> str:
    text = f"{value:.{decimals}f}"
    return text.replace(".", ",") if fr else text


def _lab_row(ctx: Ctx, test: list) -> tuple[str, str, str, str]:
    """(test name, result with its flag, unit, reference range) for one table row."""
    rng, fr = ctx.rng, ctx.lang == "fr"
    if len(test) == 2:
        name, results = test
        return name, rng.choice(results), "", ""
    name, unit, low, high, decimals = test
    spread = (high - low) * 0.3
    value = max(0.0, rng.uniform(low - spread, high + spread))
    flag = ""
    if value < low or value > high:
        flag = rng.choice(("*", "L" if value < low else "H", "↓" if value < low else "↑"))
    ref = f"< {_number(high, decimals, fr)}" if low == 0 else f"{_number(low, decimals, fr)} - {_number(high, decimals, fr)}"
    return name, f"{_number(value, decimals, fr)} {flag}".strip(), unit, ref


def _lab_rows(ctx: Ctx, k: int) -> list[tuple[str, str, str, str]]:
    """`k` rows of distinct tests, a few of them with a qualitative result."""
    rng = ctx.rng
    qualitative = min(sum(rng.random() < 0.12 for _ in range(k)), len(LAB_QUALITATIVE[ctx.lang]))
    tests = rng.sample(LAB_TESTS[ctx.lang], k - qualitative) + rng.sample(LAB_QUALITATIVE[ctx.lang], qualitative)
    rng.shuffle(tests)
    return [_lab_row(ctx, test) for test in tests]


def _table_line(cells: list[str], layout: str) -> str:
    if layout == "aligned":
        widths = (36, 12, 16, 0)
        return "".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    if layout == "markdown":
        return "| " + " | ".join(cells) + " |"
    return {"pipe": " | ", "tab": "\t", "csv": ";"}[layout].join(cells)


def lab_results(d: Doc, ctx: Ctx) -> None:
    """A lab report: the laboratory (O), the patient and doctors (labelled), then a results table whose
    test names, units, ranges and section titles are all O."""
    rng, fr = ctx.rng, ctx.lang == "fr"
    fill(d, rng.choice(_t(ctx, "LAB_HEADS")) + "\n\n", _org_resolver(ctx, "", ""))
    fill(d, rng.choice(_t(ctx, "LAB_PATIENTS")) + "\n", ctx.resolve)
    for line in rng.sample(_t(ctx, "LAB_CONTEXT"), rng.randint(1, 3)):
        fill(d, line + "\n", ctx.resolve)
    d.t("\n" + rng.choice(_t(ctx, "LAB_TITLES")) + "\n")
    layout = rng.choice(("aligned", "aligned", "pipe", "tab", "markdown", "csv"))
    d.t(_table_line(list(rng.choice(_t(ctx, "LAB_COLUMNS"))), layout) + "\n")
    if layout == "markdown":
        d.t("|---|---|---|---|\n")
    sizes = [rng.randint(2, 5) for _ in range(rng.randint(1, 3))]
    rows = _lab_rows(ctx, sum(sizes))
    start = 0
    for section, size in zip(rng.sample(LAB_SECTIONS[ctx.lang], len(sizes)), sizes):
        d.t(section + "\n")
        for row in rows[start:start + size]:
            d.t(_table_line(list(row), layout) + "\n")
        start += size
    d.t("\n")
    if rng.random() < 0.5:
        name, result, unit, _ = rng.choice(rows)
        local = {"LAB": lambda n: (name, None), "VALUE": lambda n: (f"{result} {unit}".strip(), None)}
        fill(d, rng.choice(_t(ctx, "LAB_NOTES")) + "\n", _with_keys(ctx.resolve, local))
    for line in rng.sample(_t(ctx, "LAB_FOOTERS"), rng.randint(1, 2)):
        fill(d, line + "\n", ctx.resolve)
    if fr and rng.random() < 0.3:
        d.t("Ce compte rendu ne peut être reproduit que dans son intégralité.")


# --- 4. lower-case chats ----------------------------------------------------------------------------


def lower_chat(d: Doc, ctx: Ctx) -> None:
    """A chat typed in lower case: first names and surnames are still PERSON."""
    rng = ctx.rng
    resolve = _mapped(ctx.resolve, _lower)
    layout = rng.choice(TEMPLATES["LOWER_CHAT_LAYOUTS"])
    speakers = rng.choice((("{FIRST}", "{FIRST:2}"), ("{PLAIN}", "{PLAIN:2}"), ("{FIRST}", "moi" if ctx.lang == "fr" else "me")))
    day = f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(2021, 2026)}"
    minute = rng.randint(7 * 60, 22 * 60)
    for message in rng.sample(_t(ctx, "LOWER_CHAT"), rng.randint(3, 8)):
        minute += rng.randint(0, 9)
        clock = f"{minute // 60 % 24:02d}:{minute % 60:02d}"
        line = layout.replace("@WHO", rng.choice(speakers)).replace("@TIME", clock).replace("@DAY", day)
        fill(d, line.replace("@MSG", message) + "\n", resolve)


# --- 5. statements and filled forms: the person's block is personal, the issuer's lines are not ---


def statement(d: Doc, ctx: Ctx) -> None:
    """A bank, insurance, tax or utility statement, or a filled claim form: the holder's name, address
    block and phone are labelled; the issuer's name, address, customer-service and claims lines are O."""
    rng = ctx.rng
    resolve = _org_resolver(ctx, "", "")
    parts = rng.choice(list(_t(ctx, "STATEMENTS").values()))
    phones = rng.sample(parts["org_phones"], rng.randint(1, 2))
    issuer = rng.choice(parts["orgs"]) + "\n" + rng.choice(("\n", " – " if ctx.lang == "fr" else " | ")).join(phones) + "\n\n"
    holder = rng.choice(parts["holders"]) + "\n\n"
    for block in (holder, issuer) if rng.random() < 0.3 else (issuer, holder):
        fill(d, block, resolve)
    fill(d, rng.choice(parts["titles"]) + "\n", resolve)
    for line in rng.sample(parts["lines"], min(len(parts["lines"]), rng.randint(3, 6))):
        fill(d, line + "\n", resolve)
    if rng.random() < 0.6:
        fill(d, "\n" + rng.choice(parts["footers"]), resolve)


# --- 6. data exports: only the personal columns are labelled ------------------------------------------


def _header(name: str, style: str) -> str:
    words = name.split("_")
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    if style == "title":
        return " ".join(w.capitalize() for w in words)
    return name.upper() if style == "upper" else name


def _xml_escape(text: str, _label: str | None = None) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _cell_resolver(ctx: Ctx, fmt: str, sep: str = ",") -> Resolve:
    """Values as a CSV/TSV cell, a JSON value or XML text: one line, quoted or escaped as the format needs."""
    base = _mapped(ctx.resolve, _flat)
    if fmt == "xml":
        return _mapped(base, _xml_escape)

    def resolved(key: str, n: int):
        value = base(key, n)
        pieces = value if isinstance(value, list) else [value]
        pieces = [(text.replace('"', "'"), label) for text, label in pieces]
        text = "".join(t for t, _ in pieces)
        quote = not re.fullmatch(r"[1-9]\d*(\.\d+)?", text) if fmt == "json" else sep in text
        return [('"', None), *pieces, ('"', None)] if quote else pieces
    return resolved


def _export_columns(ctx: Ctx) -> list[tuple[str, str]]:
    """(header, placeholder) pairs: a name, one to three other personal columns, two to four others."""
    rng = ctx.rng
    cols = list(rng.choice(TEMPLATES["EXPORT_NAME_SETS"])) + rng.sample(TEMPLATES["EXPORT_PERSONAL"], rng.randint(1, 3))
    cols += rng.sample(TEMPLATES["EXPORT_OTHER"], rng.randint(2, 4))
    if rng.random() < 0.5:
        rng.shuffle(cols)
    style = rng.choice(("snake", "snake", "camel", "title", "upper"))
    english = ctx.lang == "en" or rng.random() < 0.3
    return [(_header(en if english else fr, style), ph) for en, fr, ph in cols]


def data_export(d: Doc, ctx: Ctx) -> None:
    """A CSV, TSV, JSON or XML export: names, e-mails, phones, IBANs and ids are labelled; city,
    department, amount, salary, ticket, invoice and status columns are O; keys and tags never are."""
    rng = ctx.rng
    if rng.random() < 0.4:
        fill(d, rng.choice(_t(ctx, "EXPORT_INTROS")) + "\n\n", ctx.resolve)
    cols = _export_columns(ctx)
    n_rows = rng.randint(2, 6)
    fmt = rng.choice(("csv", "csv", "tsv", "json", "jsonl", "xml", "xml"))
    if fmt in ("csv", "tsv"):
        sep = "\t" if fmt == "tsv" else rng.choice((",", ";", "|"))
        d.t(sep.join(h for h, _ in cols) + "\n")
        for i in range(1, n_rows + 1):
            fill(d, sep.join(_indexed(ph, i) for _, ph in cols) + "\n", _cell_resolver(ctx, "csv", sep))
    elif fmt in ("json", "jsonl"):
        records = [", ".join(f'"{h}": {_indexed(ph, i)}' for h, ph in cols) for i in range(1, n_rows + 1)]
        body = "\n".join("{" + r + "}" for r in records) if fmt == "jsonl" else "[\n  {" + "},\n  {".join(records) + "}\n]"
        fill(d, body + "\n", _cell_resolver(ctx, "json"))
    else:
        _xml_export(d, ctx, cols, n_rows)


def _xml_export(d: Doc, ctx: Ctx, cols: list[tuple[str, str]], n_rows: int) -> None:
    rng = ctx.rng
    root, item = rng.choice(TEMPLATES["EXPORT_ROOTS"])
    tags = [(re.sub(r"\W", "", _header(h.lower().replace(" ", "_"), "camel")) or "field", ph) for h, ph in cols]
    as_attributes = rng.random() < 0.4
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f"<{root}>"]
    for i in range(1, n_rows + 1):
        attrs, children = (tags[:2], tags[2:]) if as_attributes else ([], tags)
        lines.append(f"  <{item}" + "".join(f' {t}="{_indexed(ph, i)}"' for t, ph in attrs) + ">")
        lines += [f"    <{t}>{_indexed(ph, i)}</{t}>" for t, ph in children]
        lines.append(f"  </{item}>")
    lines.append(f"</{root}>")
    fill(d, "\n".join(lines) + "\n", _cell_resolver(ctx, "xml"))


# --- 6b. ISO 20022-like payment files ---------------------------------------------------------------


def _address_lines(ctx: Ctx, n: int) -> list[tuple[str, str | None]]:
    """A postal address as one or two <AdrLine> texts, each an ADDRESS span (tags stay outside)."""
    text = _xml_escape(_flat(ctx.resolve("ADDRESS", n)[0]))
    if ", " in text and ctx.rng.random() < 0.4:
        street, town = text.rsplit(", ", 1)
        return [(street, "ADDRESS"), ("</AdrLine><AdrLine>", None), (town, "ADDRESS")]
    return [(text, "ADDRESS")]


def payment_xml(d: Doc, ctx: Ctx) -> None:
    """A credit-transfer, direct-debit or statement file: the people paid or debited (<Nm>, <AdrLine>, their
    IBAN) are labelled, message ids, BICs, amounts, dates and creditor ids are O, and no tag is in a span."""
    rng = ctx.rng
    parts = rng.choice(list(TEMPLATES["PAYMENT_XML"].values()))
    n_tx = rng.randint(1, 5)
    name = rng.choice(TEMPLATES["PAYMENT_XML_NAMES"])
    local = {
        "CLOCK": lambda n: (f"{rng.randint(6, 20):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}", None),
        "NBTX": lambda n: (str(n_tx), None),
        "ADRLINES": lambda n: _address_lines(ctx, n),
    }
    resolve = _with_keys(_mapped(_org_resolver(ctx, "", ""), _xml_escape), local)
    fill(d, parts["head"].replace("{XNAME:9}", _indexed(name, 9)), resolve)
    for i in range(1, n_tx + 1):
        tx = parts["shop_tx"] if "shop_tx" in parts and rng.random() < 0.3 else parts["tx"]
        tx = tx.replace("{REMIT}", rng.choice(_t(ctx, "PAYMENT_REMITTANCES"))).replace("{XNAME}", name)
        fill(d, _indexed(tx, i), resolve)
    fill(d, parts["tail"], resolve)


# --- 7. code and configuration: real secrets are SECRET, example placeholders are not -------------------


def code_secrets(d: Doc, ctx: Ctx) -> None:
    """Snippets from code, READMEs and config files mixing real credentials with documentation
    placeholders (`YOUR_API_KEY`, `pk_test_YOUR_KEY`, `<token>`, `changeme`, `xxxx`)."""
    rng = ctx.rng
    if rng.random() < 0.5:
        fill(d, rng.choice(_t(ctx, "CODE_PROSE")) + "\n\n", ctx.resolve)
    for snippet in rng.sample(TEMPLATES["CODE_SNIPPETS"], rng.randint(1, 3)):
        if rng.random() < 0.4:
            snippet = "```\n" + snippet + "\n```"
        elif rng.random() < 0.3:
            snippet = rng.choice(TEMPLATES["CODE_FILES"]) + "\n" + snippet
        fill(d, snippet + "\n\n", ctx.resolve)
    if rng.random() < 0.3:
        fill(d, rng.choice(_t(ctx, "CODE_PROSE")), ctx.resolve)


# The new kinds are about 30 % of a recipe-v3 mix (74 of 246 weight units with the v2 kinds).
KINDS_V3 = (
    ("headings", headings, 10), ("brands", brands, 10), ("lab_results", lab_results, 9), ("lower_chat", lower_chat, 9),
    ("statement", statement, 12), ("data_export", data_export, 9), ("payment_xml", payment_xml, 6),
    ("code_secrets", code_secrets, 9),
)
