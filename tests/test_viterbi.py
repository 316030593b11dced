import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from alias_engine.detectors.viterbi import (
    N_TAGS,
    DecodeBiases,
    StreamingDecoder,
    is_legal,
    log_softmax,
    transition_scores,
    viterbi,
)
from alias_engine.labels import BIOES_TAGS

T = {tag: i for i, tag in enumerate(BIOES_TAGS)}

finite = st.floats(-20, 20, allow_nan=False, width=32)
logits_st = st.integers(0, 30).flatmap(lambda n: arrays(np.float32, (n, N_TAGS), elements=finite))
biases_st = st.builds(DecodeBiases, finite, finite, finite, finite)


def path_score(tags, logp, biases):
    trans, start, end = transition_scores(biases)
    score = start[tags[0]] + end[tags[-1]] + sum(logp[t, tag] for t, tag in enumerate(tags))
    return score + sum(trans[a, b] for a, b in zip(tags, tags[1:]))


@settings(max_examples=200, deadline=None)
@given(logits_st, biases_st)
def test_viterbi_never_emits_an_illegal_sequence(logits, biases):
    tags = viterbi(log_softmax(logits), biases)
    assert len(tags) == len(logits)
    assert is_legal(tags)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(range(N_TAGS)), min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_viterbi_is_argmax_when_neutral_and_argmax_is_legal(raw, rnd):
    # Repair `raw` into a legal sequence, then make it the argmax of random logits.
    tags, open_label = [], None
    for tag in raw:
        if open_label is None:
            tag = tag if tag == 0 or (tag - 1) % 4 in (0, 3) else 0
            open_label = (tag - 1) // 4 if tag and (tag - 1) % 4 == 0 else None
        else:
            tag = 1 + 4 * open_label + (1 if tag % 2 else 2)
            open_label = open_label if (tag - 1) % 4 == 1 else None
        tags.append(tag)
    if open_label is not None:  # close the last span: B → S, I → E
        tags[-1] += 3 if (tags[-1] - 1) % 4 == 0 else 1
    assert is_legal(tags)
    logits = np.array([[rnd.uniform(-3, 3) for _ in range(N_TAGS)] for _ in tags], dtype=np.float32)
    logits[np.arange(len(tags)), tags] += 10.0
    assert viterbi(log_softmax(logits)).tolist() == tags


@settings(max_examples=50, deadline=None)
@given(arrays(np.float32, (3, N_TAGS), elements=finite), biases_st)
def test_viterbi_finds_the_best_legal_path(logits, biases):
    # Brute force over all 49**3 sequences of three tags.
    logp = log_softmax(logits).astype(np.float64)
    trans, start, end = transition_scores(biases)
    total = ((start + logp[0])[:, None, None] + trans[:, :, None] + logp[1][None, :, None]
             + trans[None, :, :] + (logp[2] + end)[None, None, :])
    tags = viterbi(logp.astype(np.float32), biases).tolist()
    assert path_score(tags, logp, biases) == pytest.approx(total.max(), abs=1e-4)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 200), st.lists(st.integers(1, 50), min_size=1, max_size=10), st.integers(0, 2**31))
def test_streaming_in_chunks_equals_one_feed(n, chunks, seed):
    rng = np.random.default_rng(seed)
    logits = rng.normal(0, 3, size=(n, N_TAGS)).astype(np.float32)
    logits[:, 0] += 4  # mostly background, with spans here and there
    logp = log_softmax(logits)
    decoder = StreamingDecoder()
    pos, i = 0, 0
    while pos < n:
        step = chunks[i % len(chunks)]
        decoder.feed(logp[pos:pos + step])
        pos, i = pos + step, i + 1
    tags, path_logp = decoder.finish()
    assert tags.tolist() == viterbi(logp).tolist()
    assert np.allclose(path_logp, logp[np.arange(n), tags])


def test_a_very_long_undecided_stretch_is_cut_legally():
    # A span that never closes: the decoder settles it after max_pending tokens.
    logits = np.zeros((300, N_TAGS), dtype=np.float32)
    logits[0, T["B-ADDRESS"]] = 9
    logits[1:, T["I-ADDRESS"]] = 9
    decoder = StreamingDecoder(max_pending=50)
    for k in range(0, 300, 20):
        decoder.feed(log_softmax(logits[k:k + 20]))
    tags, _ = decoder.finish()
    assert len(tags) == 300 and is_legal(tags)
    assert tags[0] == T["B-ADDRESS"] and tags[-1] == T["E-ADDRESS"]


def test_is_legal():
    assert is_legal([T["O"], T["B-PERSON"], T["I-PERSON"], T["E-PERSON"], T["S-EMAIL"]])
    assert is_legal([])
    assert not is_legal([T["I-PERSON"]])
    assert not is_legal([T["B-PERSON"]])
    assert not is_legal([T["B-PERSON"], T["E-EMAIL"]])
    assert not is_legal([T["S-PERSON"], T["I-PERSON"], T["E-PERSON"]])
    assert not is_legal([T["O"], T["E-PERSON"]])


def test_recall_bias_trades_spans():
    # A token the model finds slightly more likely background than a name.
    logits = np.zeros((3, N_TAGS), dtype=np.float32)
    logits[:, 0] = 6
    logits[1, 0], logits[1, T["S-PERSON"]] = 5.0, 4.6
    assert viterbi(log_softmax(logits)).tolist() == [0, 0, 0]
    assert viterbi(log_softmax(logits, 1.0)).tolist() == [0, T["S-PERSON"], 0]
    assert np.exp(log_softmax(logits, 1.0)[1, T["S-PERSON"]]) > np.exp(log_softmax(logits)[1, T["S-PERSON"]])
    # Longer spans: a weak continuation is swallowed only with a positive bias.
    logits = np.zeros((3, N_TAGS), dtype=np.float32)
    logits[0, T["B-PERSON"]] = 8
    logits[1, T["E-PERSON"]], logits[1, T["I-PERSON"]] = 8, 7
    logits[2, 0], logits[2, T["E-PERSON"]] = 8, 7
    short = [T["B-PERSON"], T["E-PERSON"], 0]
    assert viterbi(log_softmax(logits)).tolist() == short
    assert viterbi(log_softmax(logits, -2.0)).tolist() == short
    assert viterbi(log_softmax(logits, 3.0)).tolist() == [T["B-PERSON"], T["I-PERSON"], T["E-PERSON"]]


def test_recall_bias_equals_biases_on_every_transition_into_a_span():
    rng = np.random.default_rng(1)
    logits = rng.normal(0, 3, size=(60, N_TAGS)).astype(np.float32)
    as_biases = DecodeBiases(enter=1.5, continuation=1.5, closing=1.5)
    assert viterbi(log_softmax(logits, 1.5)).tolist() == viterbi(log_softmax(logits), as_biases).tolist()


def test_recall_bias_must_be_finite():
    with pytest.raises(ValueError):
        log_softmax(np.zeros((1, N_TAGS)), float("nan"))
