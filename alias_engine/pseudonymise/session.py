"""A conversation with an LLM: mask every turn consistently, restore every answer.

```python
session = engine.session()                      # placeholders: [PERSON_1], [IBAN_1]...
m1 = session.mask("Bonjour, je suis Jean Dupont")
m2 = session.mask("M. Dupont a appelé hier.")   # Dupont → [PERSON_1] again
answer = session.unmask(llm_answer)             # values of every turn
```
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import phonenumbers
import regex

from ..detectors.patterns import first_valid_number
from ..errors import AliasEngineError, InputError, MappingError
from ..labels import BUILTIN, LabelSet
from ..masks import MaskResult, value_key
from ..merge import split_at_breaks
from ..normalize import check_text
from ..placeholders import DEFAULT_PLACEHOLDER, check_placeholder_format
from ..repeats import Lenders, repeated_values
from ..resolve.lexicon import Lexicon
from ..restore import (
    Alias,
    RestoreReport,
    RestoreTable,
    Write,
    elided_article,
    misreadings,
    norm_key,
    restore,
    restore_mapping,
)
from ..spans import Span
from .linking import NameParts, PeopleIndex, Person, find_person, gender_from_context, split_name
from .names import NameData, load_names, pick_first, pick_last, starts_with_vowel
from .stream import StreamRestorer
from .surrogates import Context, fake_value, seeded

if TYPE_CHECKING:
    from .vault import VaultKeys

MODES = ("placeholder", "surrogate")
_WORD = regex.compile(r"\w+")

_MAX_ATTEMPTS = 60
_ADDRESS_PARTS = regex.compile(r",\s*|\n")
_SUBSTRING_CHECK_LIMIT = 1_000_000
_MAX_REWRITES = 3  # rounds of "write as a placeholder what would not come back", then placeholders only


@dataclass(frozen=True)
class _Written(Write):
    """A write of this turn, with the stretch of the input it replaced and its span's start."""

    text_start: int = 0
    text_end: int = 0
    span_start: int = 0


def _to_text(start: int, end: int, writes: list[_Written]) -> tuple[int, int]:
    """Offsets of a stretch of the masked text that no write covers, in the input text."""
    shift = 0
    for w in writes:
        if w.end > start:
            break
        shift = w.text_end - w.end
    return start + shift, end + shift


def _label_by_key(labels: LabelSet) -> dict[str, str]:
    return {label.replace("_", ""): label for label in labels}


@dataclass
class Entity:
    """One real value (a person, an IBAN...) and its pseudonym; `original` is what a bare
    placeholder restores to (for a person, the fullest name seen)."""

    label: str
    original: str
    name: str = ""      # the placeholder (surrogate mode: only for a value too short to fake)
    fake: str = ""      # surrogate mode: the surrogate of `original`
    person: int = -1    # index in Session._people for PERSON
    words: int = 0


@dataclass
class _State:
    entities: list[Entity] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    people: list[Person] = field(default_factory=list)
    person_entity: list[int] = field(default_factory=list)
    person_origin: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    given_map: dict[str, str] = field(default_factory=dict)
    family_map: dict[str, str] = field(default_factory=dict)
    months: dict[str, list[int]] = field(default_factory=dict)
    aliases: list[Alias] = field(default_factory=list)       # each mention as written
    part_aliases: list[Alias] = field(default_factory=list)  # a fake first or last name alone
    alias_of: dict[str, str] = field(default_factory=dict)   # mention form -> original (first wins)
    fake_keys: set[str] = field(default_factory=set)
    original_keys: set[str] = field(default_factory=set)


