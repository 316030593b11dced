"""Tables: a header cell that is a keyword labels the cells of its column.

A table is a run of at least two consecutive lines that split into the same
number of cells on one delimiter: "|" (Markdown, with its |---| row), tab, ";"
or "," (CSV, with "quoted, cells"); or, in plain text laid out with spaces,
lines whose cells (runs of words, two spaces or more between them) start at the
columns of a header's three cells or more, a header without digits. When a
header cell, folded like a keyword ("date_de_naiss.", "N° de sécurité sociale",
"spanish_dni"), is a keyword of the keyword rules or ends with one, every cell
below it that a value shape of one of those rules matches whole becomes a span
of that rule (or, for a suppress rule, a suppressed region). One pass over the
lines: linear in the length of the text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import regex

from ..spans import Span, Suppression
from .keywords import KeywordRule, KeywordRules, fold_keyword

DELIMITERS = ("|", "\t", ";", ",")
ALIGNED = "  "  # no delimiter: columns of a text laid out with spaces
MAX_CELL_CHARS = 300
_LINE = regex.compile(r"[^\n]*\n?")
# The rule under a header: Markdown's "|---|:--:|", psql's "----+----"
_MARKDOWN_RULE = regex.compile(r"\s*[|+]?(?:\s*:?-{2,}:?\s*[|+])+\s*:?-*:?\s*")
_TRIM = " \t\r\"'"
_PARENTHESES = regex.compile(r"\([^()]*\)")  # "numéro_national_(belgique)" is "numéro national"
_ALIGNED_CELL = regex.compile(r"\S+(?: \S+)*")
_NUMBER_IN_NAME = regex.compile(r"(?<![\p{L}_])\d")  # a number, not the digit that ends a name ("phone2")


def find_table_spans(text: str, rules: KeywordRules, names_a_field: Callable[[str], bool] = lambda name: False
                     ) -> tuple[list[Span], list[Suppression]]:
    """Spans and suppressed regions found through the header cells of the tables in `text`; a form's
    lines (`is_form`: keys that are keywords or `names_a_field`) are left to the keyword rules."""
    spans: list[Span] = []
    suppressions: list[Suppression] = []
    if not rules.rules:
        return spans, suppressions
    for header, rows in _tables(text):
        if is_form(text, header, rows, lambda cell: bool(_column_rules(text, [cell], rules))
                   or names_a_field(text[cell[0]:cell[1]])):
            continue  # its keys are read as keywords, line by line, like prose
        columns = _column_rules(text, header, rules)
        for cells in rows:
            for column, (start, end) in enumerate(cells):
                for rule_index in columns.get(column, ()):
                    if _label_cell(text, start, end, rules.rules[rule_index], spans, suppressions):
                        break
    return spans, suppressions


def is_form(text: str, header: list[tuple[int, int]], rows: list[list[tuple[int, int]]],
            is_key: Callable[[tuple[int, int]], bool]) -> bool:
    """Two cells a line, the first cells keys (`is_key`: half of the lines, two at least) and the first
    line's value none: a form's "NOM ET PRÉNOM | Dupont" lines, each named by the key on its line, not
    a table under its first line ("DATE | 12/03" holds no name)."""
    lines = [header, *rows]
    if any(len(cells) != 2 for cells in lines) or is_key(header[1]):
        return False
    return sum(is_key(cells[0]) for cells in lines) >= max(2, (len(lines) + 1) // 2)


def named_tables(text: str) -> Iterator[tuple[list[tuple[int, int]], list[list[tuple[int, int]]]]]:
    """The header's cells and each row's cells of the tables of `text` whose header reads as field
    names: short cells (at most 4 words, 40 characters), no sentence's end, no number (lines of prose
    with as many commas are no table)."""
    for header, rows in _tables(text):
        if all(_reads_as_field_name(text[start:end]) for start, end in header):
            yield header, rows


def table_fields(text: str, header: list[tuple[int, int]], rows: list[list[tuple[int, int]]]
                 ) -> Iterator[tuple[int, int, str, tuple[str, ...]]]:
    """(start, end, header, the table's headers) of every cell under a header of one of the `named_tables`."""
    names = tuple(text[start:end] for start, end in header)
    for cells in rows:
        for (start, end), name in zip(cells, names):
            if start < end and end - start <= MAX_CELL_CHARS:
                yield start, end, name, names


def _reads_as_field_name(cell: str) -> bool:
    """ "Nom de famille", "Date de naiss.", "N° client", "card_last4", "address_line_2"; not "emploie 250
    personnes." (a sentence's end), not a number ("2024", "N° 12", "12,50")."""
    words = cell.split()
    if len(cell) > 40 or len(words) > 4 or _NUMBER_IN_NAME.search(cell) or cell.endswith(("!", "?")):
        return False
    return not (cell.endswith(".") and len(words[-1]) > 7)


def _tables(text: str) -> Iterator[tuple[list[tuple[int, int]], list[list[tuple[int, int]]]]]:
    """The tables of `text`: the header's cells and each row's cells."""
    if "\n" not in text:
        return
    lines = [(m.start(), m.end() - (1 if m.group().endswith("\n") else 0)) for m in _LINE.finditer(text) if m.group()]
    i = 0
    while i < len(lines) - 1:
        table = _table_at(text, lines, i)
        if table is None:
            i += 1
            continue
        header, rows, last = table
        yield header, rows
        i = last + 1


Table = tuple[list[tuple[int, int]], list[list[tuple[int, int]]], int]  # header's cells, rows' cells, last line


def _table_at(text: str, lines: list[tuple[int, int]], i: int) -> Table | None:
    """The table whose header is line `i`: its header's cells, each row's cells and its last line's index."""
    start, end = lines[i]
    for delimiter in DELIMITERS:
        if delimiter not in text[start:end]:
            continue
        count = _count(text, start, end, delimiter)
        if count < (2 if delimiter == "," else 1):
            continue
        rows = [i]
        j = i + 1
        if delimiter == "|" and j < len(lines) and _MARKDOWN_RULE.fullmatch(text, *lines[j]):
            j += 1
        while j < len(lines) and _count(text, *lines[j], delimiter) == count:
            rows.append(j)
            j += 1
        if len(rows) >= 2:
            return (_cells(text, *lines[i], delimiter), [_cells(text, *lines[row], delimiter) for row in rows[1:]],
                    rows[-1])
    return _aligned_table_at(text, lines, i)


def _aligned_table_at(text: str, lines: list[tuple[int, int]], i: int) -> Table | None:
    """The table laid out with spaces whose header is line `i`: every row's cells (two at least; as many as
    the header's, three or more, in the first row) start at the columns of the header's, a row with empty
    cells too ("5    (empty)" of a ward's list: an empty cell at the header's column); a full row may drift
    one character from them (a table typed by hand: `_at_header_columns`). A form's line ("Login:
    jdoe42") ends the table."""
    header = _cells(text, *lines[i], ALIGNED)
    columns = [start - lines[i][0] for start, _ in header]
    if len(columns) < 3 or any(c.isdigit() for c in text[lines[i][0]:lines[i][1]]):
        return None  # two columns are a form's "KEY  value" lines, not a table; a header holds no number
    rows: list[list[tuple[int, int]]] = []
    for j in range(i + 1, len(lines)):  # by index: a slice of the lines after each header would be quadratic
        line_start, line_end = lines[j]
        cells = _cells(text, line_start, line_end, ALIGNED)
        row = _at_header_columns([start - line_start for start, _ in cells], columns)
        if row is None or row != columns and (not rows or len(row) < 2) or _is_form_key(text, cells[0]):
            break
        by_column = dict(zip(row, cells))
        rows.append([by_column.get(column, (min(line_start + column, line_end),) * 2) for column in columns])
    return (header, rows, i + len(rows)) if rows else None


def _is_form_key(text: str, cell: tuple[int, int]) -> bool:
    """A row's first cell that ends with ":" is a form's key ("Login:     jdoe42"), not a table's value."""
    start, end = cell
    return end > start and text[end - 1] == ":"


def _at_header_columns(row: list[int], header: list[int]) -> list[int] | None:
    """A row's cell columns as the header's: a row with a cell under each of the header's may start each one
    character beside it (a table typed by hand drifts: "UPN   Cand" over "H8012   4417" one column to the
    left); a row with fewer cells starts each at one of the header's columns. None where a cell starts at
    none."""
    if len(row) == len(header):
        return header if all(abs(column - head) <= 1 for column, head in zip(row, header)) else None
    return row if set(row) <= set(header) else None


def _count(text: str, start: int, end: int, delimiter: str) -> int:
    """Delimiters in a line, those inside "quoted" CSV cells excepted."""
    if delimiter not in ",;" or '"' not in text[start:end]:
        return text.count(delimiter, start, end)
    return len(_cells(text, start, end, delimiter)) - 1


def _cells(text: str, start: int, end: int, delimiter: str) -> list[tuple[int, int]]:
    """[start, end) of each cell of a line, trimmed of spaces and quotes; "quoted, cells" stay whole."""
    if delimiter == ALIGNED:
        if "  " not in text[start:end]:
            return [_trimmed(text, start, end)]
        return [m.span() for m in _ALIGNED_CELL.finditer(text, start, end)]
    bounds: list[tuple[int, int]] = []
    cell_start = start
    quoted = False
    for pos in range(start, end):
        ch = text[pos]
        if ch == '"' and delimiter in ",;":
            quoted = not quoted
        elif ch == delimiter and not quoted:
            bounds.append((cell_start, pos))
            cell_start = pos + 1
    bounds.append((cell_start, end))
    if delimiter == "|" and text[start:end].strip().startswith("|"):
        bounds = bounds[1:]
    if delimiter == "|" and text[start:end].strip().endswith("|"):
        bounds = bounds[:-1]
    return [_trimmed(text, s, e) for s, e in bounds]


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _TRIM:
        start += 1
    while end > start and text[end - 1] in _TRIM:
        end -= 1
    return start, end


def _column_rules(text: str, header: list[tuple[int, int]], rules: KeywordRules) -> dict[int, tuple[int, ...]]:
    """Column index -> the rules of the keyword its header cell is, or ends with."""
    columns = {}
    for column, (start, end) in enumerate(header):
        if end - start > MAX_CELL_CHARS:
            continue
        words = fold_keyword(_PARENTHESES.sub(" ", text[start:end])).split()
        for i in range(len(words)):
            key = " ".join(words[i:])
            if key in rules.by_key:
                columns[column] = rules.by_key[key]
                break
    return columns


def _label_cell(text: str, start: int, end: int, rule: KeywordRule, spans: list[Span],
                suppressions: list[Suppression]) -> bool:
    if start >= end or end - start > MAX_CELL_CHARS:
        return False
    for matcher, shape in rule.cell_matchers:
        if not matcher.fullmatch(text, start, end):
            continue
        value = text[start:end]
        if shape.reject is not None and shape.reject.fullmatch(value):
            continue
        if rule.label is None:
            suppressions.append(Suppression(start, end, rule.suppress))
        else:
            verified = shape.validator(value) if shape.validator else True
            spans.append(Span(start, end, rule.label, rule.score, "keyword", verified))
        return True
    return False
