import json
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from tiny_model import build_onnx, build_tiny_model, logit_table, vocabulary

from alias_engine.detectors import backends
from alias_engine.detectors import model as model_mod
from alias_engine.detectors.backends import BATCH_INDEPENDENT_KEY
from alias_engine.detectors.model import ModelDetector, _in_order, decode_windows, snap_to_words, tokenize
from alias_engine.detectors.viterbi import N_TAGS, is_legal
from alias_engine.detectors.windows import plan_windows
from alias_engine.errors import ModelError
from alias_engine.labels import BIOES_TAGS
from alias_engine.resolve.format_checks import is_siret


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    return build_tiny_model(tmp_path_factory.mktemp("tiny"))


needs_openvino = pytest.mark.skipif(backends.openvino_core() is None, reason="openvino cannot be imported here")
BACKENDS = ["onnxruntime", pytest.param("openvino", marks=needs_openvino)]


@pytest.fixture(scope="module", params=BACKENDS)
def detector(tiny_dir, request) -> ModelDetector:
    return ModelDetector.load(tiny_dir, backend=request.param)


def found(text, spans):
    return [(text[s.start:s.end], s.label) for s in spans]


def test_detects_crafted_values_with_offsets_into_the_text(detector):
    text = "lorem Jean Dupont ipsum Zoé, Lefèvre à 0612345678 and hunter2! ok"
    spans = detector.detect([text])[0]
    assert found(text, spans) == [("Jean Dupont", "PERSON"), ("Zoé", "PERSON"), ("Lefèvre", "PERSON"),
                                  ("0612345678", "PHONE"), ("hunter2!", "SECRET")]
    assert all(s.source == "model" and 0.9 < s.score <= 1 for s in spans)


def test_empty_blank_and_one_token_texts(detector):
    assert detector.detect([]) == []
    assert detector.detect(["", "   ", "\r\n", "lorem"]) == [[], [], [], []]
    assert found("Zoé", detector.detect(["Zoé"])[0]) == [("Zoé", "PERSON")]


def test_special_tokens_written_in_the_text_are_not_control_tokens(detector):
    text = "<s>lorem</s> Zoé <pad> <s>Jean Dupont</s>"
    seen = []

    def run(ids, mask):
        seen.append(ids.copy())
        return detector._run(ids, mask)

    spans = detector.detect_with([text], run)[0]
    assert found(text, spans) == [("Zoé", "PERSON"), ("Jean Dupont", "PERSON")]
    (ids,) = seen
    assert ids[0, 0] == detector.bos_id and ids[0, -1] == detector.eos_id
    assert not np.isin(ids[0, 1:-1], [detector.bos_id, detector.eos_id, detector.pad_id]).any()


def test_a_batch_gives_the_same_spans_as_one_text_at_a_time(detector):
    texts = ["Zoé", "", "lorem ipsum " * 300 + "Jean Dupont", "Jean Dupont dolor", "amet Zoé " * 50]
    assert detector.detect(texts) == [detector.detect([t])[0] for t in texts]


def test_offsets_snap_around_accents_emoji_and_crlf(detector):
    text = "😀 Zoé😀\r\nJean Dupont\r\n\r\n à Lefèvre, 😀😀 Zoé\r\n"
    assert found(text, detector.detect([text])[0]) == [
        ("Zoé", "PERSON"), ("Jean Dupont", "PERSON"), ("Lefèvre", "PERSON"), ("Zoé", "PERSON")]


def test_snap_to_words():
    text = "M. Lefèvre😀, (Zoe\u0301) pass: 'hunter2!'."
    lef = text.index("Lef")
    assert snap_to_words(text, lef - 1, lef + 3, "PERSON") == (lef, lef + 7)  # whole word, no emoji
    zoe = text.index("Zoe")
    assert snap_to_words(text, zoe - 1, zoe + 3, "PERSON") == (zoe, zoe + 4)  # keeps the combining accent
    pw = text.index("hunter2!")
    assert snap_to_words(text, pw - 1, pw + 10, "SECRET") == (pw, pw + 8)  # quotes off, "!" kept
    assert snap_to_words(text, pw, pw + 10, "PERSON") == (pw, pw + 7)
    assert snap_to_words(text, 1, 3, "PERSON") is None  # ". " only
    assert snap_to_words("a\r\nb", 0, 4, "ADDRESS") == (0, 4)
    text = "ping (@jdupont) or key=s3cr3t="
    assert snap_to_words(text, 5, 14, "IDENTIFIER") == (7, 14)  # a handle's @ is outside
    assert snap_to_words(text, 22, 30, "SECRET") == (23, 30)  # the key's = is outside, a trailing = stays
    text = "tel\t(438) 555-0194)."
    assert snap_to_words(text, 4, len(text), "PHONE") == (4, 18)  # the area code's brackets stay, the stray one goes
    assert snap_to_words(text, 4, 18, "IDENTIFIER") == (5, 18)
    assert snap_to_words("((438) 555-0194", 0, 15, "PHONE") == (1, 15)
    assert snap_to_words(" (518263)\n", 0, 10, "PHONE") == (2, 8)  # an aside in brackets
    assert snap_to_words("((438) 555-0194)", 0, 16, "PHONE") == (1, 15)


