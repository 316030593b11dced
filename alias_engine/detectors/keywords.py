"""Keyword-triggered rules: a keyword, a short gap, then a value of the right shape.

The rules are data (the "keyword_rules", "values", "gaps" and "rejects" sections
of rules/*.json, schema in docs/rules.md). All keywords of all files are joined
into one trigger regex, so the text is scanned once; each keyword hit then tries
the value shapes of its rules right after it. A rule either labels the value
(source "keyword"; `verified=False` when the value's validator rejects it: the
context says what it is, so it is masked anyway) or, with "suppress", marks the
value as not personal data (a company switchboard, a SIRET, an invoice number).
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

import phonenumbers
import regex

from ..labels import LABELS
from ..spans import Span, Suppression
from ..validators import VALIDATORS
from .patterns import phrases

RULE_KEYS = frozenset({"label", "suppress", "keywords", "values", "value_before", "line_start", "gap", "max_gap",
                       "score", "validator", "comment", "fallback", "list", "examples", "counter_examples"})
# A rule's "examples" and "counter_examples" (docs/rules.md): texts of the class it stands for and near misses,
# run by tests/test_rule_examples.py; the loader only checks their shape, they change nothing a rule finds.
EXAMPLE_KEYS = frozenset({"text", "spans", "labels", "lang", "comment"})
DEFAULT_GAP = "default"
DEFAULT_GAP_BEFORE = "before"
DEFAULT_MAX_GAP = 20
DEFAULT_SCORE = 0.9
# A value ends at a word boundary; written before its keyword it also starts at one, and not
# right after "digit + separator" (the middle of a number).
_VALUE_END = r"(?![\p{L}\p{N}_])"
_VALUE_START = r"(?<![\p{L}\p{N}_])(?<!\p{N}[ .\-/])"
_MAX_LIST_VALUES = 10
# The longest value a rule looks for before its keyword.
_MAX_VALUE_CHARS = 300
# How far after its keyword a rule reads its gap and value (a value cut there runs on to the next space,
# quote or separator: a token of more than 4 kB). It keeps the cost linear: a keyword repeated along a line without spaces
# ("?token=a1&token=a1&…") would otherwise have each hit read its value shape to the line's end.
_MAX_READ_AFTER = 4096
# A value longer than this is not read again from a keyword inside it (find_keyword_spans).
_LONG_VALUE_CHARS = 256
# How much of a value's end can hold a keyword (the longest shipped one folds to 39 characters).
_KEYWORD_TAIL_CHARS = 120
_DIGITS = regex.compile(r"\d+")

# Spaces that part two columns of a line laid out with spaces where nothing else says where they are (a tab
# always does): a form's columns, the cells of a row a span crosses, a letterhead beside an addressee's block
# (the table reader, which aligns rows to a header, splits cells at two).
COLUMN_GAP = 3


@dataclass(frozen=True)
class ValueShape:
    name: str
    validator: Callable[[str], bool] | None
    reject: regex.Pattern | None
    value: regex.Pattern | None = None    # the value's own pattern, to try shorter values
    strict: Callable[[str], bool] | None = None  # what a shorter value must pass (default: the validator)


@dataclass(frozen=True)
class KeywordRule:
    label: str | None                 # None for a suppress rule
    suppress: frozenset[str]          # labels a suppress rule removes ("*": all)
    matchers: tuple[tuple[regex.Pattern, ValueShape], ...]  # gap + value after the keyword, or value + gap before it
    max_gap: int
    score: float
    value_before: bool = False        # the value is written before the keyword ("01 23 45 67 89 (standard)")
    line_start: bool = False          # the keyword must start a line (vCard "TEL;TYPE=cell:")
    cell_matchers: tuple[tuple[regex.Pattern, ValueShape], ...] = ()  # the value alone, for table cells
    fallback: bool = False            # only where the model found nothing: its spans have source "pattern"
    list_matchers: tuple[tuple[regex.Pattern, ValueShape], ...] = ()  # a value after the first one, with "list"
    gap_before: regex.Pattern | None = None  # value_before: the gap alone, where it cannot be empty


def list_separator(connectors: Iterable[str] = ()) -> regex.Pattern:
    """Between the values of a list after one keyword: "codes de secours : 4471-9023, 8264-1937", "(174 et 930)":
    a comma, semicolon, slash or "&", or a connector word of the languages ("et", "and", any case)."""
    return regex.compile(r"[ \t]*(?:[,;/&]|(?<![\p{L}])(?i:" + phrases(connectors) + r")(?![\p{L}]))[ \t]*")


@dataclass(frozen=True)
class KeywordRules:
    trigger: regex.Pattern | None
    by_key: dict[str, tuple[int, ...]]
    rules: tuple[KeywordRule, ...]
    list_separator: regex.Pattern = list_separator()  # between a list's values


# --- validators named in the rules -------------------------------------------

DATE_ORDERS = ("dmy", "mdy")


def is_valid_date(value: str, orders: Sequence[str] = DATE_ORDERS) -> bool:
    """A calendar date: numeric in one of `orders` ("dmy", "mdy": those the languages of the rules
    declare) or y-m-d, a day 1–31 and a plausible year otherwise."""
    numbers = [int(n) for n in _DIGITS.findall(value)]
    if len(numbers) == 3:
        a, b, c = numbers
        if a > 31:
            candidates = [(a, b, c)]
        else:
            year = c if c >= 100 else 2000 + c if c <= 30 else 1900 + c
            candidates = [(year, b, a) if order == "dmy" else (year, a, b) for order in orders]
        for year, month, day in candidates:
            try:
                datetime.date(year, month, day)
            except ValueError:
                continue
            return 1850 <= year <= 2100
        return False
    if len(numbers) == 2:
        day, year = numbers
        return 1 <= day <= 31 and 1850 <= year <= 2100
    return False


def is_possible_phone(value: str) -> bool:
    """phonenumbers calls the number possible in FR, GB or US (or for its +CC)."""
    return _phone_passes(value, phonenumbers.is_possible_number)


def is_valid_phone(value: str) -> bool:
    """phonenumbers calls the number valid (an allocated range) in FR, GB or US, or for its +CC."""
    return _phone_passes(value, phonenumbers.is_valid_number)


def _phone_passes(value: str, check) -> bool:
    for region in ("FR", "GB", "US"):
        try:
            if check(phonenumbers.parse(value, region)):
                return True
        except phonenumbers.NumberParseException:
            continue
    return False


BUILTIN_VALIDATORS: dict[str, Callable[[str], bool]] = {"date": is_valid_date, "phone": is_possible_phone}
# A value cut shorter must pass more than "possible": a phone then has to be a valid one.
STRICT_VALIDATORS: dict[str, Callable[[str], bool]] = {"phone": is_valid_phone}


def get_validator(name: str, date_orders: Sequence[str] | None = None) -> Callable[[str], bool]:
    if name == "date" and date_orders is not None:
        return partial(is_valid_date, orders=tuple(date_orders))
    if name in BUILTIN_VALIDATORS:
        return BUILTIN_VALIDATORS[name]
    if name in VALIDATORS:
        return VALIDATORS[name].is_valid
    known = sorted(set(BUILTIN_VALIDATORS) | set(VALIDATORS))
    raise ValueError(f"unknown validator {name!r}; known: {', '.join(known)}")


# --- keywords ------------------------------------------------------------------

def strip_accents(text: str) -> str:
    """`Hélène` → `Helene`: the text without its combining marks."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def fold_keyword(text: str) -> str:
    """The key under which a keyword and every text it matches are the same."""
    text = strip_accents(text).casefold().replace("º", "°").replace("’", "'").replace(".", "")
    return " ".join(text.replace("_", " ").replace("-", " ").split())


