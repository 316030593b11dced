import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from alias_engine.normalize import normalize


def span_of(view, word):
    i = view.text.index(word)
    a, b = view.to_original(i, i + len(word))
    return view.original[a:b]


def test_ascii_text_is_its_own_view():
    view = normalize("call 06 12 34 56 78 now")
    assert view.text == "call 06 12 34 56 78 now"
    assert view.to_original(5, 19) == (5, 19)


def test_spaces_zero_width_and_full_width_digits():
    text = "Né le\u00a012/03/1985, tél\u202f: ０６ 12\u200b34, IBAN FR76\u20093000"
    view = normalize(text)
    assert view.text == "Né le 12/03/1985, tél : 06 1234, IBAN FR76 3000"
    assert span_of(view, "06") == "０６"
    assert span_of(view, "1234") == "12\u200b34"
    assert span_of(view, "FR76 3000") == "FR76\u20093000"
    assert span_of(view, "Né le 12") == "Né le\u00a012"


def test_soft_hyphen_removed_inside_a_word():
    view = normalize("Jean-Pierre Le Gal\u00adlois")
    assert view.text == "Jean-Pierre Le Gallois"
    assert span_of(view, "Gallois") == "Gal\u00adlois"


def test_decomposed_accents_and_ligatures_map_to_whole_clusters():
    text = "e\u0301te\u0301 ﬁnal"
    view = normalize(text)
    assert view.text == "été final"
    assert span_of(view, "été") == "e\u0301te\u0301"
    assert span_of(view, "final") == "ﬁnal"
    assert span_of(view, "fi") == "ﬁ"


def test_text_ending_with_removed_characters():
    text = "Dupont\u200b\u200b"
    view = normalize(text)
    assert view.text == "Dupont"
    assert span_of(view, "Dupont") == "Dupont"


@given(st.text(alphabet=st.sampled_from(list("ab é\u00a0\u200b\u00ad０１\u0301ﬁ\n")), max_size=40))
def test_every_span_maps_inside_the_original_and_round_trips(text):
    view = normalize(text)
    n = len(view.text)
    for start in range(n):
        for end in range(start + 1, min(n, start + 6) + 1):
            a, b = view.to_original(start, end)
            assert 0 <= a < b <= len(text)
            # The original slice normalises to a text that contains the view's slice.
            piece = unicodedata.normalize("NFKC", text[a:b])
            piece = "".join(" " if c in "\u00a0" else c for c in piece if c not in "\u200b\u00ad")
            assert view.text[start:end] in piece


def test_bidi_marks_and_other_invisible_characters_are_removed():
    text = "06 12\u200e 34\u2066 56\u2069 78 \u2062x\ufe0f"
    view = normalize(text)
    assert view.text == "06 12 34 56 78 x"
    assert span_of(view, "06 12 34 56 78") == "06 12\u200e 34\u2066 56\u2069 78"


def test_lone_carriage_returns_are_line_breaks_in_the_view():
    view = normalize("a\rb\r\nc")
    assert view.text == "a\nb\r\nc"
    assert normalize("é\rb").text == "é\nb"