def test_thresholds_and_recall_bias(tiny_dir):
    text = "lorem Maybe Zoé"
    assert found(text, ModelDetector.load(tiny_dir).detect([text])[0]) == [("Maybe", "PERSON"), ("Zoé", "PERSON")]
    strict = ModelDetector.load(tiny_dir, thresholds={"PERSON": 0.6})
    assert found(text, strict.detect([text])[0]) == [("Zoé", "PERSON")]
    careful = ModelDetector.load(tiny_dir, recall_bias=-3.0)
    assert found(text, careful.detect([text])[0]) == [("Zoé", "PERSON")]
    eager = ModelDetector.load(tiny_dir, recall_bias=1.0, thresholds={"PERSON": 0.6})
    assert found(text, eager.detect([text])[0]) == [("Maybe", "PERSON"), ("Zoé", "PERSON")]
    with pytest.raises(ValueError):
        ModelDetector.load(tiny_dir, recall_bias=float("inf"))
    with pytest.raises(ValueError):
        ModelDetector.load(tiny_dir, thresholds={"NOPE": 0.5})


def position_logits(input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Fake model: the O logit of a token grows with its distance to the window's nearest edge."""
    batch, width = input_ids.shape
    logits = np.zeros((batch, width, N_TAGS), dtype=np.float32)
    for row in range(batch):
        n = int(mask[row].sum()) - 2
        depth = np.minimum(np.arange(n), n - 1 - np.arange(n))
        logits[row, 1:n + 1, 0] = 5.0 + 0.01 * depth
    return logits


@pytest.mark.parametrize("windows_per_call, calls_at_once", [(64, 1), (1, 1), (1, 3), (2, 2)])
@pytest.mark.parametrize("lengths", [[0], [1], [14], [15], [100, 3, 0, 37], [263]])
def test_windows_decide_every_token_once_from_the_most_central_window(lengths, windows_per_call, calls_at_once):
    size, overlap = 14, 4
    seqs = [np.arange(5, 5 + n, dtype=np.int64) for n in lengths]
    calls = []

    def run(ids, mask):
        calls.append(ids.shape)
        return position_logits(ids, mask)

    results = decode_windows(seqs, run, size=size, overlap=overlap, bos=0, eos=2, pad=1, batch_size=3,
                             windows_per_call=windows_per_call, calls_at_once=calls_at_once)
    for n, (tags, path_logp) in zip(lengths, results):
        assert len(tags) == n and not tags.any()
        windows = plan_windows(n, size, overlap)
        best = [max(min(t - w.start, w.end - 1 - t) for w in windows if w.start <= t < w.end) for t in range(n)]
        row = np.zeros((n, N_TAGS), dtype=np.float32)
        row[:, 0] = 5.0 + 0.01 * np.array(best, dtype=np.float32)
        expected = row[:, 0] - np.log(np.exp(row).sum(axis=1))
        assert np.allclose(path_logp, expected, atol=1e-5)
    assert sum(b for b, _ in calls) == sum(len(plan_windows(n, size, overlap)) for n in lengths)
    assert all(width <= size + 2 for _, width in calls)


def test_calls_run_at_once_give_their_results_in_order_and_a_failure_reaches_the_caller():
    def slow_square(n):
        time.sleep(0.002 * (n % 3))  # later items finish first
        if n == 13:
            raise RuntimeError("window 13 failed")
        return n * n

    assert list(_in_order(slow_square, list(range(12)), 3)) == [n * n for n in range(12)]
    with pytest.raises(RuntimeError, match="window 13"):
        list(_in_order(slow_square, list(range(20)), 3))


@pytest.fixture(scope="module")
def small_window_detector(tmp_path_factory) -> ModelDetector:
    # The length the model was trained on (labels.json "window_length") sets the windows.
    detector = ModelDetector.load(build_tiny_model(tmp_path_factory.mktemp("tiny16"), window_length=16))
    assert (detector.window_size, detector.window_overlap) == (14, 4)
    return detector


def test_a_value_across_window_boundaries_is_found_once(small_window_detector):
    for lead in range(0, 40):
        text = "lorem " * lead + "Jean Dupont" + " ipsum" * 30
        spans = small_window_detector.detect([text])[0]
        assert found(text, spans) == [("Jean Dupont", "PERSON")], lead


def test_long_text_finds_values_at_window_boundaries_and_both_ends(detector):
    # Every word here is one token of the tiny vocabulary: word k is token k.
    words = ["lorem", "ipsum", "dolor", "amet"] * 9_000  # ~ 200k characters
    windows = plan_windows(len(words))
    edges = {w.start for w in windows} | {w.keep_start for w in windows} | {w.end for w in windows}
    places = [1, len(words) - 1]  # "Jean" at token k - 1, "Dupont" at token k
    for edge in sorted(edges):
        if all(abs(edge - p) > 2 for p in places):
            places.append(edge)
    for k in places:
        words[k - 1], words[k] = "Jean", "Dupont"
    text = " ".join(words)
    assert len(text) > 200_000
    starts = np.cumsum([0] + [len(w) + 1 for w in words])
    spans = detector.detect([text])[0]
    assert [(s.start, s.end) for s in spans] == [(starts[k - 1], starts[k - 1] + 11) for k in sorted(places)]
    assert all(text[s.start:s.end] == "Jean Dupont" for s in spans)


def test_long_texts_are_tokenized_in_pieces_like_the_whole(detector, monkeypatch):
    text = ("Zoé  à lorem,  Lefèvre 😀 ipsum\r\n" * 40)
    whole = tokenize(detector.tokenizer, text)
    monkeypatch.setattr(model_mod, "SEGMENT_CHARS", 50)
    pieces = tokenize(detector.tokenizer, text)
    assert np.array_equal(whole[0], pieces[0]) and np.array_equal(whole[1], pieces[1])


def test_threads_share_one_session(detector):
    texts = [f"lorem {'Zoé ' * i}Jean Dupont" for i in range(8)]
    expected = detector.detect(texts)
    results = [None] * 4

    def work(k):
        results[k] = detector.detect(texts)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected] * 4