_WORD_BEFORE = r"(?<![\p{L}\p{N}])"
_WORD_AFTER = r"(?![\p{L}\p{N}]|-[\p{L}\p{N}])"  # "SIN-909733": a code's prefix, not the keyword
_SEPARATORS = r"[\s_\-]+"


def keyword_tokens(keyword: str) -> list[str]:
    """`keyword` as a list of small regexes, one per character: accents, case (unless all capitals),
    spacing and dots are lenient, and a keyword starting or ending with a letter or digit starts or ends
    at a word boundary.

    A space, "_" or "-" matches any run of them: "mot de passe" also finds "mot_de_passe" and "MOT-DE-PASSE".
    An acronym written in capitals (NIR, SSN, IBAN, CB) only matches in capitals: "Iban" is a first name.
    A keyword joined by a hyphen to the letters or digits after it is a code's prefix ("SIN-909733",
    "REF-88231"), not the keyword.
    """
    exact_case = keyword.isupper() and sum(c.isalpha() for c in keyword) >= 2
    tokens = [_WORD_BEFORE] if keyword[0].isalnum() else []
    for i, ch in enumerate(keyword):
        if ch.isspace() or ch in "_-":
            if not tokens or tokens[-1] != _SEPARATORS:
                tokens.append(_SEPARATORS)
        elif ch in "°º":
            tokens.append("[°º]")
        elif ch in "'’":
            tokens.append("['’]")
        elif ch == "." and i == len(keyword) - 1 and i > 0 and keyword[i - 1].isalnum():
            tokens.append(r"(?:\.|" + _WORD_AFTER + ")")  # "réf." is "Réf." or "Ref ", not the "Ref" of "Refuge"
        elif ch == ".":
            tokens.append(r"\.?")
        elif ch.isalpha():
            base = strip_accents(ch) or ch
            forms = {ch, base} if exact_case else {ch, base, ch.lower(), ch.upper(), base.lower(), base.upper()}
            chars = sorted(f for f in forms if len(f) == 1)
            tokens.append(regex.escape(chars[0]) if len(chars) == 1 else "[" + "".join(chars) + "]")
        else:
            tokens.append(regex.escape(ch))
    if keyword[-1].isalnum():
        tokens.append(_WORD_AFTER)
    return tokens


