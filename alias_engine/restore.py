"""Put original values back in place of placeholders, surviving what LLMs do to them.

One compiled pattern finds, in a single left-to-right pass:
- the placeholders of the mapping exactly as written;
- the same placeholders edited by an LLM: other case, other brackets, spaces or
  dashes instead of underscores (`[person 1]`, `{PERSON_1}`, `<Person-1>`), the
  brackets dropped (`PERSON_1`, upper case only), a possessive inside
  (`[PERSON_1's]`), and an elided French article in front (`d'[PERSON_1]`);
- surrogate forms (realistic fake values) and their parts, case-insensitively,
  numbers with any spacing.
A placeholder of a known label that the mapping does not hold (an invented
`[PERSON_9]`) is left as written and reported. Inside a JSON string a value
that would break the JSON (a quote, a backslash, a line break) is escaped.

The scan is linear in the text: every alternative of the pattern has a bounded
length, and the same pattern drives the streaming restorer
(`alias_engine.pseudonymise.stream`), which gives exactly the batch result.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import regex

from .errors import MappingError
from .labels import LABELS, known_labels, label_spec

# How a label's surrogates are found again is its registry entry's `restore` (labels.py):
# "number": compared as digit/letter strings, separators ignored; "case_sensitive": only as
# written (spacing aside), their case is part of the value; "case_style": the original comes
# back in the case the surrogate was written in (names, addresses).
NUMBER_LABELS = frozenset(label for label in LABELS if label_spec(label).restore == "number")
CASE_SENSITIVE_LABELS = frozenset(label for label in LABELS if label_spec(label).restore == "case_sensitive")
_ELISION = r"(?P<el>(?<!\w)(?:[dD]|[qQ][uU])['’])?"
_PLACEHOLDER_PARTS = regex.compile(
    r"[\[{<(]? {0,2}(?P<label>[A-Za-z]+(?:[ _\-][A-Za-z]+)*)[ _\-]{0,2}(?P<n>\d{1,6}) {0,2}[\]}>)]?"
)
_LABEL_SEP = regex.compile(r"[ _\-]")
_NORM_DROP = regex.compile(r"[\s.\-/()]+|\\[nrt]")
_VOWELS = frozenset("aeiouyhàâäéèêëîïôöùûüœæ")
_JSON_TOKENS = regex.compile(r'[{}\[\]"\\\n]')


def check_mapping(mapping: object) -> dict[str, str | list[str]]:
    """Validate a mapping read from a user or a file; raise MappingError if malformed."""
    if not isinstance(mapping, Mapping):
        raise MappingError("mapping must be a JSON object of placeholder -> original value")
    for name, value in mapping.items():
        if not isinstance(name, str) or not name:
            raise MappingError("mapping keys must be non-empty strings")
        if isinstance(value, list):
            if not value or not all(isinstance(v, str) for v in value):
                raise MappingError(f"mapping entry {name!r}: a list of forms must hold strings")
        elif not isinstance(value, str):
            raise MappingError(f"mapping entry {name!r}: the value must be a string or a list of strings")
    return dict(mapping)


@dataclass(frozen=True)
class Alias:
    """A surrogate form written in masked text and the original form it stands for."""

    form: str
    original: str
    label: str


@dataclass(frozen=True)
class RestoreReport:
    """The restored `text`, how many pseudonyms were restored, and the placeholders
    that look like ours but are unknown (left as written), in order of occurrence."""

    text: str
    restored: int
    unknown: tuple[str, ...]


def placeholder_key(name: str) -> tuple[str, int] | None:
    """`("PERSON", 1)` for `[PERSON_1]`, `[person 1]`, `PERSON1`...; None if not placeholder-shaped."""
    m = _PLACEHOLDER_PARTS.fullmatch(name.strip())
    if m is None:
        return None
    return _LABEL_SEP.sub("", m.group("label")).upper(), int(m.group("n"))


def norm_key(value: str) -> str:
    """Case- and separator-insensitive form under which surrogates are looked up."""
    return _NORM_DROP.sub("", value).casefold()


def _label_alternation(labels: Iterable[str]) -> str:
    parts = sorted({regex.escape(label).replace("_", "[ _\\-]?") for label in labels}, key=len, reverse=True)
    return "|".join(parts)


def _alias_pattern(alias: Alias) -> str:
    form = alias.form
    if label_spec(alias.label).restore == "number":
        chars = [c for c in form if not c.isspace() and c not in ".-/()"]
        body = r"[ .\-/()]{0,2}".join(regex.escape(c) for c in chars)
        if form.startswith("("):
            body = r"\(?" + body
    else:
        body = r"(?:\s|\\n){1,3}".join(regex.escape(w) for w in form.split())
    return body


def _trie(words: Sequence[str]) -> str:
    """A pattern matching any of `words`, longest first, factored by common prefixes (fast to scan)."""
    root: dict = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        alts = []
        for ch, child in sorted(node.items()):
            if not ch:
                continue
            run = [ch]
            while len(child) == 1 and "" not in child:  # a chain without branches: one literal
                (ch, child), = child.items()
                run.append(ch)
            alts.append(regex.escape("".join(run)) + build(child))
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body

    return "(?:" + build(root) + ")" if words else "(?!)"


def _elide(prefix: str, value: str) -> str:
    """`d'` before a value that does not start with a vowel becomes `de `."""
    first = value[:1].lower()
    if not prefix or first in _VOWELS:
        return prefix + value
    if prefix[0] in "dD":
        return prefix[0] + "e " + value
    return prefix[:2] + "e " + value


def _json_safe(value: str) -> str:
    try:
        if isinstance(json.loads(f'"{value}"'), str):
            return value  # already valid inside a JSON string (it came from JSON)
    except ValueError:
        pass
    return json.dumps(value, ensure_ascii=False)[1:-1]


def _apply_case(written: str, form: str, original: str) -> str:
    if written == form:
        return original
    letters = [c for c in written if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and not form.isupper():
        return original.upper()
    if letters and all(c.islower() for c in letters) and not form.islower():
        return original.lower()
    return original


class JsonState:
    """Whether the text seen so far leaves us inside a JSON string.

    A heuristic that reads the text once, in pieces of any size: quotes count
    only inside `{...}` or `[...]`, and a blank line resets it (prose again).
    """

    __slots__ = ("depth", "in_string", "escape", "after_newline")

    def __init__(self) -> None:
        self.depth = 0
        self.in_string = False
        self.escape = False
        self.after_newline = False

    def feed(self, text: str) -> None:
        last = 0
        for m in _JSON_TOKENS.finditer(text):
            if m.start() > last:
                self.escape = False
                if not text[last:m.start()].isspace():
                    self.after_newline = False
            last = m.end()
            tok = m.group()
            if self.escape:
                self.escape = False
                self.after_newline = False
                continue
            if tok == "\n":
                if self.after_newline:
                    self.depth, self.in_string, self.after_newline = 0, False, False
                else:
                    self.after_newline = True
                continue
            self.after_newline = False
            if self.in_string:
                if tok == "\\":
                    self.escape = True
                elif tok == '"':
                    self.in_string = False
            elif tok in "{[":
                self.depth += 1
            elif tok in "}]":
                self.depth = max(0, self.depth - 1)
            elif tok == '"' and self.depth:
                self.in_string = True
        if last < len(text):
            self.escape = False
            if not text[last:].isspace():
                self.after_newline = False


class RestoreTable:
    """The compiled restore pattern for a placeholder mapping and surrogate aliases.

    `values[name]` is the original value of placeholder `name` (a str; the list
    form of `unmask` is resolved by the caller through `pick`).
    """

    def __init__(self, values: Mapping[str, str | list[str]], aliases: Sequence[Alias] = (),
                 labels: Iterable[str] | None = None) -> None:
        self.values = dict(values)
        self.by_key: dict[tuple[str, int], str] = {}
        clashes: set[tuple[str, int]] = set()
        known = set(known_labels() if labels is None else labels)
        for name in self.values:
            key = placeholder_key(name)
            if key is None:
                continue
            if key in self.by_key:
                clashes.add(key)
            self.by_key[key] = name
            known.add(key[0])
        for key in clashes:
            del self.by_key[key]
        self.exact_alias: dict[str, Alias] = {}
        self.norm_alias: dict[str, Alias] = {}
        for alias in aliases:
            self.exact_alias.setdefault(alias.form, alias)
            self.norm_alias.setdefault(norm_key(alias.form), alias)
        all_values = [v for vs in self.values.values() for v in ([vs] if isinstance(vs, str) else vs)]
        all_values += [a.original for a in aliases]
        self.needs_json = any(_json_safe(v) != v for v in all_values)
        self.pattern, self.open_pattern = self._compile(aliases, known)
        # an upper bound on the length of a match: a pseudonym still open at the end of a
        # streamed buffer starts within this many characters of it
        self.longest = 3 + max([48] + [len(k) for k in self.values] + [4 * len(a.form) for a in aliases])

    def _compile(self, aliases: Sequence[Alias], labels: set[str]) -> tuple[regex.Pattern, regex.Pattern]:
        alts = []
        placeholder_alts = []
        if self.values:
            exact = _trie(sorted(self.values, key=len, reverse=True))
            placeholder_alts.append(f"(?P<ex>{exact})")
        lab = _label_alternation(labels)
        placeholder_alts.append(
            rf"(?P<tb>[\[{{<(] {{0,2}}(?i:(?P<tl>{lab}))[ _\-]{{0,2}}(?P<tn>\d{{1,6}})(?P<tp>['’]s)? {{0,2}}[\]}}>)])"
        )
        bare = "|".join(sorted({regex.escape(label) for label in labels}, key=len, reverse=True))
        placeholder_alts.append(rf"(?P<bare>(?<!\w)(?P<bl>{bare})_(?P<bn>\d{{1,6}})(?!\w))")
        alts.append(_ELISION + "(?:" + "|".join(placeholder_alts) + ")")
        if aliases:
            # as written first (so that masked text restores exactly), then edited (case, spacing)
            exact = sorted({a.form for a in aliases}, key=len, reverse=True)
            # names only as written or in capitals (a lower-case "martin" is more often a word);
            # other values in any case
            names = sorted({_alias_pattern(Alias(f, a.original, a.label)) for a in aliases if a.label == "PERSON"
                            for f in (a.form, a.form.upper())}, key=len, reverse=True)
            others = sorted({_alias_pattern(a) for a in aliases
                             if a.label != "PERSON" and label_spec(a.label).restore != "case_sensitive"},
                            key=len, reverse=True)
            strict = sorted({_alias_pattern(a) for a in aliases if label_spec(a.label).restore == "case_sensitive"},
                            key=len, reverse=True)
            edited = "|".join(names + strict + ([f"(?i:{'|'.join(others)})"] if others else [])) or "(?!)"
            alts.append(r"(?<!\w)(?P<sur>(?:" + _trie(exact) + "|" + edited + r"))(?!\w)")
        body = "|".join(alts)
        # Never a complete match: only partial ones, i.e. pseudonyms that reach the end of the text.
        return regex.compile(body), regex.compile(f"(?:{body})(?=\\Z)\\p{{Any}}")

    def lookup(self, m: regex.Match) -> tuple[str | None, str | None]:
        """(placeholder name or None, alias original or None) for a match; (None, None) if unknown."""
        g = m.groupdict()
        if g.get("sur") is not None:
            written = g["sur"]
            alias = self.exact_alias.get(written) or self.norm_alias.get(norm_key(written))
            if alias is None:
                return None, None
            if label_spec(alias.label).restore != "case_style":
                return None, alias.original  # the case of a number, code or e-mail is not style
            return None, _apply_case(written, alias.form, alias.original)
        if g.get("ex") is not None:
            return g["ex"], None
        if g["tb"] is not None:
            key = (_LABEL_SEP.sub("", m.group("tl")).upper(), int(m.group("tn")))
        else:
            key = (m.group("bl").replace("_", ""), int(m.group("bn")))
        return self.by_key.get(key), None

    def is_ours(self, m: regex.Match) -> bool:
        """Placeholder-shaped with a known label (so worth reporting when unknown)."""
        return m.groupdict().get("sur") is None


class Scan:
    """Left-to-right restore state: shared by the batch and the streaming restorer."""

    def __init__(self, table: RestoreTable, pick=None) -> None:
        self.table = table
        self.pick = pick or (lambda name: table.values[name])
        self.json = JsonState() if table.needs_json else None
        self.restored = 0
        self.unknown: list[str] = []

    def _raw(self, out: list[str], text: str) -> None:
        if text:
            out.append(text)
            if self.json is not None:
                self.json.feed(text)

    def run(self, buf: str, pos: int, final: bool) -> tuple[str, int]:
        """Restore `buf[pos:]`; return the output and how far it got (all of it if `final`).

        When not final, stop where a pseudonym could still start that the text
        seen so far does not settle; `buf[:pos]` is context for look-behinds.
        """
        table, out = self.table, []
        stop = len(buf)
        if not final:
            held = table.open_pattern.search(buf, max(pos, len(buf) - table.longest), partial=True)
            if held is not None:
                stop = held.start()
        for m in table.pattern.finditer(buf, pos):
            if m.start() >= stop:
                break
            self._raw(out, buf[pos:m.start()])
            self._emit(out, m)
            pos = m.end()
            if not final and pos > stop:
                held = table.open_pattern.search(buf, max(pos, len(buf) - table.longest), partial=True)
                stop = held.start() if held is not None else len(buf)
        if pos < stop:
            self._raw(out, buf[pos:stop])
            pos = stop
        return "".join(out), pos

    def _emit(self, out: list[str], m: regex.Match) -> None:
        name, original = self.table.lookup(m)
        prefix = m.groupdict().get("el") or ""
        if name is not None:
            value = self.pick(name)
            if m.groupdict().get("tp"):
                value += m.group("tp")
        elif original is not None:
            value = original
        else:
            if self.table.is_ours(m):
                self.unknown.append(m.group()[len(prefix):])
            self._raw(out, m.group())
            return
        self.restored += 1
        if self.json is not None and self.json.in_string:
            value = _json_safe(value)
        out.append(_elide(prefix, value))


def restore(text: str, table: RestoreTable, pick=None) -> RestoreReport:
    """Restore `text` in one pass with `table`."""
    scan = Scan(table, pick)
    out, _ = scan.run(text, 0, final=True)
    return RestoreReport(out, scan.restored, tuple(scan.unknown))


def unmask_report(text: str, mapping: Mapping[str, str | list[str]]) -> RestoreReport:
    """`unmask` with a report of how many placeholders were restored and which are unknown.

    A placeholder whose value has several written forms gets them back in order
    when it occurs exactly as often as it was masked; otherwise the first form.
    """
    mapping = check_mapping(mapping)
    if not text:
        return RestoreReport(text, 0, ())
    table = RestoreTable(mapping)
    counts: dict[str, int] = {}
    if any(isinstance(v, list) for v in mapping.values()):
        for m in table.pattern.finditer(text):
            name, _ = table.lookup(m)
            if name is not None:
                counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}

    def pick(name: str) -> str:
        value = mapping[name]
        if isinstance(value, str):
            return value
        i = seen.get(name, 0)
        seen[name] = i + 1
        return value[i] if counts.get(name) == len(value) else value[0]

    return restore(text, table, pick)


def unmask(text: str, mapping: Mapping[str, str | list[str]]) -> str:
    """Replace every placeholder of `mapping` found in `text` by its original value.

    A placeholder whose value has several written forms gets them back in order
    when it occurs exactly as often as it was masked; otherwise the first form.
    Placeholders edited by an LLM (case, brackets, spacing) are found too.
    """
    return unmask_report(text, mapping).text