def test_decoded_tags_are_legal(detector):
    text = "Dupont Jean Jean lorem Dupont Maybe Jean"
    ids, _ = tokenize(detector.tokenizer, text)
    (tags, _), = decode_windows([ids], detector._run, size=510, overlap=128, bos=0, eos=2, pad=1)
    assert is_legal(tags)


# Missing or corrupt model: fail closed with ModelError.

def copy_model(tiny_dir, tmp_path) -> Path:
    target = tmp_path / "model"
    shutil.copytree(tiny_dir, target)
    return target


@pytest.mark.parametrize("name", ["model.onnx", "tokenizer.json", "labels.json"])
def test_missing_file(tiny_dir, tmp_path, name):
    broken = copy_model(tiny_dir, tmp_path)
    (broken / name).unlink()
    with pytest.raises(ModelError, match=name):
        ModelDetector.load(broken)


def test_corrupt_onnx_fails_on_preload_and_on_first_use(tiny_dir, tmp_path):
    broken = copy_model(tiny_dir, tmp_path)
    (broken / "model.onnx").write_bytes(b"\x08\x07garbage" * 100)
    with pytest.raises(ModelError, match="cannot load"):
        ModelDetector.load(broken, preload=True)
    lazy = ModelDetector.load(broken)
    with pytest.raises(ModelError):
        lazy.detect(["Zoé"])


def test_wrong_output_shape(tiny_dir, tmp_path):
    import onnx

    broken = copy_model(tiny_dir, tmp_path)
    onnx.save(build_onnx(logit_table(vocabulary())[:, :10].copy()), str(broken / "model.onnx"))
    with pytest.raises(ModelError, match="shape"):
        ModelDetector.load(broken, preload=True)


@pytest.mark.parametrize("content", [
    "{not json", json.dumps({"scheme": "BIO", "tags": []}),
    json.dumps({"scheme": "BIOES", "tags": ["O", "B-PERSON"], "max_length": 512}),
    json.dumps({"scheme": "BIOES", "tags": list(BIOES_TAGS), "max_length": 512, "window_length": 1024}),
    json.dumps({"scheme": "BIOES", "tags": list(BIOES_TAGS), "max_length": "512"}),
])
def test_bad_labels_json(tiny_dir, tmp_path, content):
    broken = copy_model(tiny_dir, tmp_path)
    (broken / "labels.json").write_text(content, encoding="utf-8")
    with pytest.raises(ModelError, match="labels.json"):
        ModelDetector.load(broken)


def test_bad_tokenizer(tiny_dir, tmp_path):
    broken = copy_model(tiny_dir, tmp_path)
    (broken / "tokenizer.json").write_text('{"model": 3}', encoding="utf-8")
    with pytest.raises(ModelError, match="tokenizer.json"):
        ModelDetector.load(broken)


# In the engine.

def test_engine_uses_the_model_with_the_rules(tiny_dir):
    from alias_engine.engine import Engine

    engine = Engine(model_dir=tiny_dir)
    text = "Bonjour, je suis Jean Dupont, écrivez à jean@example.com. Zoé"
    spans = engine.detect(text)
    assert ("Jean Dupont", "PERSON") in found(text, spans) and ("Zoé", "PERSON") in found(text, spans)
    assert isinstance(engine.model, ModelDetector)


def test_engine_fails_closed_on_a_broken_model(tiny_dir, tmp_path):
    from alias_engine.engine import Engine

    broken = copy_model(tiny_dir, tmp_path)
    (broken / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError):
        Engine(model_dir=broken).detect("Jean Dupont")
    assert Engine(model_dir=broken, use_model=False).detect("lorem") == []