def keyword_regex(keyword: str) -> str:
    """A regex for one keyword (see `keyword_tokens`)."""
    return "".join(keyword_tokens(keyword))


def trigger_regex(keywords: Iterable[str]) -> regex.Pattern | None:
    """One regex for all keywords: a trie of their tokens, matched leftmost-longest (POSIX), so that
    "numéro de sécurité sociale" wins over "numéro" at the same place; the trie makes the scan fast."""
    return _trigger_regex(tuple(sorted(set(keywords))))


@lru_cache(maxsize=16)
def _trigger_regex(keywords: tuple[str, ...]) -> regex.Pattern | None:
    # Built once per keyword set in a process (a compiled pattern is immutable): compiling the trie is
    # most of the cost of loading the rules, and every Engine of the same rules asks for the same one.
    trie: dict = {}
    for keyword in keywords:
        node = trie
        for token in keyword_tokens(keyword):
            node = node.setdefault(token, {})
        node[None] = {}
    if not trie:
        return None

    def emit(node: dict) -> str:
        alternatives = [token + emit(child) for token, child in node.items() if token is not None]
        if None in node:
            alternatives.append("")
        return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"

    return regex.compile(emit(trie), flags=regex.POSIX)


_GAP_REFERENCE = regex.compile(r"\$\{(\w+)\}")


def expanded_gaps(gaps: dict[str, str]) -> dict[str, str]:
    """The gaps with every `${name}` in their patterns replaced by the gap `name`, so that gaps share
    a part written once (the adverbs after a verb: "the code is still 1984"); ValueError on an
    unknown name or a gap that refers to itself.

    >>> expanded_gaps({"adverb": "(?:still|now)", "prose": r"\\s+is\\s+(?:${adverb}\\s+)?"})["prose"]
    '\\\\s+is\\\\s+(?:(?:(?:still|now))\\\\s+)?'
    """

    def expand(name: str, seen: frozenset[str]) -> str:
        def reference(match: regex.Match) -> str:
            if match[1] not in gaps:
                raise ValueError(f"gap {name!r} refers to unknown gap {match[1]!r}")
            if match[1] in seen:
                raise ValueError(f"gap {match[1]!r} refers to itself (through {name!r})")
            return "(?:" + expand(match[1], seen | {match[1]}) + ")"

        return _GAP_REFERENCE.sub(reference, gaps[name])

    return {name: expand(name, frozenset({name})) for name in gaps}


def with_gaps(pattern: str, expanded: dict[str, str], where: str) -> str:
    """`pattern` with every `${name}` replaced by the gap `name` of `expanded` (`expanded_gaps`: a part written
    once in "gaps" and shared outside the keyword rules, a driving licence's issuing states); ValueError on
    an unknown name.

    >>> with_gaps("${state} [0-9]", expanded_gaps({"state": "(?:NY|CA)"}), "model_checks.licence_state")
    '(?:(?:NY|CA)) [0-9]'
    """

    def reference(match: regex.Match) -> str:
        if match[1] not in expanded:
            raise ValueError(f"{where} refers to unknown gap {match[1]!r}")
        return "(?:" + expanded[match[1]] + ")"

    return _GAP_REFERENCE.sub(reference, pattern)


