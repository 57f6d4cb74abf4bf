"""TF-IDF cosine similarity: the assistant's documented lexical measure for retrieval and comparison.

Weights are smoothed TF-IDF (sublinear term frequency 1 + ln tf, idf = ln((1 + N) / (1 + df)) + 1, as in
scikit-learn's TfidfVectorizer defaults), vectors are L2-normalised, so the cosine of two texts is their dot
product, in [0, 1]. Lexical rather than embedding-based on purpose: it runs offline with no model download,
weighs rare terms (clause numbers, airport codes, "Sturgeon") highly, and fits a corpus of a few hundred entries.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

TOKEN = re.compile(r"[a-z0-9]+")
# Words that carry no meaning for rules questions; dropped so they do not inflate similarity.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "how",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "the",
        "this",
        "to",
        "under",
        "what",
        "when",
        "which",
        "who",
        "with",
        "there",
        "their",
        "than",
        "that",
        "these",
        "those",
        "if",
        "i",
        "we",
        "you",
        "me",
        "my",
        "our",
        "any",
        "all",
        "be",
        "been",
        "was",
        "were",
        "will",
        "would",
    ]
)


def tokens(text: str) -> list[str]:
    return [t for t in TOKEN.findall(text.lower()) if t not in STOPWORDS]


class TfidfIndex:
    """A fitted vocabulary and IDF over a corpus; vectors for any text, cosine against every document."""

    def __init__(self, documents: Sequence[str]):
        token_lists = [tokens(d) for d in documents]
        frequencies = Counter(t for toks in token_lists for t in set(toks))
        self.vocabulary = {term: i for i, term in enumerate(sorted(frequencies))}
        n = len(documents)
        self.idf = np.array([math.log((1 + n) / (1 + frequencies[t])) + 1 for t in sorted(frequencies)])
        self.matrix = np.vstack([self._vector(toks) for toks in token_lists]) if documents else np.zeros((0, 0))

    def _vector(self, toks: list[str]) -> np.ndarray:
        vector = np.zeros(len(self.vocabulary))
        for term, count in Counter(toks).items():
            if term in self.vocabulary:
                vector[self.vocabulary[term]] = 1 + math.log(count)
        vector *= self.idf
        norm = np.linalg.norm(vector)
        return vector / norm if norm else vector

    def vector(self, text: str) -> np.ndarray:
        return self._vector(tokens(text))

    def scores(self, text: str) -> np.ndarray:
        """Cosine similarity of ``text`` to every document, in corpus order."""
        return self.matrix @ self.vector(text) if len(self.matrix) else np.zeros(0)

    def similarity(self, a: str, b: str) -> float:
        return float(self.vector(a) @ self.vector(b))

    def distinctive_terms(self, a: str, b: str, limit: int = 6) -> list[str]:
        """Terms of ``a`` absent from ``b``, highest TF-IDF weight first: what one text says that the other does not."""
        weights = self.vector(a)
        absent = set(tokens(b))
        terms = sorted(self.vocabulary, key=lambda t: -weights[self.vocabulary[t]])
        return [t for t in terms if weights[self.vocabulary[t]] > 0 and t not in absent][:limit]