def test_engine_fails_closed_without_a_model_unless_rules_only_is_asked(tmp_path):
    from alias_engine.engine import Engine

    with pytest.raises(ModelError):
        Engine(model_dir=tmp_path).mask("Écrire à jean.dupont@example.fr")
    result = Engine(model_dir=tmp_path, use_model=False).mask("Écrire à jean.dupont@example.fr")
    assert result.text == "Écrire à [EMAIL_1]"


# With the trained model, when it is shipped in models/ (skipped otherwise).

SHIPPED = Path(__file__).resolve().parents[1] / "models"
needs_shipped_model = pytest.mark.skipif(not (SHIPPED / "model.onnx").is_file(), reason="no trained model in models/")

REAL_SENTENCES = [
    ("Bonjour, je m'appelle Jean-Pierre Le Gall et je vous écris au sujet de mon contrat.", "Jean-Pierre Le Gall", "PERSON"),
    ("Merci de transmettre le dossier à Mme Sophie Martin avant vendredi.", "Sophie Martin", "PERSON"),
    ("Please forward the report to Sarah Johnson before Friday.", "Sarah Johnson", "PERSON"),
    ("Hi, this is Michael Brown, I would like to update my details.", "Michael Brown", "PERSON"),
    ("Vous pouvez me joindre à l'adresse claire.dubois@orange.fr si besoin.", "claire.dubois@orange.fr", "EMAIL"),
]


@pytest.fixture(scope="module", params=BACKENDS)
def shipped(request) -> ModelDetector:
    return ModelDetector.load(SHIPPED, preload=True, backend=request.param)


def covered(text, spans, value, label, start=None):
    """True when every character of `value` (first occurrence, or at `start`) is in a span of `label`."""
    start = text.index(value) if start is None else start
    chars = set(range(start, start + len(value)))
    for s in spans:
        if s.label == label:
            chars -= set(range(s.start, s.end))
    return not chars


@needs_shipped_model
def test_shipped_model_on_french_and_english_sentences(shipped):
    results = shipped.detect([t for t, _, _ in REAL_SENTENCES])
    missed = [(value, found(text, spans)) for (text, value, label), spans in zip(REAL_SENTENCES, results)
              if not covered(text, spans, value, label)]
    assert len(missed) <= 1, missed  # a learned model may miss one; two is a regression


@needs_shipped_model
def test_shipped_model_spans_are_whole_words_across_windows(shipped):
    base = [t for t, _, _ in REAL_SENTENCES]
    text = " ".join(base * 40)  # several windows
    spans = shipped.detect([text])[0]
    assert spans, "the model found nothing in a text full of names"
    for s in spans:
        assert text[s.start:s.end] == text[s.start:s.end].strip()
        assert not (s.start > 0 and text[s.start - 1].isalnum() and text[s.start].isalnum())
        assert not (s.end < len(text) and text[s.end].isalnum() and text[s.end - 1].isalnum())
    first = covered(text, spans, "Jean-Pierre Le Gall", "PERSON")
    last = covered(text, spans, "Michael Brown", "PERSON", text.rindex("Michael Brown"))
    assert first and last  # at the very start and near the very end of a multi-window text
    hits = total = 0
    for _, value, label in REAL_SENTENCES:
        at = [k for k in range(len(text)) if text.startswith(value, k)]
        hits += sum(covered(text, spans, value, label, k) for k in at)
        total += len(at)
    assert hits >= 0.9 * total, (hits, total)


def test_spans_of_punctuation_alone_are_dropped(detector):
    def everything_is_a_secret(input_ids, attention_mask):
        logits = np.zeros((*input_ids.shape, N_TAGS), dtype=np.float32)
        logits[..., BIOES_TAGS.index("S-SECRET")] = 8.0
        return logits

    text = "??? ok !!"
    spans = detector.detect_with([text], everything_is_a_secret)[0]
    assert found(text, spans) == [("ok", "SECRET")]


def test_address_parts_are_joined_and_take_in_the_house_number():
    from alias_engine.detectors.model import join_address_parts
    from alias_engine.spans import Span

    text = "Send it to 1737 Cheriton Dr Reuquén Extensions\n Apt. 724\nHibberdene, then call 05405 now."
    street = text.index("Cheriton")
    parts = [Span(street, street + len("Cheriton"), "ADDRESS", 0.9, "model"),
             Span(text.index("Reuquén"), text.index("\n Apt"), "ADDRESS", 0.4, "model"),
             Span(text.index("Apt."), text.index("Hibberdene") + len("Hibberdene"), "ADDRESS", 0.8, "model")]
    joined = join_address_parts(parts, text)
    assert [(text[s.start:s.end], s.score) for s in joined] == [
        ("1737 Cheriton Dr Reuquén Extensions\n Apt. 724\nHibberdene", 0.9)]