def load_keyword_rules(rule_lists: Iterable[tuple[str, list]], values: dict, gaps: dict,
                       rejects: dict[str, regex.Pattern], date_orders: Sequence[str] = DATE_ORDERS,
                       keyword_lists: dict | None = None, labels: Iterable[str] = LABELS,
                       list_connectors: Iterable[str] = ()) -> KeywordRules:
    """Compile keyword rules; ValueError naming the faulty rule on any schema error. The "date"
    validator accepts numeric dates in `date_orders`; a keyword "@name" stands for the keywords of
    `keyword_lists[name]` (rules that share a list, such as police ranks, write it once); a rule's
    label must be one of `labels`; a "list" rule's values are separated by punctuation or one of
    `list_connectors` (the languages' words: "and", "et")."""
    known = frozenset(labels)
    keyword_lists = _checked_keyword_lists(keyword_lists or {})
    shapes = _load_values(values, rejects, date_orders)
    gap_patterns = expanded_gaps(gaps)
    rules: list[KeywordRule] = []
    by_key: dict[str, list[int]] = {}
    keywords: set[str] = set()
    for origin, rule_list in rule_lists:
        if not isinstance(rule_list, list):
            raise ValueError(f"{origin}: keyword_rules must be a list")
        for i, raw in enumerate(rule_list):
            where = f"{origin}[{i}]"
            raw = _with_listed_keywords(raw, where, keyword_lists)
            rule = _load_rule(raw, where, shapes, gap_patterns, date_orders, known)
            assert isinstance(raw, dict), "_load_rule accepts only an object"
            index = len(rules)
            rules.append(rule)
            for keyword in raw["keywords"]:
                if not isinstance(keyword, str) or not keyword.strip():
                    raise ValueError(f"{where}: keywords must be non-empty strings")
                indexes = by_key.setdefault(fold_keyword(keyword), [])
                if index not in indexes:
                    indexes.append(index)
                keywords.add(keyword)
    trigger = trigger_regex(keywords)
    return KeywordRules(trigger, {k: tuple(v) for k, v in by_key.items()}, tuple(rules),
                        list_separator(list_connectors))


def _checked_keyword_lists(keyword_lists: object) -> dict[str, list[str]]:
    if not isinstance(keyword_lists, dict):
        raise ValueError("keyword_lists must be an object of named lists")
    for name, words in keyword_lists.items():
        if name == "comment":
            continue
        if not isinstance(words, list) or not words or not all(isinstance(w, str) and w.strip() for w in words):
            raise ValueError(f"keyword_lists.{name}: must be a non-empty list of non-empty strings")
    return {name: words for name, words in keyword_lists.items() if name != "comment"}


def _with_listed_keywords(raw: object, where: str, keyword_lists: dict[str, list[str]]) -> object:
    """`raw` with each "@name" of its keywords replaced by that list's keywords."""
    if not isinstance(raw, dict) or not isinstance(raw.get("keywords"), list):
        return raw  # _load_rule names what is wrong
    keywords = []
    for keyword in raw["keywords"]:
        if isinstance(keyword, str) and keyword.startswith("@"):
            if keyword[1:] not in keyword_lists:
                raise ValueError(f"{where}: unknown keyword list {keyword!r}")
            keywords += keyword_lists[keyword[1:]]
        else:
            keywords.append(keyword)
    return {**raw, "keywords": keywords}


def _load_values(values: dict, rejects: dict[str, regex.Pattern],
                 date_orders: Sequence[str] = DATE_ORDERS) -> dict[str, tuple[str, ValueShape]]:
    shapes = {}
    for name, spec in values.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("pattern"), str):
            raise ValueError(f"values.{name}: needs a \"pattern\" string")
        unknown = set(spec) - {"pattern", "validator", "reject", "comment"}
        if unknown:
            raise ValueError(f"values.{name}: unknown key(s) {', '.join(sorted(unknown))}")
        try:
            regex.compile(spec["pattern"])
        except regex.error as exc:
            raise ValueError(f"values.{name}: invalid regex: {exc}") from None
        validator = get_validator(spec["validator"], date_orders) if spec.get("validator") else None
        strict = STRICT_VALIDATORS.get(spec.get("validator") or "", validator)
        reject = None
        if spec.get("reject"):
            names = [spec["reject"]] if isinstance(spec["reject"], str) else spec["reject"]
            unknown_rejects = [n for n in names if n not in rejects]
            if unknown_rejects:
                raise ValueError(f"values.{name}: unknown reject {unknown_rejects[0]!r}")
            reject = rejects[names[0]] if len(names) == 1 else \
                regex.compile("|".join(f"(?:{rejects[n].pattern})" for n in names))
        shapes[name] = (spec["pattern"],
                        ValueShape(name, validator, reject, regex.compile(f"(?:{spec['pattern']})"), strict))
    return shapes


