import pytest
from hypothesis import given
from hypothesis import strategies as st

from alias_engine import placeholders
from alias_engine.errors import MappingError
from alias_engine.masks import check_placeholder_format, mask_spans, value_key
from alias_engine.restore import unmask
from alias_engine.spans import Span


def spans_for(text, *pieces):
    out = []
    for value, label in pieces:
        start = text.index(value, out[-1].end if out else 0)
        out.append(Span(start, start + len(value), label))
    return out


def test_placeholders_are_numbered_per_label_and_consistent():
    text = "Jean Dupont a écrit à Marie. JEAN  DUPONT, IBAN FR76 3000 6000 0112 3456 7890 189 = FR7630006000011234567890189"
    spans = spans_for(text, ("Jean Dupont", "PERSON"), ("Marie", "PERSON"), ("JEAN  DUPONT", "PERSON"),
                      ("FR76 3000 6000 0112 3456 7890 189", "IBAN"), ("FR7630006000011234567890189", "IBAN"))
    result = mask_spans(text, spans)
    assert result.text == "[PERSON_1] a écrit à [PERSON_2]. [PERSON_1], IBAN [IBAN_1] = [IBAN_1]"
    assert result.mapping["[PERSON_1]"] == ["Jean Dupont", "JEAN  DUPONT"]
    assert result.mapping["[PERSON_2]"] == "Marie"
    assert unmask(result.text, result.mapping) == text


def test_restore_of_edited_text_uses_the_first_form():
    mapping = {"[PERSON_1]": ["Jean Dupont", "JEAN DUPONT"]}
    assert unmask("Bonjour [PERSON_1]", mapping) == "Bonjour Jean Dupont"


def test_custom_placeholder_format():
    text = "call Bob"
    result = mask_spans(text, spans_for(text, ("Bob", "PERSON")), "<<{label}#{n}>>")
    assert result.text == "call <<PERSON#1>>"
    assert unmask(result.text, result.mapping) == text


@pytest.mark.parametrize("fmt", ["[{label}]", "{name}_{n}", "{0}", "<{n}>", "{label}{n}", "[{label}_{n}x]"])
def test_bad_placeholder_formats_are_refused(fmt):
    with pytest.raises(ValueError):
        check_placeholder_format(fmt)


def test_value_keys():
    assert value_key("PHONE", "06 12 34 56 78") == value_key("PHONE", "06.12.34.56.78")
    assert value_key("PERSON", "Jean  Dupont") == value_key("PERSON", "jean dupont")
    assert value_key("SECRET", "Hunter2") != value_key("SECRET", "hunter2")


@pytest.mark.parametrize("mapping", [["x"], {"[A_1]": 3}, {"": "x"}, {"[A_1]": []}, {"[A_1]": ["a", 1]}])
def test_malformed_mappings_are_refused(mapping):
    with pytest.raises(MappingError):
        unmask("text", mapping)


words = st.text(alphabet="abcdefgh éà[]_1", min_size=1, max_size=8)


@given(st.lists(st.tuples(words, st.booleans()), max_size=12))
def test_mask_then_unmask_is_the_identity(chunks):
    text, spans, pos = "", [], 0
    for chunk, is_pii in chunks:
        text += chunk + " "
        if is_pii:
            spans.append(Span(pos, pos + len(chunk), "PERSON"))
        pos += len(chunk) + 1
    result = mask_spans(text, spans)
    assert unmask(result.text, result.mapping) == text


@pytest.mark.parametrize("written", ["[PERSON_1]", "[person 1]", "{Person-1}", "PERSON_1"])
def test_placeholder_like_text_already_in_the_input_keeps_its_number(written):
    text = f"Voir {written} et Marie Curie"
    result = mask_spans(text, spans_for(text, ("Marie Curie", "PERSON")))
    assert "[PERSON_2]" in result.text
    assert unmask(result.text, result.mapping) == text


def test_masking_masked_text_again_round_trips():
    text = "Jean Dupont writes to Marie"
    once = mask_spans(text, spans_for(text, ("Jean Dupont", "PERSON"), ("Marie", "PERSON")))
    again_text = once.text + " and Paul"
    twice = mask_spans(again_text, spans_for(again_text, ("Paul", "PERSON")))
    assert twice.text == "[PERSON_1] writes to [PERSON_2] and [PERSON_3]"
    assert unmask(twice.text, twice.mapping) == again_text


def test_different_ip_addresses_get_different_placeholders():
    text = "server 10.12.3.4 and 101.2.3.4"
    result = mask_spans(text, spans_for(text, ("10.12.3.4", "IP_ADDRESS"), ("101.2.3.4", "IP_ADDRESS")))
    assert result.text == "server [IP_ADDRESS_1] and [IP_ADDRESS_2]"


def test_the_placeholder_grammar_doctests_run():
    import doctest

    assert doctest.testmod(placeholders).failed == 0