class Session:
    """Masks the turns of one conversation with one consistent set of pseudonyms.

    `detector`: an `Engine` (or any object with `detect(text, lang)`), or a
    function `text -> spans`; None gives a session that can only unmask (one
    loaded to restore an answer). `mode`: "placeholder" (default) or "surrogate"
    (realistic fake values). `key`: secret bytes that make surrogates
    deterministic (default: random, kept in the saved vault).
    """

    def __init__(self, detector: Any = None, *, mode: str = "placeholder", key: bytes | str | None = None,
                 placeholder: str | None = None, lang: str | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if isinstance(key, str):
            key = key.encode("utf-8")
        if key is not None and (not isinstance(key, bytes) or not key):
            raise ValueError("key must be non-empty bytes or str")
        self.mode = mode
        self.placeholder = check_placeholder_format(
            placeholder or getattr(detector, "placeholder", None) or DEFAULT_PLACEHOLDER)
        self.lang = lang
        self._detector = detector
        # the detecting engine's labels (those its rules files declare included): how values of
        # each label are keyed, faked and restored; a session that only unmasks may be given them
        labels = getattr(getattr(detector, "rules", None), "labels", None)
        self.labels: LabelSet = labels if isinstance(labels, LabelSet) else BUILTIN
        self._key = key or os.urandom(32)
        self._state = _State()
        self._check = _TextCheck("")  # the text of the turn being masked: no surrogate may be written in it
        self._table: RestoreTable | None = None
        # named entities and (part?, alias) not in `_table` yet
        self._unlisted: list[Entity] = []
        self._unlisted_aliases: list[tuple[bool, Alias]] = []
        self._earlier = Lenders(self.labels)  # what the values of earlier turns lend to this one
        self._lent = 0  # how many entities `_earlier` holds
        self._relend: list[Entity] = []  # entities whose original grew since (a fuller name)
        self._people: PeopleIndex | None = None
        self._names: NameData = load_names()

    # --- masking ---------------------------------------------------------------------

    def _detect(self, text: str, lang: str | None) -> list[Span]:
        detector = self._detector
        if detector is None:
            raise AliasEngineError("this session has no detector: build it with Session(engine) or "
                                   "engine.session() to mask (a session without one can only unmask)")
        if hasattr(detector, "detect"):
            spans = detector.detect(text, lang) if lang else detector.detect(text)
        else:
            spans = detector(text)
        spans = sorted(spans, key=lambda s: (s.start, s.end))
        for a, b in zip(spans, spans[1:]):
            if b.start < a.end or not isinstance(a, Span):
                raise AliasEngineError("the detector returned overlapping or malformed spans")
        if spans and (not isinstance(spans[-1], Span) or spans[-1].end > len(text)):
            raise AliasEngineError("the detector returned a span outside the text")
        entities = self._state.entities
        if entities:  # a value masked in an earlier turn stays masked where the detector missed it now
            lexicon = getattr(getattr(detector, "rules", None), "lexicon", None)
            if not isinstance(lexicon, Lexicon):  # a detector that is no Engine: no word lists
                lexicon = Lexicon()
            for entity in entities[self._lent:] + self._relend:
                self._earlier.lend(entity.original, entity.label, 1.0, "keyword", lexicon)
            self._lent, self._relend = len(entities), []
            spans = sorted(spans + repeated_values(text, spans, lexicon, self._earlier, self.labels),
                           key=lambda s: (s.start, s.end))
        return split_at_breaks(spans, text)  # whatever the detector, no pseudonym swallows structure

    def mask(self, text: str, lang: str | None = None) -> MaskResult:
        """`text` with every detected value replaced by its pseudonym in this session.

        `MaskResult.mapping` holds this turn's pseudonyms (placeholder or
        surrogate → original as written, a list when written several ways) so
        `alias_engine.unmask(result.text, result.mapping)` gives `text` back.

        The round trip holds by construction: the masked text is read back with
        the restore pattern (`restore.misreadings`), and a surrogate that would not
        come back as written (glued to a word, read together with its neighbour)
        is written as a placeholder instead, and the author's own text that restore
        would take for a pseudonym is masked too.
        """
        check_text(text)
        lang = lang or self.lang
        detected = self._detect(text, lang)
        from ..language import guess_language

        chosen = lang if lang in ("fr", "en") else guess_language(text)
        forced: set[tuple[int, int]] = set()  # spans written as placeholders whatever the mode
        extra: list[Span] = []
        for attempt in range(_MAX_REWRITES + 1):
            spans, guarded = self._guard(text, sorted(detected + extra, key=lambda s: (s.start, s.end)))
            if not spans:
                return MaskResult(text, {}, ())
            forced |= guarded
            if attempt == _MAX_REWRITES:  # last resort: placeholders only, which brackets keep apart
                forced |= {(s.start, s.end) for s in spans}
            result, writes = self._render(text, spans, chosen, forced)
            bad, misread = self._misread(text, result, writes)
            if not bad and not misread:
                break
            forced |= {(writes[k].span_start, writes[k].text_end) for k in bad}
            extra += [Span(start, end, "IDENTIFIER", 1.0, "pattern") for start, end in misread]
        return result

    def _render(self, text: str, spans: list[Span], lang: str, forced: set[tuple[int, int]]
                ) -> tuple[MaskResult, list[_Written]]:
        check = self._check = _TextCheck(text)
        for span in spans:
            value = text[span.start:span.end]
            self._state.original_keys.add(norm_key(value))
            for word in _WORD.findall(value):
                if word.isalpha():
                    self._state.original_keys.add(word.casefold())
        replacements: dict[int, str] = {}
        starts: dict[int, int] = {}
        order = sorted(range(len(spans)), key=lambda i: spans[i].label != "PERSON")
        for i in order:
            span = spans[i]
            if (span.start, span.end) in forced:
                continue
            try:
                if span.label == "PERSON":
                    replacements[i] = self._person(text, span, lang, check)
                else:
                    replacements[i] = self._value(text, span, lang, check)
            except MappingError:  # no free surrogate: a placeholder below
                if self.mode == "placeholder":
                    raise
        names = self.table().values  # every placeholder named so far
        last = 0
        for i, span in enumerate(spans):
            start = span.start
            if i not in replacements or replacements[i] in names:
                # an elided article that restore would rewrite in front of a placeholder is the author's
                start = max(last, span.start - elided_article(text, span.start, text[span.start:span.end]))
            if i not in replacements or (start != span.start and self.mode == "surrogate"):
                replacements[i] = self._placeholder_for(span.label, text[start:span.end])
            starts[i] = start
            last = span.end
        out, writes, last, pos = [], [], 0, 0
        forms: dict[str, list[str]] = {}
        for i, span in enumerate(spans):
            before = text[last:starts[i]]
            out.append(before)
            pos += len(before)
            written = text[starts[i]:span.end]
            out.append(replacements[i])
            writes.append(_Written(pos, pos + len(replacements[i]), written, starts[i], span.end, span.start))
            pos += len(replacements[i])
            forms.setdefault(replacements[i], []).append(written)
            last = span.end
        out.append(text[last:])
        mapping = {k: v[0] if len(set(v)) == 1 else v for k, v in forms.items()}
        return MaskResult("".join(out), mapping, tuple(spans)), writes

    def _misread(self, text: str, result: MaskResult, writes: list[_Written]) -> tuple[set[int], list[tuple[int, int]]]:
        """Writes that a restore would not give back exactly, and stretches of author text (offsets
        into `text`) that it would change: by the turn's mapping, and in surrogate mode by the session."""
        turn = RestoreTable(result.mapping, labels=self.labels)
        tables = [(turn, lambda: restore_mapping(result.text, result.mapping, turn).text)]
        if self.mode == "surrogate":
            tables.append((self.table(), lambda: restore(result.text, self.table()).text))
        bad: set[int] = set()
        misread: list[tuple[int, int]] = []
        for table, restored in tables:
            if restored() == text:
                continue
            b, m = misreadings(result.text, writes, table)
            if not b and not m:  # the list forms of a value came back in another order
                b = set(range(len(writes)))
            bad |= b
            misread += [_to_text(start, end, writes) for start, end in m]
        return bad, misread

    def _placeholder_for(self, label: str, written: str) -> str:
        """A placeholder that stands for exactly `written` (surrogate mode, when a surrogate would
        not come back as written)."""
        state = self._state
        key = f"{label}\x02{written}"
        eid = state.index.get(key)
        if eid is None:
            eid = state.index[key] = len(state.entities)
            entity = Entity(label, written)
            self._name_entity(entity)
            state.entities.append(entity)
        entity = state.entities[eid]
        if not entity.name:
            self._name_entity(entity)
        return entity.name

    def _guard(self, text: str, spans: list[Span]) -> tuple[list[Span], set[tuple[int, int]]]:
        """Also mask what the restore would take for a pseudonym: a placeholder-shaped
        string or an earlier turn's surrogate written in the text itself. Returns the
        spans and the added ones (what only becomes one once its neighbour is masked,
        `mask` finds when it reads its own text back)."""
        table = self.table()
        extra = []
        found = [(m, next(k for k in ("sur", "ex", "tb", "bare") if m.groupdict().get(k) is not None))
                 for m in table.pattern.finditer(text)]
        spans_iter = iter(spans)
        current = next(spans_iter, None)
        for m, kind in found:
            g = m.groupdict()
            start, end = m.span(kind)
            while current is not None and current.end <= start:
                current = next(spans_iter, None)
            if current is not None and current.start < end:
                continue
            if kind == "sur":
                alias = table.exact_alias.get(g["sur"]) or table.norm_alias.get(norm_key(g["sur"]))
                label = alias.label if alias else "IDENTIFIER"
            elif kind == "ex":
                label = self._label_of(g["ex"])
            else:
                raw = g.get("tl") or g.get("bl") or ""
                label = _label_by_key(self.labels).get(raw.replace(" ", "").replace("_", "").replace("-", "").upper(), "IDENTIFIER")
            extra.append(Span(start, end, label, 1.0, "pattern"))
        if not extra:
            return spans, set()
        return sorted(spans + extra, key=lambda s: (s.start, s.end)), {(s.start, s.end) for s in extra}

    def _label_of(self, name: str) -> str:
        for entity in self._state.entities:
            if entity.name == name:
                return entity.label
        return "IDENTIFIER"

    def _new_entity(self, label: str, original: str) -> int:
        state = self._state
        entity = Entity(label, original)
        if self.mode == "placeholder":
            self._name_entity(entity)
        state.entities.append(entity)
        return len(state.entities) - 1

    def _name_entity(self, entity: Entity) -> None:
        counters = self._state.counters
        counters[entity.label] = counters.get(entity.label, 0) + 1
        entity.name = self.placeholder.format(label=entity.label, n=counters[entity.label])
        self._unlisted.append(entity)

    def _people_index(self) -> PeopleIndex:
        if self._people is None or self._people.people is not self._state.people:
            self._people = PeopleIndex(self._state.people)
        return self._people

    def _person(self, text: str, span: Span, lang: str, check: _TextCheck) -> str:
        state, names = self._state, self._names
        value = text[span.start:span.end]
        parts = split_name(value, names)
        gender = gender_from_context(text, span.start, span.end, names) or names.gender_of(parts.given)
        key = f"PERSON\x00{value_key('PERSON', value)}"
        known = state.index.get(key)
        # a name already seen keeps its pseudonym, even if it has become ambiguous since
        found = state.entities[known].person if known is not None else find_person(state.people, parts, self._people_index())
        words = len(parts.tokens)
        if found is None:
            person = Person(parts.given, parts.family, parts.initial, gender)
            state.people.append(person)
            found = len(state.people) - 1
            eid = self._new_entity("PERSON", value)
            state.entities[eid].person = found
            state.entities[eid].words = words
            state.person_entity.append(eid)
            state.person_origin.append(names.origin_of(parts.given, parts.family)
                                       or names.rules.get("origin_by_lang", {}).get(lang, "fr"))
            state.index[key] = eid
        else:
            person = state.people[found]
            person.given = person.given or parts.given
            person.family = person.family or parts.family
            person.initial = person.initial or parts.initial
            self._people_index().update(found)
            person.gender = person.gender or gender
            entity = state.entities[state.person_entity[found]]
            if (words, len(value)) > (entity.words, len(entity.original)):
                entity.original, entity.words = value, words
                self._unlisted.append(entity)
                self._relend.append(entity)
            if state.person_origin[found] in ("fr", "en"):
                state.person_origin[found] = names.origin_of(person.given, person.family) or state.person_origin[found]
        state.index.setdefault(key, state.person_entity[found])
        entity = state.entities[state.person_entity[found]]
        if self.mode == "placeholder":
            return entity.name
        fake = self._render_person(value, parts, found, check)
        self._add_alias(fake, value, "PERSON")
        return fake

    def _render_person(self, value: str, parts: NameParts, index: int, check: _TextCheck) -> str:
        person = self._state.people[index]
        origin = self._state.person_origin[index]
        out, last, family_done = [], 0, False
        for start, end, role in parts.tokens:
            word = value[start:end]
            gap = value[last:start]
            if role == "family":
                if family_done:
                    last = end
                    continue
                family_done = True
                fam_end = max(e for s, e, r in parts.tokens if r == "family" and s >= start)
                word = value[start:fam_end]
                fake = self._fake_family(word, origin, check)
                end = fam_end
            elif role == "given":
                fake = "-".join(self._fake_given(w, person.gender, origin, check) for w in word.split("-"))
            else:  # initial: the fake first name's initial
                base = self._fake_given(person.given, person.gender, origin, check) if person.given else "X"
                fake = base[:1].upper() + word[1:]
            out.append(gap)
            out.append(fake.upper() if _caps(word) else fake.lower() if word.islower() else fake)
            last = end
        out.append(value[last:])
        return "".join(out)

    def _fake_given(self, word: str, gender: str, origin: str, check: _TextCheck) -> str:
        state = self._state
        key = word.casefold()
        if key not in state.given_map:
            gender = gender or self._names.gender_of(word)  # the text (Mme, né) over the name list
            for attempt in range(_MAX_ATTEMPTS):
                rng = seeded(self._key, "given", key, str(attempt))
                fake = pick_first(self._names, rng, origin, gender, vowel=starts_with_vowel(word),
                                  avoid=self._avoid())
                if self._free(fake, check):
                    break
            else:
                raise MappingError("could not find a free surrogate first name")
            state.given_map[key] = fake
            state.fake_keys.add(fake.casefold())
            self._add_alias(fake, _name_case(word), "PERSON", part=True)
        return state.given_map[key]

    def _fake_family(self, word: str, origin: str, check: _TextCheck) -> str:
        state = self._state
        key = " ".join(word.casefold().split())
        if key not in state.family_map:
            for attempt in range(_MAX_ATTEMPTS):
                rng = seeded(self._key, "family", key, str(attempt))
                fake = pick_last(self._names, rng, origin, vowel=starts_with_vowel(word), avoid=self._avoid())
                if self._free(fake, check):
                    break
            else:
                raise MappingError("could not find a free surrogate last name")
            state.family_map[key] = fake
            state.fake_keys.add(fake.casefold())
            self._add_alias(fake, _name_case(word), "PERSON", part=True)
        return state.family_map[key]

    def _avoid(self) -> set[str]:
        return self._state.fake_keys | self._state.original_keys

    def _free(self, fake: str, check: _TextCheck) -> bool:
        """Not a real value, not another value's surrogate, not written in the text."""
        key = norm_key(fake)
        state = self._state
        return key not in state.fake_keys and key not in state.original_keys and not check.contains(fake)

    def _value(self, text: str, span: Span, lang: str, check: _TextCheck) -> str:
        state = self._state
        value = text[span.start:span.end]
        operator = self.labels.spec(span.label).surrogate  # what the value is, whatever the label's name
        key = f"{span.label}\x00{_phone_key(value, lang) if operator == 'phone' else value_key(span.label, value, self.labels)}"
        # one value, one pseudonym, whatever labels detectors gave it (a rule's EMPLOYEE_ID, the model's IDENTIFIER)
        eid = state.index.get(key, state.index.get(f"\x03{value}"))
        if eid is not None:
            state.index[key] = eid
        else:
            eid = self._new_entity(span.label, value)
            state.index[key] = eid
            state.index.setdefault(f"\x03{value}", eid)
            if self.mode == "surrogate" and _too_short_to_fake(value):
                self._name_entity(state.entities[eid])
            elif self.mode == "surrogate":
                fake = self._generate(span.label, value, lang, check)
                if fake is None:  # no surrogate can be made: a placeholder, as for a short value
                    self._name_entity(state.entities[eid])
                else:
                    state.entities[eid].fake = fake
                    if operator == "address":
                        self._street_alias(fake, value, span.label)
        entity = state.entities[eid]
        if self.mode == "placeholder" or not entity.fake:
            return entity.name
        fake = _render_like(value, entity.original, entity.fake, operator, lang)
        if self._alias_original(fake) not in (None, value):
            # this spelling cannot be told apart once faked: it gets its own surrogate
            key = f"{span.label}\x01{value}"
            if key not in state.index:
                eid = state.index[key] = self._new_entity(span.label, value)
                state.entities[eid].fake = self._generate(span.label, value, lang, check, salt=value) or ""
            if not state.entities[state.index[key]].fake:
                return self._placeholder_for(span.label, value)
            fake = state.entities[state.index[key]].fake
        self._add_alias(fake, value, span.label)
        return fake

    def _alias_original(self, form: str) -> str | None:
        return self._state.alias_of.get(form)

    def _generate(self, label: str, value: str, lang: str, check: _TextCheck, salt: str = "") -> str | None:
        """A free surrogate for `value`, or None when none can be made (the value gets a placeholder)."""
        ctx = Context(self._fake_word, self._random_name, self._month, lang, self._fake_family_word)
        vkey = value_key(label, value, self.labels) + ("\x01" + salt if salt else "")
        for attempt in range(_MAX_ATTEMPTS):
            rng = seeded(self._key, label, vkey, str(attempt))
            try:
                fake = fake_value(label, value, rng, ctx, self.labels)
            except Exception:  # a value no generator can read (`XX12_3456`): never a crash, a placeholder
                return None
            if fake and self._free(fake, check) and norm_key(fake) != norm_key(value):
                self._state.fake_keys.add(norm_key(fake))
                return fake
        return None

    def _street_alias(self, fake: str, value: str, label: str) -> None:
        """The fake street line alone (an LLM often repeats only that) restores the real one."""
        fake_parts, real_parts = _ADDRESS_PARTS.split(fake), _ADDRESS_PARTS.split(value)
        if len(fake_parts) > 1 and len(real_parts) > 1 and len(fake_parts[0]) >= 8:
            self._add_alias(fake_parts[0], real_parts[0], label, part=True)

    def _fake_word(self, word: str) -> str | None:
        """The fake of a name written inside an e-mail or a URL (`jean` in jean.dupont@...)."""
        from .names import ascii_fold

        key = ascii_fold(word).casefold()
        for src in (self._state.given_map, self._state.family_map):
            for original, fake in src.items():
                if ascii_fold(original).casefold() == key:
                    return fake
        if self._names.is_first_name(word) and len(word) > 2:
            return self._fake_given(word, "", self._names.origin_of(word, ""), self._check)
        return None

    def _fake_family_word(self, word: str) -> str:
        return self._fake_family(word, self._names.origin_of("", word) or "fr", self._check)

    def _random_name(self, rng: random.Random) -> tuple[str, str]:
        origin = rng.choice(("fr", "en"))
        avoid = self._avoid()
        return (pick_first(self._names, rng, origin, "", vowel=None, avoid=avoid),
                pick_last(self._names, rng, origin, vowel=None, avoid=avoid))

    def _month(self, year: int, month: int) -> tuple[int, int]:
        """The same fake birth month for a date and a NIR of the same real month."""
        key = f"{year % 100:02d}-{month:02d}"
        if key not in self._state.months:
            rng = seeded(self._key, "month", key)
            shift = rng.choice([-3, -2, -1, 1, 2, 3])
            self._state.months[key] = [shift, rng.choice([m for m in range(1, 13) if m != month])]
        shift, fake_month = self._state.months[key]
        return year + shift, fake_month

    def _add_alias(self, form: str, original: str, label: str, part: bool = False) -> None:
        aliases = self._state.part_aliases if part else self._state.aliases
        if form != original and Alias(form, original, label) not in aliases:
            aliases.append(Alias(form, original, label))
            self._unlisted_aliases.append((part, aliases[-1]))
            if not part:
                self._state.alias_of.setdefault(form, original)
            self._state.fake_keys.add(norm_key(form))

    # --- restoring -------------------------------------------------------------------

    def table(self) -> RestoreTable:
        """The compiled restore table for everything masked so far."""
        state = self._state
        if self._table is None:
            values = {e.name: e.original for e in state.entities if e.name}
            # mentions first: a form written in a masked turn restores to exactly what it replaced
            self._table = RestoreTable(values, state.aliases, self.labels)
            self._table.add({}, part_aliases=state.part_aliases)
        elif self._unlisted or self._unlisted_aliases:  # added since: not the whole table again
            self._table.add({e.name: e.original for e in self._unlisted if e.name},
                            [a for part, a in self._unlisted_aliases if not part],
                            [a for part, a in self._unlisted_aliases if part])
        self._unlisted, self._unlisted_aliases = [], []
        return self._table

    def unmask(self, text: str) -> str:
        """`text` (an LLM answer) with the original values of every turn put back."""
        return self.unmask_report(text).text

    def unmask_report(self, text: str) -> RestoreReport:
        """`unmask`, plus how many pseudonyms were restored and the unknown placeholders left as written."""
        if not isinstance(text, str):
            raise InputError(f"text must be str, not {type(text).__name__}")
        return restore(text, self.table())

    def restorer(self) -> StreamRestorer:
        """A streaming restorer: `out = r.feed(chunk)` for every chunk, then `r.flush()`."""
        return StreamRestorer(self.table())

    @property
    def mapping(self) -> dict[str, str]:
        """Pseudonym → original: the placeholders (placeholder mode) or surrogate forms (surrogate mode)."""
        out = {e.name: e.original for e in self._state.entities if e.name}
        for alias in self._state.aliases + self._state.part_aliases:
            out.setdefault(alias.form, alias.original)
        return out

    def __repr__(self) -> str:  # never the values
        return f"Session(mode={self.mode!r}, values={len(self._state.entities)})"

    # --- persistence -----------------------------------------------------------------

    def save(self, path: str | Path, key: bytes | str | VaultKeys) -> None:
        """Write the session to `path`, encrypted and authenticated with `key` (a `VaultKeys`
        remembers derived keys across saves and loads: see `alias_engine.pseudonymise.vault`)."""
        from .vault import write_vault

        write_vault(Path(path), key, self.to_dict())

    @classmethod
    def load(cls, path: str | Path, key: bytes | str | VaultKeys, detector: Any = None) -> Session:
        """Read a session saved with `save`; MappingError on a wrong key or a damaged file."""
        from .vault import read_vault

        return cls.from_dict(read_vault(Path(path), key), detector)

    def to_dict(self) -> dict:
        s = self._state
        return {
            "version": 1, "mode": self.mode, "placeholder": self.placeholder, "lang": self.lang,
            "key": self._key.hex(),
            "entities": [[e.label, e.original, e.name, e.fake, e.person, e.words] for e in s.entities],
            "index": s.index,
            "people": [[p.given, p.family, p.initial, p.gender] for p in s.people],
            "person_entity": s.person_entity, "person_origin": s.person_origin,
            "counters": s.counters, "given_map": s.given_map, "family_map": s.family_map,
            "months": s.months, "aliases": [[a.form, a.original, a.label] for a in s.aliases],
            "part_aliases": [[a.form, a.original, a.label] for a in s.part_aliases],
            "fake_keys": sorted(s.fake_keys), "original_keys": sorted(s.original_keys),
        }

    @classmethod
    def from_dict(cls, data: dict, detector: Any = None) -> Session:
        try:
            if data.get("version") != 1:
                raise MappingError("unsupported session version")
            session = cls(detector, mode=data["mode"], key=bytes.fromhex(data["key"]),
                          placeholder=data["placeholder"], lang=data.get("lang"))
            s = session._state
            s.entities = [Entity(*row) for row in data["entities"]]
            s.index = {str(k): int(v) for k, v in data["index"].items()}
            s.people = [Person(*row) for row in data["people"]]
            s.person_entity = [int(i) for i in data["person_entity"]]
            s.person_origin = [str(o) for o in data["person_origin"]]
            s.counters = {str(k): int(v) for k, v in data["counters"].items()}
            s.given_map = dict(data["given_map"])
            s.family_map = dict(data["family_map"])
            s.months = {str(k): [int(x) for x in v] for k, v in data["months"].items()}
            s.aliases = [Alias(*row) for row in data["aliases"]]
            s.part_aliases = [Alias(*row) for row in data["part_aliases"]]
            for alias in s.aliases:
                s.alias_of.setdefault(alias.form, alias.original)
            s.fake_keys = set(data["fake_keys"])
            s.original_keys = set(data["original_keys"])
        except MappingError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError):
            raise MappingError("the session vault content is malformed") from None
        return session