def check_examples(raw: dict, where: str, known: Iterable[str] = LABELS) -> None:
    """ValueError naming the rule and the entry unless `raw`'s "examples" and "counter_examples" are
    lists of {"text", "spans": [[value, label], ...], "labels": [label or "*", ...], "lang", "comment"}
    (docs/rules.md), each value written in its text: an example gives its "spans" (an empty list for a
    suppress rule that clears every value of its text), a counter example "labels" or "spans"; every
    label one of `known`."""
    known = frozenset(known)
    for key in ("examples", "counter_examples"):
        cases = raw.get(key, [])
        if not isinstance(cases, list):
            raise ValueError(f"{where}: {key} must be a list of objects")
        for i, case in enumerate(cases):
            at = f"{where}: {key}[{i}]"
            if not isinstance(case, dict) or not isinstance(case.get("text"), str) or not case["text"]:
                raise ValueError(f"{at}: needs a non-empty \"text\"")
            unknown = set(case) - EXAMPLE_KEYS
            if unknown:
                raise ValueError(f"{at}: unknown key(s) {', '.join(sorted(unknown))}; known: "
                                 f"{', '.join(sorted(EXAMPLE_KEYS))}")
            spans, labels = case.get("spans"), case.get("labels", [])
            if key == "examples" and spans is None:
                raise ValueError(f"{at}: needs \"spans\", the [value, label] pairs the rules find in it")
            if key == "examples" and "labels" in case:
                raise ValueError(f"{at}: \"labels\" is for counter examples (an example lists its spans)")
            spans = spans or []
            if not isinstance(spans, list) or not all(
                    isinstance(s, list) and len(s) == 2 and all(isinstance(x, str) and x for x in s) for s in spans):
                raise ValueError(f"{at}: spans must be a list of [value, label] pairs of strings")
            if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
                raise ValueError(f"{at}: labels must be a list of labels")
            if key == "counter_examples" and not spans and not labels:
                raise ValueError(f"{at}: needs \"labels\" (found nowhere in it) or \"spans\" (found in it)")
            for value, label in spans:
                if value not in case["text"]:
                    raise ValueError(f"{at}: {value!r} is not in its text")
                if label not in known:
                    raise ValueError(f"{at}: unknown label {label!r}")
            for label in labels:
                if label not in known and label != "*":
                    raise ValueError(f"{at}: unknown label {label!r}")
            if "lang" in case and (not isinstance(case["lang"], str) or not case["lang"]):
                raise ValueError(f"{at}: lang must be a language folder's name")