def test_address_parts_stay_apart_across_words_and_other_labels():
    from alias_engine.detectors.model import join_address_parts
    from alias_engine.spans import Span

    text = "12 rue Victor Hugo and also 3 allée des Tilleuls; Jean 4 Main St"
    a = Span(3, 18, "ADDRESS", 0.9, "model")
    b = Span(text.index("allée"), text.index(";"), "ADDRESS", 0.9, "model")
    person = Span(text.index("Jean"), text.index("Jean") + 4, "PERSON", 0.9, "model")
    c = Span(text.index("Main"), len(text), "ADDRESS", 0.9, "model")
    joined = join_address_parts([a, b, person, c], text)
    assert [text[s.start:s.end] for s in joined] == [
        "12 rue Victor Hugo", "3 allée des Tilleuls", "Jean", "4 Main St"]


def test_an_address_takes_back_its_first_words_from_a_person_span_that_ran_over_the_line():
    from alias_engine.detectors.model import join_address_parts
    from alias_engine.spans import Span

    text = "John Smith\nFlat 2\n14 Baker Street\nLondon W1U 3BW"
    person = Span(0, text.index("Flat") + 4, "PERSON", 0.7, "model")
    address = Span(text.index("2\n"), len(text), "ADDRESS", 0.9, "model")
    joined = join_address_parts([person, address], text)
    assert [(text[s.start:s.end], s.label) for s in joined] == [
        ("John Smith", "PERSON"), ("Flat 2\n14 Baker Street\nLondon W1U 3BW", "ADDRESS")]
    signature = "Dreux Joly\nPaxata\nPSC 3294, Box 9168"  # the next line starts the address: nothing moves
    person = Span(0, signature.index("\nPSC"), "PERSON", 0.9, "model")
    address = Span(signature.index("PSC"), len(signature), "ADDRESS", 0.9, "model")
    assert join_address_parts([person, address], signature) == [person, address]


@pytest.mark.parametrize("text, expected", [
    ("Terry Kent (footballer)", ["Terry Kent"]),
    ("James Earle Fraser (sculptor", ["James Earle Fraser"]),
    ("Paul Martin (Durand)", ["Paul Martin", "Durand"]),
    ("Jean Dupont [responsable des ventes]", ["Jean Dupont"]),
    ("Jean Dupont", ["Jean Dupont"]),
    ("Jean (Johnny) Dupont", ["Jean", "Johnny", "Dupont"]),
    ("Marie Dupont (née Martin)", ["Marie Dupont", "Martin"]),
    ("Jean Dupont [Martin] Durand", ["Jean Dupont", "Martin", "Durand"]),
])
def test_person_spans_leave_out_bracketed_asides_but_no_name(text, expected):
    pieces = model_mod.person_pieces(text, 0, len(text))
    assert [text[a:b] for a, b in pieces] == expected


def test_a_siret_is_a_company_number_not_an_id_or_a_card():
    assert is_siret("317 193 241 00013") and is_siret("31719324100013")
    assert not is_siret("31719324100014")  # fails the check: may be anything
    assert not is_siret("3614 890064 7913")  # a 14-digit Diners card number
    assert not is_siret("2 85 03 75 123 456 78")  # a NIR has 15 digits


@needs_shipped_model
def test_shipped_model_spans_of_a_text_do_not_depend_on_its_batch(shipped):
    """A text gets the same spans and scores alone or batched with any others: the
    shipped graph quantises its activations with one dynamic scale per call, so the other texts
    of a batch and their padding would move a text's results; under onnxruntime its windows run
    one per call. Under openvino they run in batches, each window padded to a width of its own."""
    texts = [t for t, _, _ in REAL_SENTENCES]
    long_text = " ".join(texts * 6)  # several windows, padding for every short text batched with it
    alone = [shipped.detect([t])[0] for t in texts]
    assert all(alone)
    compositions = [
        texts,
        texts[::-1],
        [texts[0], long_text],
        [long_text] + texts[1:],
        ["x", texts[0], "1234 " * 80, texts[-1], "Zoé " * 300],
    ]
    for batch in compositions:
        for text, spans in zip(batch, shipped.detect(batch)):
            if text in texts:
                assert spans == alone[texts.index(text)], (text, batch[:3])
    assert shipped.detect([long_text, texts[2]])[0] == shipped.detect([long_text])[0]


@needs_shipped_model
def test_engine_detect_many_gives_each_text_what_detect_gives():
    from alias_engine import Engine

    engine = Engine(model_dir=SHIPPED)
    a = "Merci d'écrire à Jeanne Moreau, 12 rue des Lilas, 75011 Paris, avant lundi."
    b = "Call Peter Smith on 020 7946 0958 or write to peter.smith@example.com. " * 20
    c = "ok"
    expected = engine.detect(a, "fr")
    assert expected
    assert engine.detect_many([a, b], "fr")[0] == expected
    assert engine.detect_many([b, c, a], "fr")[2] == expected


