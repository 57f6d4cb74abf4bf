"""TF-IDF cosine: the documented lexical measure behind retrieval and comparison."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.assistant.textsim import TfidfIndex

CORPUS = [
    "EU261 compensation EUR 600 for flights over 3,500 km",
    "UK261 compensation GBP 520 over 3,500 km",
    "Frankfurt curfew 23:00 to 05:00 local",
    "Sydney curfew 23:00 to 06:00",
    "crew duty limits ORO.FTL.205",
]
INDEX = TfidfIndex(CORPUS)
words = st.lists(
    st.sampled_from(
        [
            "compensation",
            "curfew",
            "crew",
            "gbp",
            "eur",
            "600",
            "520",
            "frankfurt",
            "sydney",
            "duty",
            "km",
            "local",
            "zebra",
        ]
    ),
    min_size=1,
    max_size=8,
).map(" ".join)


@given(words, words)
def test_similarity_is_symmetric_and_bounded(a, b):
    assert abs(INDEX.similarity(a, b) - INDEX.similarity(b, a)) < 1e-9
    assert -1e-9 <= INDEX.similarity(a, b) <= 1 + 1e-9


@given(words)
def test_a_text_is_most_similar_to_itself(a):
    if INDEX.vector(a).any():  # a text of known terms
        assert abs(INDEX.similarity(a, a) - 1) < 1e-9


def test_rare_terms_weigh_more_than_shared_ones():
    scores = INDEX.scores("GBP compensation")
    assert scores.argmax() == 1  # "gbp" is in one document, "compensation" in two


def test_distinctive_terms_name_what_one_side_says_and_the_other_does_not():
    # The three terms each occur in one document only, so they tie on weight and keep alphabetical order.
    assert INDEX.distinctive_terms(CORPUS[1], CORPUS[0]) == ["520", "gbp", "uk261"]
    assert INDEX.distinctive_terms(CORPUS[0], CORPUS[1]) == ["600", "eu261", "eur", "flights"]