def _load_rule(raw: object, where: str, shapes: dict[str, tuple[str, ValueShape]],
               gaps: dict[str, str], date_orders: Sequence[str] = DATE_ORDERS,
               known: frozenset[str] = frozenset(LABELS)) -> KeywordRule:
    if not isinstance(raw, dict):
        raise ValueError(f"{where}: a keyword rule must be an object")
    unknown = set(raw) - RULE_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    check_examples(raw, where, known)
    label, suppress = raw.get("label"), raw.get("suppress")
    if (label is None) == (suppress is None):
        raise ValueError(f"{where}: give exactly one of \"label\" and \"suppress\"")
    if label is not None and label not in known:
        raise ValueError(f"{where}: unknown label {label!r}")
    suppress = frozenset(suppress or ())
    if suppress - known - {"*"}:
        raise ValueError(f"{where}: unknown label(s) in suppress: {', '.join(sorted(suppress - known - {'*'}))}")
    if not isinstance(raw.get("keywords"), list) or not raw["keywords"]:
        raise ValueError(f"{where}: \"keywords\" must be a non-empty list")
    names = raw.get("values")
    if not isinstance(names, list) or not names:
        raise ValueError(f"{where}: \"values\" must be a non-empty list of value names")
    value_before, line_start = raw.get("value_before", False), raw.get("line_start", False)
    if not isinstance(value_before, bool) or not isinstance(line_start, bool):
        raise ValueError(f"{where}: value_before and line_start must be true or false")
    gap_names = raw.get("gap", DEFAULT_GAP_BEFORE if value_before else DEFAULT_GAP)
    gap_names = [gap_names] if isinstance(gap_names, str) else gap_names
    if not isinstance(gap_names, list) or not gap_names:
        raise ValueError(f"{where}: gap must be a gap name or a non-empty list of them")
    for gap_name in gap_names:
        if gap_name not in gaps:
            raise ValueError(f"{where}: unknown gap {gap_name!r}")
    gap = "|".join(f"(?:{gaps[name]})" for name in gap_names)
    override = get_validator(raw["validator"], date_orders) if raw.get("validator") else None
    matchers = []
    cell_matchers = []
    for name in names:
        if name not in shapes:
            raise ValueError(f"{where}: unknown value {name!r}")
        pattern, shape = shapes[name]
        if override is not None:
            shape = ValueShape(shape.name, override, shape.reject, shape.value,
                               STRICT_VALIDATORS.get(raw["validator"], override))
        try:
            if value_before:
                compiled = regex.compile(f"{_VALUE_START}(?P<value>{pattern}){_VALUE_END}(?:{gap})\\Z")
            else:
                compiled = regex.compile(f"(?:{gap})(?P<value>{pattern}){_VALUE_END}")
        except regex.error as exc:
            raise ValueError(f"{where}: value {name!r} with gap {gap_names} is not a valid regex: {exc}") from None
        matchers.append((compiled, shape))
        cell_matchers.append((regex.compile(f"(?:{pattern})"), shape))
    max_gap, score = raw.get("max_gap", DEFAULT_MAX_GAP), raw.get("score", DEFAULT_SCORE)
    if not isinstance(max_gap, int) or max_gap < 0:
        raise ValueError(f"{where}: max_gap must be a non-negative integer")
    if not isinstance(score, (int, float)) or not 0 <= score <= 1:
        raise ValueError(f"{where}: score must be between 0 and 1")
    fallback, is_list = raw.get("fallback", False), raw.get("list", False)
    if not isinstance(fallback, bool) or not isinstance(is_list, bool):
        raise ValueError(f"{where}: fallback and list must be true or false")
    if is_list and value_before:
        raise ValueError(f"{where}: \"list\" is for the values written after the keyword")
    list_matchers = tuple((regex.compile(f"(?P<value>{shapes[name][0]}){_VALUE_END}"), shape)
                          for name, (_, shape) in zip(names, matchers)) if is_list else ()
    gap_before = _gap_alone(gap, tuple(m for m, _ in matchers)) if value_before else None
    return KeywordRule(label, suppress, tuple(matchers), max_gap, float(score), value_before, line_start,
                       tuple(cell_matchers), fallback, list_matchers, gap_before)


# Read alone, a gap with these would not mean what it means after the value: a back-reference, `\G`
_READ_WITH_THE_VALUE = regex.compile(r"\\(?:[1-9]|g|G|k)|\(\?P=")


def _gap_alone(gap: str, matchers: tuple[regex.Pattern, ...]) -> regex.Pattern | None:
    """The gap of a `value_before` rule alone, ending at the keyword: when it finds nothing, no value can be
    before the keyword. None where it could rule out a value the matchers find: a gap that may be empty,
    that refers to the value, or that the value's flags (a `(?V1)` in its shape) read otherwise."""
    if _READ_WITH_THE_VALUE.search(gap):
        return None
    try:
        alone = regex.compile(f"(?:{gap})\\Z")
    except regex.error:
        return None
    if alone.fullmatch("") or any(matcher.flags != alone.flags for matcher in matchers):
        return None
    return alone


# --- detection -------------------------------------------------------------------