def ort_options(model_dir, **kwargs):
    return ModelDetector.load(model_dir, backend="onnxruntime", preload=True, **kwargs).runtime.session.get_session_options()


def test_session_uses_the_available_cores_and_does_not_spin(tiny_dir):
    options = ort_options(tiny_dir)
    assert options.intra_op_num_threads == model_mod.available_cores()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert ort_options(tiny_dir, threads=1).intra_op_num_threads == 1


def test_onnxruntime_runs_windows_one_per_call_unless_the_graph_says_it_is_batch_independent(tiny_dir, tmp_path):
    import onnx

    texts = ["Zoé", "lorem Jean Dupont", "amet Zoé " * 50]
    plain = ModelDetector.load(tiny_dir, backend="onnxruntime")
    assert not plain.batch_independent
    calls = []
    plain._run = lambda ids, mask, run=plain._run: calls.append(len(ids)) or run(ids, mask)
    expected = plain.detect(texts)
    assert calls and set(calls) == {1}

    marked_dir = copy_model(tiny_dir, tmp_path)
    marked = onnx.load(str(marked_dir / "model.onnx"))
    onnx.helper.set_model_props(marked, {BATCH_INDEPENDENT_KEY: "true"})
    onnx.save(marked, str(marked_dir / "model.onnx"))
    batched = ModelDetector.load(marked_dir, backend="onnxruntime")
    assert batched.batch_independent
    calls.clear()
    batched._run = lambda ids, mask, run=batched._run: calls.append(len(ids)) or run(ids, mask)
    assert batched.detect(texts) == expected
    assert max(calls) > 1


def test_a_window_call_failing_among_calls_run_at_once_fails_the_whole_text(tiny_dir):
    detector = ModelDetector.load(tiny_dir, backend="onnxruntime", threads=2)
    assert detector.runtime.calls_at_once == 2
    assert ModelDetector.load(tiny_dir, backend="onnxruntime", threads=1).runtime.calls_at_once == 1
    text = "amet Zoé " * 1000
    expected = detector.detect([text])
    calls = []

    def third_fails(ids, mask, run=detector._run):
        calls.append(len(ids))
        if len(calls) == 3:
            raise RuntimeError("window 3")
        return run(ids, mask)

    detector._run = third_fails
    with pytest.raises(ModelError, match="model inference failed"):
        detector.detect([text])
    assert len(calls) >= 3
    del detector._run
    assert detector.detect([text]) == expected


def test_detectors_of_one_model_file_share_one_runtime(tiny_dir, tmp_path):
    first, second = ModelDetector.load(tiny_dir), ModelDetector.load(tiny_dir)
    assert first.runtime is second.runtime
    assert ModelDetector.load(tiny_dir, threads=1).runtime is not ModelDetector.load(tiny_dir, threads=2).runtime
    assert ModelDetector.load(copy_model(tiny_dir, tmp_path)).runtime is not first.runtime
    assert ModelDetector.load(tiny_dir, backend="onnxruntime").runtime.name == "onnxruntime"


# Backends (docs/backends.md): the same file under onnxruntime or openvino.

def test_explicit_backends(tiny_dir):
    ort = ModelDetector.load(tiny_dir, backend="onnxruntime", preload=True).runtime
    assert (ort.name, ort.precision, ort.batch_independent) == ("onnxruntime", "as stored", False)


@needs_openvino
def test_explicit_openvino_runs_bf16_where_the_cpu_has_it_and_fp32_elsewhere(tiny_dir, monkeypatch):
    # OpenVINO compiles bf16 only where the CPU has it: the compiled precision is checked for
    # bf16 on such a CPU alone (on another, asking for it gives f32 whatever the engine asks)
    cpu_has_bf16 = "BF16" in backends.openvino_core().get_property("CPU", "OPTIMIZATION_CAPABILITIES")
    for native, precision in ((True, "bf16"), (False, "f32")):
        monkeypatch.setattr(model_mod, "_runtimes", {})
        monkeypatch.setattr(backends, "native_bf16", lambda native=native: native)
        runtime = ModelDetector.load(tiny_dir, backend="openvino", preload=True).runtime
        assert (runtime.name, runtime.precision, runtime.batch_independent) == ("openvino", precision, True)
        compiled = runtime.compiled.get_property("INFERENCE_PRECISION_HINT").to_string()
        assert compiled == (precision if cpu_has_bf16 else "f32")


def test_auto_is_openvino_where_the_cpu_computes_bf16_in_amx_tiles(tiny_dir, monkeypatch):
    monkeypatch.setattr(model_mod, "_runtimes", {})
    monkeypatch.setattr(backends, "openvino_measured_faster", lambda: False)
    assert backends.resolve_backend("auto") == "onnxruntime"
    assert ModelDetector.load(tiny_dir, backend="auto").runtime.name == "onnxruntime"
    if backends.openvino_core() is not None:
        monkeypatch.setattr(model_mod, "_runtimes", {})
        monkeypatch.setattr(backends, "openvino_measured_faster", lambda: True)
        assert ModelDetector.load(tiny_dir).runtime.name == "openvino"


