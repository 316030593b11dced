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

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import regex

from .errors import MappingError
from .labels import BUILTIN, LabelSet
from .language import ElidedArticle, shipped_languages
from .placeholders import (
    LABEL_SEP,
    edited_alternatives,
    is_generic,
    placeholder_key,  # noqa: F401 (re-exported: restore's public name)
    placeholder_parts,
)

# How a label's surrogates are found again is its registry entry's `restore` (labels.py):
# "number": compared as digit/letter strings, separators ignored; "case_sensitive": only as
# written (spacing aside), their case is part of the value; "case_style": the original comes
# back in the case the surrogate was written in (names, addresses).
_NORM_DROP = regex.compile(r"[\s.\-/()]+|\\[nrt]")
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


def norm_key(value: str) -> str:
    """Case- and separator-insensitive form under which surrogates are looked up."""
    return _NORM_DROP.sub("", value).casefold()


def _alias_pattern(alias: Alias, specs: LabelSet) -> str:
    form = alias.form
    if specs.spec(alias.label).restore == "number":
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


@functools.lru_cache(maxsize=1)
def _elided_articles() -> tuple[dict[str, ElidedArticle], str, regex.Pattern]:
    """The languages' elided articles by stem, and the pattern of one as written (`d'`, `QU’`)."""
    articles = shipped_languages().elided_articles()
    stems = "|".join(regex.escape(a.stem) for a in articles)
    pattern = r"(?<!\w)(?i:" + stems + ")['’]" if stems else "(?!)"
    return {a.stem: a for a in articles}, pattern, regex.compile(pattern)


def elided_article(text: str, start: int, value: str) -> int:
    """How many characters of an elided article (`d'`, `qu'`) end at `start` in `text` that
    restore would rewrite in front of a placeholder of `value` (0 if none).

    A mask writes such an article inside the placeholder's value, so that what it wrote
    restores as written: `d'Xavier` is the author's, `d'[PERSON_1]` an LLM's.

    >>> elided_article("Le badge d'Xavier", 11, "Xavier"), elided_article("le dossier d'Anne", 13, "Anne")
    (2, 0)
    """
    articles, _, written = _elided_articles()
    lengths = sorted({len(stem) + 1 for stem in articles})
    total = 0
    while True:  # the article taken in may itself follow one ("qu'd'…")
        for length in lengths:
            m = written.fullmatch(text, start - length, start) if start >= length else None
            if m is not None and _elide(m.group(), value) != m.group() + value:
                start, value, total = start - length, m.group() + value, total + length
                break
        else:
            return total


def _elide(written: str, value: str) -> str:
    """`value` after the elided article `written` (none if empty), the article in full before a
    value that does not start with a vowel (`d'` becomes `de `)."""
    if not written:
        return value
    return _elided_articles()[0][written[:-1].casefold()].before(written, value)


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