def find_keyword_spans(text: str, rules: KeywordRules) -> tuple[list[Span], list[Suppression]]:
    """Spans labelled by keyword rules, and the regions that suppress rules clear."""
    spans: dict[tuple[int, int, str], Span] = {}
    suppressions: list[Suppression] = []
    if rules.trigger is None:
        return [], suppressions
    # Overlapped: "ma carte d'identité" is both "ma carte" and "carte d'identité"; the rules' values decide.
    # A keyword inside a longer one ("card" in "ID card") is not a keyword of its own.
    covered_to = -1
    # A keyword inside a long value its own rule just read ("login: login.login.…", 4 kB) is not read again:
    # each would read on to the same end, a cost that grows with the square of such a run. In a short value
    # it is ("password: ${DB_PASSWORD:s3cret}": the value after the inner keyword is the secret).
    long_value_end_by_rule: dict[int, int] = {}
    for hit in rules.trigger.finditer(text, overlapped=True):
        if hit.end() <= covered_to:
            continue
        covered_to = hit.end()
        for index in rules.by_key.get(fold_keyword(hit.group()), ()):
            rule = rules.rules[index]
            if hit.start() < long_value_end_by_rule.get(index, -1) or \
                    (rule.line_start and not _at_line_start(text, hit.start())):
                continue
            found = _match_value_before(text, hit.start(), rule) if rule.value_before else \
                _match_value(text, hit.end(), rule)
            if found is None:
                continue
            start, end, verified = found
            if _names_a_column(text, start, end, rules):
                continue  # a header row: "login,credit_card,spanish_dni" holds no login
            if end - start > _LONG_VALUE_CHARS:
                long_value_end_by_rule[index] = end
            values = [found, *_more_values(text, end, rule, rules.list_separator)]
            if rule.label is None:
                suppressions.extend(Suppression(value_start, value_end, rule.suppress)
                                    for value_start, value_end, _ in _alike(text, values))
                continue
            for value_start, value_end, value_verified in values:
                key = (value_start, value_end, rule.label)
                if key not in spans or spans[key].score < rule.score:
                    spans[key] = Span(value_start, value_end, rule.label, rule.score,
                                      "pattern" if rule.fallback else "keyword", value_verified)
    return sorted(spans.values()), suppressions