def test_bf16_without_amx_is_no_reason_for_openvino_on_intel_but_is_on_amd(tmp_path, monkeypatch):
    cpuinfo = tmp_path / "cpuinfo"
    monkeypatch.setattr(backends, "CPUINFO", cpuinfo)
    monkeypatch.setattr(backends, "native_bf16", lambda: True)
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu avx512f avx512_bf16 avx512_vnni\n"
                       "vmx flags\t: vnmi invvpid ept_x_only\n")
    assert not backends.openvino_measured_faster() and backends.resolve_backend("auto") == "onnxruntime"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu avx512f avx512_bf16 avx512_vnni\n")
    assert backends.cpu_vendor() == "AuthenticAMD"
    assert backends.openvino_measured_faster() and backends.resolve_backend("auto") == "openvino"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu avx2 fma\n")  # Zen 3: no bf16
    assert not backends.openvino_measured_faster()
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx512f avx512_bf16 amx_bf16 amx_tile\n")
    assert backends.openvino_measured_faster() and backends.resolve_backend("auto") == "openvino"
    monkeypatch.setattr(backends, "native_bf16", lambda: False)  # OpenVINO does not say bf16
    assert not backends.openvino_measured_faster()
    cpuinfo.unlink()  # no /proc/cpuinfo: OpenVINO's word is all there is
    monkeypatch.setattr(backends, "native_bf16", lambda: True)
    assert backends.openvino_measured_faster()


def test_bf16_is_native_when_the_cpu_flags_and_openvino_agree(tmp_path, monkeypatch):
    cpuinfo = tmp_path / "cpuinfo"
    monkeypatch.setattr(backends, "CPUINFO", cpuinfo)
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx512f avx512_vnni\n")
    assert backends.cpu_bf16_flags() == () and not backends.native_bf16()
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu avx512f avx512_bf16 amx_bf16 amx_tile\n")
    assert backends.cpu_bf16_flags() == ("amx_bf16", "avx512_bf16")

    class Core:
        def __init__(self, capabilities):
            self.capabilities = capabilities

        def get_property(self, device, name):
            return self.capabilities

    monkeypatch.setattr(backends, "openvino_core", lambda: Core(["FP32", "BF16"]))
    assert backends.native_bf16()
    monkeypatch.setattr(backends, "openvino_core", lambda: Core(["FP32", "INT8"]))
    assert not backends.native_bf16()
    monkeypatch.setattr(backends, "openvino_core", lambda: None)
    assert not backends.native_bf16()


def test_without_openvino_auto_falls_back_and_an_explicit_openvino_is_an_error(tiny_dir, monkeypatch):
    from alias_engine.engine import Engine

    monkeypatch.setattr(model_mod, "_runtimes", {})
    monkeypatch.setattr(backends, "openvino_core", lambda: None)
    assert ModelDetector.load(tiny_dir, backend="auto").runtime.name == "onnxruntime"
    with pytest.raises(ModelError, match="pip install openvino"):
        ModelDetector.load(tiny_dir, backend="openvino")
    with pytest.raises(ModelError, match="pip install openvino"):
        Engine(model_dir=tiny_dir, backend="openvino").detect("Jean Dupont")


def test_unknown_backend_names_are_refused(tiny_dir):
    from alias_engine.engine import Engine

    for name in ("tensorrt", "OpenVINO", "", None):
        with pytest.raises(ValueError, match="backend must be one of auto, onnxruntime, openvino"):
            Engine(use_model=False, backend=name)
        with pytest.raises(ValueError, match="backend"):
            ModelDetector.load(tiny_dir, backend=name)


