"""Document kinds added by recipe v4, for the label that leaks most on hand-written text (IDENTIFIER, 10 % of
its values readable over our nine hand-written sets with model v3): a person's code where only the
structure says what it is. Registers whose column header names the code, team chats whose speakers are
user names, system logs, and membership, loyalty and account numbers beside passports (the codes are
IDENTIFIER, the passport NATIONAL_ID). Written through `fill`, so spans are exact."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

from stdnum import ean

from training.synth import negatives, values
from training.synth.context import Ctx, in_lang
from training.synth.doc import Doc, fill
from training.synth.templates_v3 import _indexed, _with_keys

TEMPLATES = json.loads((Path(__file__).parent / "templates_v4.json").read_text(encoding="utf-8"))
_t = partial(in_lang, TEMPLATES)
_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"


def person_code(ctx: Ctx) -> str:
    """A card, member, reader, staff or account code as organisations print them: letters and digits,
    grouped or not (the shapes of `values.identifier` plus grouped digits and a trailing key letter)."""
    rng = ctx.rng
    r = rng.random()
    digits = values._digits
    if r < 0.25:
        return rng.choice(_LETTERS) + digits(rng, rng.randint(5, 9))
    if r < 0.4:
        return f"{values.rand_str(rng, _LETTERS, rng.randint(1, 3))}-{digits(rng, rng.randint(3, 8))}"
    if r < 0.55:
        return digits(rng, rng.randint(6, 12))
    if r < 0.65:
        return " ".join(digits(rng, rng.choice((3, 4))) for _ in range(rng.randint(2, 3)))
    if r < 0.75:
        return f"{digits(rng, rng.randint(6, 8))} {rng.choice(_LETTERS)}"
    if r < 0.85:
        return f"{digits(rng, 5)} {digits(rng, 11)}"
    if r < 0.93:
        return f"{values.rand_str(rng, _LETTERS, 2)}{digits(rng, rng.randint(3, 6))}"
    return values.identifier(rng, rng.choice(("customer", "member", "employee", "account")), None)


def _usernames(ctx: Ctx):
    """USER:n -> person n's user name, the same at every mention in the document."""
    names: dict[int, str] = {}

    def user(n: int) -> tuple[str, str]:
        if n not in names:
            names[n] = values.identifier(ctx.rng, "username", ctx.person(n))
        return names[n], "IDENTIFIER"
    return user


def _code_for(ctx: Ctx, header: str) -> str:
    """A value for an identifier column: a plate under a registration header, a user name under a user
    header, a printed code otherwise."""
    low = header.lower()
    if "immat" in low or "reg" in low:
        return values.identifier(ctx.rng, "plate", None)
    if low in ("user", "identifiant"):
        return values.identifier(ctx.rng, "username", None)
    return person_code(ctx)


def _isbn13(rng, mended: bool) -> str:
    """An ISBN-13 as printed; recipe v4's had a random last digit (and not always 13 digits), `mended` ones
    are valid."""
    if not mended:
        return f"978-{rng.randint(0, 2)}-{values._digits(rng, rng.randint(2, 5))}-{values._digits(rng, 4)}-{rng.randint(0, 9)}"
    group, publisher = str(rng.randint(0, 2)), values._digits(rng, rng.randint(2, 5))
    title = values._digits(rng, 8 - len(publisher))
    return f"978-{group}-{publisher}-{title}-{ean.calc_check_digit('978' + group + publisher + title)}"