def _forms(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else value


@functools.lru_cache(maxsize=32)
def _compile(names: tuple[str, ...], aliases: tuple[Alias, ...], labels: frozenset[str],
             specs: LabelSet = BUILTIN) -> tuple[regex.Pattern, regex.Pattern]:
    """The restore pattern: `names` spelt out (longest first), the generic placeholder shapes of
    `labels`, and the surrogate `aliases`; and its variant that matches only what is still open
    at the end of a text."""
    alts = []
    placeholder_alts = []
    if names:
        placeholder_alts.append(f"(?P<ex>{_trie(names)})")
    placeholder_alts += edited_alternatives(labels)
    alts.append(f"(?P<el>{_elided_articles()[1]})?" + "(?:" + "|".join(placeholder_alts) + ")")
    if aliases:
        # as written first (so that masked text restores exactly), then edited (case, spacing)
        exact = sorted({a.form for a in aliases}, key=len, reverse=True)
        # names only as written or in capitals (a lower-case "martin" is more often a word);
        # other values in any case
        person = sorted({_alias_pattern(Alias(f, a.original, a.label), specs) for a in aliases
                         if a.label == "PERSON" for f in (a.form, a.form.upper())}, key=len, reverse=True)
        others = sorted({_alias_pattern(a, specs) for a in aliases
                         if a.label != "PERSON" and specs.spec(a.label).restore != "case_sensitive"},
                        key=len, reverse=True)
        strict = sorted({_alias_pattern(a, specs) for a in aliases if specs.spec(a.label).restore == "case_sensitive"},
                        key=len, reverse=True)
        edited = "|".join(person + strict + ([f"(?i:{'|'.join(others)})"] if others else [])) or "(?!)"
        alts.append(r"(?<!\w)(?P<sur>(?:" + _trie(exact) + "|" + edited + r"))(?!\w)")
    body = "|".join(alts)
    # Never a complete match: only partial ones, i.e. pseudonyms that reach the end of the text.
    return regex.compile(body), regex.compile(f"(?:{body})(?=\\Z)\\p{{Any}}")


class RestoreTable:
    """The compiled restore pattern for a placeholder mapping and surrogate aliases.

    `values[name]` is the original value of placeholder `name` (a str; the list
    form of `unmask` is resolved by the caller through `pick`). `add` extends the
    table: a session adds each turn's values, and the pattern is compiled again
    only when what it must spell out changes (a surrogate, a placeholder the
    generic `[LABEL_n]` alternative does not read back), so masking n texts in
    placeholder mode costs O(n), not O(n²). `labels`: how the aliases' labels restore (the twelve
    by default; an engine's own labels in its sessions).
    """

    def __init__(self, values: Mapping[str, str | list[str]], aliases: Sequence[Alias] = (),
                 labels: LabelSet = BUILTIN) -> None:
        self.values: dict[str, str | list[str]] = {}
        self.by_key: dict[tuple[str, int], str] = {}
        self.placeholders: set[str] = set()  # the names read back through their (label, number)
        self.exact_alias: dict[str, Alias] = {}
        self.norm_alias: dict[str, Alias] = {}
        self.needs_json = False
        # an upper bound on the length of a match: a pseudonym still open at the end of a
        # streamed buffer starts within this many characters of it
        self.longest = 3 + 48
        self.labels = labels
        self._known = set(labels.names)
        self._clashes: set[tuple[str, int]] = set()
        self._aliases: list[Alias] = []
        self._parts: set[Alias] = set()
        self._patterns: tuple[regex.Pattern, regex.Pattern] | None = None
        self.add(values, aliases)

    def add(self, values: Mapping[str, str | list[str]], aliases: Sequence[Alias] = (),
            part_aliases: Sequence[Alias] = ()) -> None:
        """Add placeholder values and surrogate aliases (a name already in the table takes its new value).

        A form is read back as its first alias; the forms of whole mentions (`aliases`) come
        before the parts of names (`part_aliases`), whatever the order they were added in."""
        for name, original in values.items():
            new = name not in self.values
            self.values[name] = original
            self.longest = max(self.longest, 3 + len(name))
            self.needs_json = self.needs_json or any(_json_safe(v) != v for v in _forms(original))
            parts = placeholder_parts(name) if new else None
            if parts is None:
                if new:
                    self._patterns = None  # spelt out in the pattern
                continue
            key, label = parts  # "EMPLOYEE_ID": also read as "employee id"
            if label not in self._known:
                self._known.add(label)
                self._patterns = None
            if key in self._clashes:
                continue
            other = self.by_key.get(key)
            if other is None:
                self.by_key[key] = name
                self.placeholders.add(name)
                if not is_generic(name):
                    self._patterns = None
            else:  # two names for one (label, number): each is read back as written only
                self._clashes.add(key)
                del self.by_key[key]
                self.placeholders.discard(other)
                self._patterns = None
        for part, alias in [(False, a) for a in aliases] + [(True, a) for a in part_aliases]:
            self._aliases.append(alias)
            for found, form in ((self.exact_alias, alias.form), (self.norm_alias, norm_key(alias.form))):
                if form not in found or (not part and found[form] in self._parts):
                    found[form] = alias
            if part:
                self._parts.add(alias)
            self.needs_json = self.needs_json or _json_safe(alias.original) != alias.original
            self.longest = max(self.longest, 3 + 4 * len(alias.form))
            self._patterns = None

    @property
    def pattern(self) -> regex.Pattern:
        return self._compiled()[0]

    @property
    def open_pattern(self) -> regex.Pattern:
        return self._compiled()[1]

    def _compiled(self) -> tuple[regex.Pattern, regex.Pattern]:
        if self._patterns is None:
            # a name the generic alternative reads back as itself need not be spelt out
            spelt = [name for name in self.values if name not in self.placeholders or not is_generic(name)]
            self._patterns = _compile(tuple(sorted(spelt, key=len, reverse=True)), tuple(self._aliases),
                                      frozenset(self._known), self.labels)
        return self._patterns

    def lookup(self, m: regex.Match) -> tuple[str | None, str | None]:
        """(placeholder name or None, alias original or None) for a match; (None, None) if unknown."""
        g = m.groupdict()
        if g.get("sur") is not None:
            written = g["sur"]
            alias = self.exact_alias.get(written) or self.norm_alias.get(norm_key(written))
            if alias is None:
                return None, None
            if self.labels.spec(alias.label).restore != "case_style":
                return None, alias.original  # the case of a number, code or e-mail is not style
            return None, _apply_case(written, alias.form, alias.original)
        if g.get("ex") is not None:
            return g["ex"], None
        if g["tb"] is not None:
            key = (LABEL_SEP.sub("", m.group("tl")).upper(), int(m.group("tn")))
        else:
            key = (m.group("bl").replace("_", ""), int(m.group("bn")))
        return self.by_key.get(key), None

    def is_ours(self, m: regex.Match) -> bool:
        """Placeholder-shaped with a known label (so worth reporting when unknown)."""
        return m.groupdict().get("sur") is None


class Scan:
    """Left-to-right restore state: shared by the batch and the streaming restorer."""

    def __init__(self, table: RestoreTable, pick: Callable[[str], str] | None = None) -> None:
        self.table = table
        # without `pick`, every value of the table is one str (the caller picks among a list's forms)
        self.pick: Callable[[str], str] = pick or (lambda name: cast(str, table.values[name]))
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
        table = self.table
        out: list[str] = []
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
        replacement = self.replacement(m)
        if replacement is None:
            if self.table.is_ours(m):
                self.unknown.append(m.group()[len(m.groupdict().get("el") or ""):])
            self._raw(out, m.group())
            return
        self.restored += 1
        out.append(replacement)

    def replacement(self, m: regex.Match) -> str | None:
        """What match `m` restores to here; None if it is left as written."""
        name, original = self.table.lookup(m)
        prefix = m.groupdict().get("el") or ""
        if name is not None:
            value = self.pick(name)
            if m.groupdict().get("tp"):
                value += m.group("tp")
        elif original is not None:
            value = original
        else:
            return None
        if self.json is not None and self.json.in_string:
            value = _json_safe(value)
        # the article before a surrogate was chosen by someone who read the (fake) value
        return _elide(prefix, value) if name is not None and name in self.table.placeholders else prefix + value


@dataclass(frozen=True)
class Write:
    """A pseudonym a mask wrote: `[start, end)` of the masked text, standing for `original`."""

    start: int
    end: int
    original: str


def misreadings(masked: str, writes: Sequence[Write], table: RestoreTable) -> tuple[set[int], list[tuple[int, int]]]:
    """What restore would not give back as the mask wrote it, in one pass over `masked`.

    Returns the indices of the `writes` that restore would not turn exactly into their
    original (glued to a word, read with its neighbour, rewritten by a heuristic), and the
    stretches of `masked` outside every write that restore would change (the author's own
    text read as a pseudonym). A mask that gets ([], []) knows its text restores exactly.
    """
    bad: set[int] = set()
    misread: list[tuple[int, int]] = []
    matched: set[int] = set()
    scan = Scan(table, lambda name: v if isinstance(v := table.values[name], str) else v[0])
    i = 0
    for m in table.pattern.finditer(masked):
        while i < len(writes) and writes[i].end <= m.start():
            i += 1
        overlapping = [k for k in range(i, len(writes)) if writes[k].start < m.end()]
        replacement = scan.replacement(m)
        if replacement is None and not overlapping:
            continue  # left as written
        prefix = m.groupdict().get("el") or ""
        if len(overlapping) == 1:
            k = overlapping[0]
            w = writes[k]
            name, _ = table.lookup(m)
            forms = table.values.get(name) if name is not None else None
            if (m.start() + len(prefix), m.end()) == (w.start, w.end) and replacement is not None and (
                    replacement == prefix + w.original
                    or (isinstance(forms, list) and replacement[len(prefix):] in forms and w.original in forms)):
                matched.add(k)
                continue
        if overlapping:
            bad.update(overlapping)
        else:
            misread.append(m.span())
    bad.update(k for k in range(len(writes)) if k not in matched)
    return bad, misread


def restore(text: str, table: RestoreTable, pick: Callable[[str], str] | None = None) -> RestoreReport:
    """Restore `text` in one pass with `table`."""
    scan = Scan(table, pick)
    out, _ = scan.run(text, 0, final=True)
    return RestoreReport(out, scan.restored, tuple(scan.unknown))


def unmask_report(text: str, mapping: Mapping[str, str | list[str]], labels: LabelSet = BUILTIN) -> RestoreReport:
    """`unmask` with a report of how many placeholders were restored and which are unknown.

    A placeholder whose value has several written forms gets them back in order
    when it occurs exactly as often as it was masked; otherwise the first form.
    """
    mapping = check_mapping(mapping)
    if not text:
        return RestoreReport(text, 0, ())
    return restore_mapping(text, mapping, RestoreTable(mapping, labels=labels))


def restore_mapping(text: str, mapping: Mapping[str, str | list[str]], table: RestoreTable) -> RestoreReport:
    """`unmask_report` with the table of `mapping` already compiled."""
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


def unmask(text: str, mapping: Mapping[str, str | list[str]], labels: LabelSet = BUILTIN) -> str:
    """Replace every placeholder of `mapping` found in `text` by its original value.

    A placeholder whose value has several written forms gets them back in order
    when it occurs exactly as often as it was masked; otherwise the first form.
    Placeholders edited by an LLM (case, brackets, spacing) are found too. Any well-formed
    placeholder of the mapping restores, of a declared label or not; `labels` (an engine's
    `rules.labels`) matter only for surrogates.
    """
    return unmask_report(text, mapping, labels).text