@needs_openvino
def test_openvino_pads_each_window_to_a_width_of_its_own_and_batches_them(tmp_path_factory):
    """bf16 logits move a little with the padded width (not with the other rows of a call):
    a window runs padded to its length rounded up to 32 positions, with windows of that width only."""
    detector = ModelDetector.load(build_tiny_model(tmp_path_factory.mktemp("tiny128"), window_length=128),
                                  backend="openvino")
    texts = ["Zoé", "lorem Jean Dupont " * 6, "amet Zoé " * 50, "ipsum " * 40 + "Zoé", "Jean Dupont dolor"]
    calls = []
    detector._run = lambda ids, mask, run=detector._run: calls.append((ids.shape, mask.sum(1).tolist())) or run(ids, mask)
    spans = detector.detect(texts)
    assert spans == [detector.detect([text])[0] for text in texts]
    assert max(shape[0] for shape, _ in calls) > 1
    for (_, width), lengths in calls:
        assert all(-(-n // 32) * 32 == width for n in lengths)


@needs_shipped_model
@needs_openvino
def test_backends_find_the_same_spans_on_the_shipped_model():
    texts = [t for t, _, _ in REAL_SENTENCES] + [" ".join(t for t, _, _ in REAL_SENTENCES) * 3]
    ort = ModelDetector.load(SHIPPED, backend="onnxruntime").detect(texts)
    ov = ModelDetector.load(SHIPPED, backend="openvino").detect(texts)
    for a, b in zip(ort, ov):
        assert [(s.start, s.end, s.label) for s in a] == [(s.start, s.end, s.label) for s in b]
        assert all(abs(x.score - y.score) < 0.02 for x, y in zip(a, b))


@needs_openvino
def test_openvino_compiles_once_and_a_cache_it_cannot_write_is_no_error(tiny_dir, tmp_path, monkeypatch):
    from alias_engine.detectors.backends import OpenVinoBackend

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = OpenVinoBackend(tiny_dir / "model.onnx", 1, "f32")
    (blob,) = (tmp_path / "cache" / "alias-engine" / "openvino").iterdir()
    ids = np.array([[0, 5, 6, 2]], dtype=np.int64)
    with monkeypatch.context() as patched:
        patched.setattr(backends, "fp32_graph_bytes", lambda path: pytest.fail("compiled again"))
        second = OpenVinoBackend(tiny_dir / "model.onnx", 1, "f32")
    assert np.array_equal(first.run(ids, np.ones_like(ids)), second.run(ids, np.ones_like(ids)))

    blob.write_bytes(b"truncated")
    assert OpenVinoBackend(tiny_dir / "model.onnx", 1, "f32").run(ids, np.ones_like(ids)).shape == (1, 4, N_TAGS)
    assert blob.stat().st_size > len(b"truncated")  # written again
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_folder))
    assert OpenVinoBackend(tiny_dir / "model.onnx", 1, "f32").run(ids, np.ones_like(ids)).shape == (1, 4, N_TAGS)


def test_with_a_width_a_call_holds_windows_of_one_padded_width(detector):
    texts = ["Zoé", "lorem Jean Dupont " * 20, "amet Zoé " * 300, "ipsum " * 40 + "Zoé", "Jean Dupont dolor"]
    encoded = [tokenize(detector.tokenizer, text)[0] for text in texts]
    shapes = []

    def run(ids, mask):
        shapes.append((ids.shape, mask.sum(1).tolist()))
        return detector._run(ids, mask)

    def width(n):
        return -(-n // 100) * 100

    plain = decode_windows(encoded, detector._run, size=510, overlap=128, bos=0, eos=2, pad=1)
    padded = decode_windows(encoded, run, size=510, overlap=128, bos=0, eos=2, pad=1, width=width)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(plain, padded))
    assert max(rows for (rows, _), _ in shapes) > 1
    for (_, columns), lengths in shapes:
        assert all(width(n) == columns for n in lengths)


def test_the_fp32_graph_of_a_dynamic_int8_graph_multiplies_by_the_int8_weights_times_their_scales(tiny_dir, tmp_path):
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from alias_engine.detectors.fp32_graph import dequantize, has_batch_quantisation

    int8 = tmp_path / "int8.onnx"
    quantize_dynamic(str(tiny_dir / "model.onnx"), str(int8), weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"])
    quantized = onnx.load(str(int8))
    assert has_batch_quantisation(quantized)
    weights = {t.name: onnx.numpy_helper.to_array(t) for t in quantized.graph.initializer}
    fp32 = dequantize(quantized)
    assert not has_batch_quantisation(fp32)
    assert {n.op_type for n in fp32.graph.node} == {"Gather", "MatMul", "Cast", "Unsqueeze", "Mul"}
    (eye,) = [t for t in fp32.graph.initializer if t.name == "eye"]
    expected = (weights["eye_quantized"].astype(np.float32) - weights["eye_zero_point"]) * weights["eye_scale"]
    assert np.array_equal(onnx.numpy_helper.to_array(eye), expected)
    session = ort.InferenceSession(fp32.SerializeToString(), providers=["CPUExecutionProvider"])
    ids = np.array([[0, 5, 6, 7, 2]], dtype=np.int64)
    logits = session.run(["logits"], {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0]
    table = logit_table(vocabulary())
    assert np.allclose(logits[0], table[ids[0]] @ expected, atol=1e-5)


@needs_openvino
def test_openvino_threads_a_call_as_onnxruntime_and_one_stream_per_caller_the_cores_allow(tiny_dir):
    cores = model_mod.available_cores()
    compiled = ModelDetector.load(tiny_dir, backend="openvino", preload=True).runtime.compiled
    assert (compiled.get_property("NUM_STREAMS"), compiled.get_property("INFERENCE_NUM_THREADS")) == (1, cores)
    assert compiled.get_property("ENABLE_CPU_PINNING") is False
    one = ModelDetector.load(tiny_dir, backend="openvino", threads=1, preload=True).runtime.compiled
    assert (one.get_property("NUM_STREAMS"), one.get_property("INFERENCE_NUM_THREADS")) == (cores, cores)