class _TextCheck:
    """Whether a candidate surrogate is written anywhere in the current text."""

    def __init__(self, text: str) -> None:
        self.folded = text.casefold() if len(text) <= _SUBSTRING_CHECK_LIMIT else ""
        self.words = {w.casefold() for w in _WORD.findall(text)} if not self.folded else set()
        self.compact = norm_key(text) if len(text) <= _SUBSTRING_CHECK_LIMIT else ""

    def contains(self, fake: str) -> bool:
        if self.folded:
            return fake.casefold() in self.folded or norm_key(fake) in self.compact
        return any(w.casefold() in self.words for w in _WORD.findall(fake))


def _too_short_to_fake(value: str) -> bool:
    """A value whose surrogate could not be told apart from other text in an answer: a
    number of fewer than 6 digits (a fake `414` or `2024` would turn every `414` or year
    2024 of the answer into the real value) or fewer than 3 letters and digits. Such a
    value gets a placeholder even in surrogate mode."""
    alnum = [c for c in value if c.isalnum()]
    return len(alnum) < 3 or (len(alnum) < 6 and all(c.isdigit() for c in alnum))


def _name_case(word: str) -> str:
    """`dupont` (from an e-mail) or `DUPONT` → `Dupont`, for a name restored on its own."""
    if word.islower() or _caps(word):
        return regex.sub(r"(?<![\w'’])\w", lambda m: m.group().upper(), word.lower())
    return word