def _alike(text: str, values: list[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """The first value and the list's values written as it is (the same letters, digits and separators in
    the same places: "176-5903318462, 176-5903318463"), each whole (no digit group after it): what a
    suppress rule clears. "order 58213, 07700 900123 is my mobile" clears the order, not the phone."""
    first = _shape(text[values[0][0]:values[0][1]])
    return values[:1] + [(start, end, verified) for start, end, verified in values[1:]
                         if _shape(text[start:end]) == first and _DIGIT_GROUP_AFTER.match(text, end) is None]


def _shape(value: str) -> str:
    return _DIGIT.sub("9", _LETTER.sub("A", value))


_LETTER = regex.compile(r"\p{L}")
_DIGIT = regex.compile(r"\p{N}")
_DIGIT_GROUP_AFTER = regex.compile(r"[ .\-/]?\p{N}")


def _more_values(text: str, end: int, rule: KeywordRule, separators: regex.Pattern) -> list[tuple[int, int, bool]]:
    """The values a "list" rule finds after its first one, each after a comma, "and", "et", "/"…"""
    found: list[tuple[int, int, bool]] = []
    while rule.list_matchers and len(found) < _MAX_LIST_VALUES:
        separator = separators.match(text, end)
        best = None
        for matcher, shape in rule.list_matchers if separator else ():
            m = matcher.match(text, separator.end(), separator.end() + _MAX_READ_AFTER)
            if m is not None:
                best = _better(best, m, matcher, shape, text)
        if best is None or not best[2]:
            return found
        found.append(best)
        end = best[1]
    return found


def is_keyword_like(value: str, rules: KeywordRules) -> bool:
    """`value` is a keyword or ends with one ("credit_card", "spanish_dni"): a column name, not a value.

    Only the value's end is read (a keyword is a few words): a value read up to _MAX_READ_AFTER
    characters is not folded whole at every keyword hit.
    """
    words = fold_keyword(value[-_KEYWORD_TAIL_CHARS:]).split()
    if len(value) > _KEYWORD_TAIL_CHARS:
        words = words[1:]  # maybe a word cut in two
    return any(" ".join(words[i:]) in rules.by_key for i in range(len(words)))


def _names_a_column(text: str, start: int, end: int, rules: KeywordRules) -> bool:
    """The value read after a keyword names a column or the next field, not a value: a keyword itself
    ("credit_card"), words that run into the next field's keyword ("ODILE FERRAND IBAN"), or a name that
    ends with one ("spanish_dni") in a row of names parted by commas, tabs, ";" or "|"
    ("login,credit_card,spanish_dni"). One word after "login: " is a login ("jdoe_exp": "exp" is a keyword too)."""
    value = text[start:end]
    if not is_keyword_like(value, rules):
        return False
    if any(c.isspace() for c in value):
        return True
    before = start
    while before and text[before - 1] == " ":
        before -= 1
    return (before > 0 and text[before - 1] in ",;\t|") or fold_keyword(value) in rules.by_key


def _at_line_start(text: str, pos: int) -> bool:
    """At the start of a line, or of a form's column: after a tab or COLUMN_GAP spaces or more."""
    spaces = 0
    while pos and text[pos - 1] in " \t\f\v":
        pos -= 1
        spaces += COLUMN_GAP if text[pos] == "\t" else 1
    return pos == 0 or text[pos - 1] in "\n\r" or spaces >= COLUMN_GAP


def _match_value_before(text: str, pos: int, rule: KeywordRule) -> tuple[int, int, bool] | None:
    """The longest value ending within the rule's gap before `pos` (the keyword's start)."""
    best: tuple[int, int, bool] | None = None
    if rule.gap_before is not None and rule.gap_before.search(text, max(0, pos - rule.max_gap), pos) is None:
        # No gap ends at the keyword: no value can be before it. The searches below try every start in a
        # window of hundreds of characters, which a keyword written a thousand times on one line (the
        # URLs of a minified JSON) would pay each time.
        return None
    lo = max(0, pos - rule.max_gap - _MAX_VALUE_CHARS)
    for matcher, shape in rule.matchers:
        m = matcher.search(text, lo, pos)
        if m is None or pos - m.end("value") > rule.max_gap:
            continue
        best = _better(best, m, matcher, shape, text)
    return best


# A shell or a config's variable before its default: "${DB_PASSWORD:" of "${DB_PASSWORD:-s3cret}"
_SHELL_DEFAULT_BEFORE = regex.compile(r"\$\{[A-Za-z_][A-Za-z0-9_.]*:\Z")


def _better(best: tuple[int, int, bool] | None, m: regex.Match, matcher: regex.Pattern, shape: ValueShape,
            text: str) -> tuple[int, int, bool] | None:
    group = "span" if "span" in matcher.groupindex and m.group("span") is not None else "value"
    start, end = m.span(group)
    while start < end and text[start].isspace():  # '"password": " hunter2 "': the spaces are not the secret
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if _SHELL_DEFAULT_BEFORE.search(text, max(0, start - 80), start):  # "${DB_PASSWORD:-s3cret}": the default
        if text.startswith(("-", "="), start, end):
            start += 1
        if text.endswith("}", start, end) and "{" not in text[start:end]:
            end -= 1
    value = text[start:end]
    if start == end or (shape.reject is not None and shape.reject.fullmatch(value)):
        return best
    verified = True
    if shape.validator is not None and not shape.validator(value):
        end, verified = _valid_prefix(text, start, end, shape)
    if best is None or (verified, end - start) > (best[2], best[1] - best[0]):
        return (start, end, verified)
    return best


def _valid_prefix(text: str, start: int, end: int, shape: ValueShape) -> tuple[int, bool]:
    """The longest shorter value, cut at a word end, that still has the shape and validates.

    "Tél : 06 12 34 56 78 12 rue…" is the number without the street number; when no prefix
    validates, the whole value is kept, unverified (fail closed).
    """
    validate = shape.strict or shape.validator
    assert validate is not None, "called only for a shape with a validator"
    for cut in range(end - 1, start, -1):
        if text[cut - 1].isalnum() and not text[cut].isalnum() and \
                (shape.value is None or shape.value.fullmatch(text, start, cut)) and validate(text[start:cut]):
            return cut, True
    return end, False


def _match_value(text: str, pos: int, rule: KeywordRule) -> tuple[int, int, bool] | None:
    """The longest value right after `pos` (within the rule's gap) and whether it validates."""
    best: tuple[int, int, bool] | None = None
    stop = pos + _MAX_READ_AFTER
    for matcher, shape in rule.matchers:
        m = matcher.match(text, pos, stop)
        if m is None or m.start("value") - pos > rule.max_gap:
            continue
        best = _better(best, m, matcher, shape, text)
    if best is not None and stop < len(text) and _VALUE_RUN.fullmatch(text, best[1], stop):
        # reading stopped inside the value's run (the value may end a character before, on a "." or ":" a shape
        # does not end on): the value goes on to the run's end, the next space, quote or separator
        best = (best[0], _VALUE_RUN.match(text, best[1]).end(), best[2])
    return best


# What a value cut where reading stopped runs on over: no space, quote or separator (a JSON string's end)
_VALUE_RUN = regex.compile(r"[^\s\"'`<>,;|]*")