def _other_cell(ctx: Ctx, kind: str, mended: bool = False) -> str:
    """A cell that is not personal: the columns a register carries beside the person."""
    rng = ctx.rng
    if kind == "isbn":
        return _isbn13(rng, mended)
    if kind == "date":
        return negatives.public_date(rng, ctx.lang) if rng.random() < 0.3 else (
            f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/{rng.randint(2023, 2027)}")
    if kind == "amount":
        amount = f"{rng.randint(0, 250)}.{rng.randint(0, 99):02d}"
        return amount.replace(".", ",") + " €" if ctx.lang == "fr" else "£" + amount
    if kind == "plan":
        return rng.choice(TEMPLATES["PLAN_CODES"]) + rng.choice(("", f"-{rng.choice((1, 3, 6, 12))}"))
    if kind == "status":
        return negatives.status(rng, ctx.lang)
    if kind == "place":
        return rng.choice(TEMPLATES[f"PLACES_{ctx.lang.upper()}"])
    if kind == "order":
        return rng.choice((negatives.order_number, negatives.invoice_number, negatives.ticket_number,
                           negatives.booking_reference))(rng)
    return str(rng.randint(1, 400))


def _name_cell(ctx: Ctx, n: int, style: str) -> str:
    p = ctx.person(n)
    if style == "comma":
        return f"{p.last}, {p.first}"
    if style == "caps":
        return f"{p.last.upper()} {p.first}"
    return f"{p.first} {p.last}"


def registers(d: Doc, ctx: Ctx, mended: bool = False) -> None:
    """A register printed as a space-laid, pipe or CSV table: the column whose header names a person's code
    (member, card, reader, badge, plate, account...) is IDENTIFIER in every row without a keyword in the
    cell; names and contacts are labelled; ISBNs, dates, amounts, plans, places, statuses and order or
    ticket numbers are O."""
    rng = ctx.rng
    lang = ctx.lang.upper()
    if rng.random() < 0.5:
        fill(d, rng.choice(TEMPLATES[f"REGISTER_TITLES_{lang}"]) + "\n\n", ctx.resolve)
    id_headers = TEMPLATES[f"ID_HEADERS_{lang}"]
    if mended:  # a bare licence or permit column may be a driving licence (NATIONAL_ID): recipe v4's flaw
        id_headers = [h for h in id_headers if h not in TEMPLATES["AMBIGUOUS_ID_HEADERS"]]
    id_header = rng.choice(id_headers)
    others = rng.sample(TEMPLATES[f"OTHER_HEADERS_{lang}"], rng.randint(2, 4))
    contact = rng.choice((None, None, "EMAIL", "PHONE"))
    cols: list[tuple[str, str]] = [(id_header, "ID"), (rng.choice(TEMPLATES[f"NAME_HEADERS_{lang}"]), "NAME")]
    if contact:
        cols.append((contact.title() if lang == "EN" else {"EMAIL": "Courriel", "PHONE": "Téléphone"}[contact], contact))
    cols += [(h, k) for h, k in others]
    if rng.random() < 0.3:
        cols[0], cols[1] = cols[1], cols[0]
    style = rng.choice(("comma", "comma", "caps", "plain"))
    layout = rng.choice(("space", "space", "pipe", "csv"))
    rows: list[list[tuple[str, str | None]]] = []
    for i in range(1, rng.randint(3, 7)):
        code = _code_for(ctx, id_header)
        row: list[tuple[str, str | None]] = []
        for _, kind in cols:
            if kind == "ID":
                row.append((code, "IDENTIFIER"))
            elif kind == "NAME":
                row.append((_name_cell(ctx, i, style), "PERSON"))
            elif kind in ("EMAIL", "PHONE"):
                text, label = ctx.resolve(kind, i)
                row.append((text, label))
            else:
                row.append((_other_cell(ctx, kind, mended), None))
        rows.append(row)
    headers = [h for h, _ in cols]
    if layout == "space":
        widths = [max(len(h), *(len(r[j][0]) for r in rows)) + rng.randint(2, 4) for j, h in enumerate(headers)]
        d.t("".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip() + "\n")
        for row in rows:
            for j, (text, label) in enumerate(row):
                _cell(d, text, label)
                if j < len(row) - 1:
                    d.o(" " * (widths[j] - len(text)))
            d.o("\n")
    else:
        sep = " | " if layout == "pipe" else rng.choice((",", ";"))
        d.t(("| " if layout == "pipe" else "") + sep.join(headers) + (" |" if layout == "pipe" else "") + "\n")
        for row in rows:
            d.o("| " if layout == "pipe" else "")
            for j, (text, label) in enumerate(row):
                quoted = layout == "csv" and sep in text
                d.o('"' if quoted else "")
                _cell(d, text, label)
                d.o('"' if quoted else "")
                d.o(sep if j < len(row) - 1 else "")
            d.o((" |" if layout == "pipe" else "") + "\n")


def _cell(d: Doc, text: str, label: str | None) -> None:
    if label:
        d.v(text, label)
    else:
        d.o(text)


def team_chat(d: Doc, ctx: Ctx) -> None:
    """A chat export (Slack, Teams, IRC, Mattermost) whose speakers are user names: the user name is
    IDENTIFIER wherever it appears (speaker, join notice, @mention without its @), a display name is PERSON,
    ticket and build numbers are O."""
    rng = ctx.rng
    layout = rng.choice(TEMPLATES["CHAT_LAYOUTS"])
    people = (1, 2, 3)
    minute = rng.randint(7 * 60, 20 * 60)
    local = {"USER": _usernames(ctx)}
    resolve = _with_keys(ctx.resolve, local)
    if rng.random() < 0.4:
        fill(d, rng.choice(TEMPLATES["CHAT_HEADS"]) + "\n\n", resolve)
    for message in rng.sample(_t(ctx, "TEAM_CHAT"), rng.randint(4, 8)):
        minute += rng.randint(0, 6)
        clock = f"{minute // 60 % 24:02d}:{minute % 60:02d}"
        who = rng.choice(people)
        others = [p for p in people if p != who]
        message = message.replace("{USER:2}", f"{{USER:{others[0]}}}").replace("{FULL:2}", f"{{FULL:{others[1]}}}")
        if rng.random() < 0.12:
            line = rng.choice(_t(ctx, "CHAT_NOTICES")).replace("@TIME", clock).replace("{USER}", f"{{USER:{who}}}")
        else:
            line = layout.replace("@TIME", clock).replace("@WHO", f"{{USER:{who}}}").replace("@MSG", message)
        fill(d, line + "\n", resolve)


def system_logs(d: Doc, ctx: Ctx, mended: bool = False) -> None:
    """auth.log, syslog and key=value application logs: a person's login and customer, member or account
    numbers are IDENTIFIER; attackers' guesses (root, admin), service accounts, pids, request ids and
    hashes are O; client addresses are IP_ADDRESS."""
    rng = ctx.rng
    host = rng.choice(TEMPLATES["HOSTS"])
    local = {
        "USER": _usernames(ctx),
        # mended: a key=value log writes a code without spaces, and the firewall's destination is labelled
        "CODE": lambda n: (person_code(ctx).replace(" ", "") if mended else person_code(ctx), "IDENTIFIER"),
        "REQ": lambda n: (values.rand_str(rng, values.HEX, rng.choice((8, 12, 16))), None),
        "PID": lambda n: (str(rng.randint(300, 99999)), None),
        "HOST": lambda n: (host, None),
    }
    resolve = _with_keys(ctx.resolve, local)
    month = rng.choice(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"))
    day, second = rng.randint(1, 28), rng.randint(0, 80000)
    for line in rng.choices(TEMPLATES["SYSTEM_LOG_LINES"], k=rng.randint(4, 10)):
        second += rng.randint(1, 900)
        stamp = f"{month} {day:2d} {second // 3600 % 24:02d}:{second // 60 % 60:02d}:{second % 60:02d}"
        line = line.replace("{USER}", f"{{USER:{rng.randint(1, 3)}}}").replace("{IP}", f"{{IP:{rng.randint(1, 3)}}}")
        if mended:
            line = line.replace("DST=10.0.0.4", "DST={IP:4}")
        fill(d, (f"{stamp} {{HOST}} " if not line.startswith(("{", "time=", "ts=")) else "") + line + "\n", resolve)


def memberships(d: Doc, ctx: Ctx) -> None:
    """Lists and messages that give a person's loyalty, frequent-flyer, sports-licence, library or student
    card, bank account (not an IBAN) or membership number: IDENTIFIER, next to passports and ID cards
    (NATIONAL_ID) and booking or order references (O)."""
    rng = ctx.rng
    local: dict[str, Callable[[int], object]] = {"CODE": lambda n: (person_code(ctx), "IDENTIFIER")}
    resolve = _with_keys(ctx.resolve, local)
    if rng.random() < 0.5:
        fill(d, rng.choice(_t(ctx, "MEMBERSHIP_INTROS")) + "\n", resolve)
    bullet = rng.choice(("- ", "• ", "", "* "))
    for i, line in enumerate(rng.sample(_t(ctx, "MEMBERSHIP_LINES"), rng.randint(2, 5)), start=1):
        fill(d, bullet + _indexed(line, i) + "\n", resolve)
    if rng.random() < 0.4:
        fill(d, "\n" + rng.choice(_t(ctx, "MEMBERSHIP_CLOSINGS")), resolve)


# About 16 % of a recipe-v4 mix (46 of 292 weight units with the v2 and v3 kinds).
KINDS_V4 = (
    ("registers", registers, 14), ("team_chat", team_chat, 11), ("system_logs", system_logs, 9),
    ("memberships", memberships, 12),
)