def _caps(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _phone_key(value: str, lang: str) -> str:
    """`+33612345678` for `06 12 34 56 78` and `+33 6 12 34 56 78`: one number, however written."""
    parsed = _parse_phone(value, lang)
    if parsed is None:
        return value_key("PHONE", value)
    return phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.E164)


def _parse_phone(value: str, lang: str) -> phonenumbers.PhoneNumber | None:
    return first_valid_number(value, (None,) if value.strip().startswith("+")
                              else (("FR", "GB", "US") if lang == "fr" else ("US", "GB", "FR")))


def _render_like(value: str, original: str, fake: str, operator: str, lang: str) -> str:
    """The entity's surrogate written the way this mention writes its value."""
    if value == original:
        return fake
    from .surrogates import compact, fill

    if operator in ("iban", "phone", "card", "national_id"):
        filled = fill(value, compact(fake).replace("+", ""))
        if filled is not None:
            return filled
    if operator == "phone":  # national here, international there: same number, this mention's style
        real = _parse_phone(original, lang)
        parsed = None
        if real is not None:
            try:
                parsed = phonenumbers.parse(fake, phonenumbers.region_code_for_number(real))
            except phonenumbers.NumberParseException:
                parsed = None
        if parsed is not None:
            cc, nsn = str(parsed.country_code), phonenumbers.national_significant_number(parsed)
            national = "".join(c for c in phonenumbers.format_number(
                parsed, phonenumbers.PhoneNumberFormat.NATIONAL) if c.isdigit())
            written = "".join(c for c in value if c.isdigit())
            for digits in ([f"00{cc}{nsn}", f"00{cc}0{nsn}"] if written.startswith("00") else
                           [cc + nsn, f"{cc}0{nsn}"] if "+" in value else [national]):
                filled = fill(value, digits)
                if filled is not None:
                    return filled
    if value.isupper() and not fake.isupper():
        return fake.upper()
    if value.islower() and not fake.islower():
        return fake.lower()
    return fake
