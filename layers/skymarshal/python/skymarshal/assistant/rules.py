"""The rules corpus: question/answer entries per jurisdiction with tags, and three ways to read it.

- ``answer``  retrieval for one jurisdiction: TF-IDF cosine (``textsim``) of the question against each entry's
              question + answer, kept above a similarity threshold, optionally after query reformulation
              (domain synonyms appended) and reranking (tag and question-field agreement).
- ``browse``  entries by jurisdiction and tag, paged with offset/limit/has_more.
- ``compare`` 2+ jurisdictions aligned on shared tags; for each tag the answers are compared pairwise by
              TF-IDF cosine, and a pair below ``difference_threshold`` is reported as a difference. A tag only
              some jurisdictions have is a difference too (one has a rule on record, the other none).
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from itertools import combinations
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from .textsim import TfidfIndex, tokens

PACKAGED_RULES = Path(__file__).parent / "data" / "rules.json"

# Everyday names for the jurisdictions, matched on word boundaries ("uk", "british", "eu261" → EU).
JURISDICTION_NAMES: dict[str, tuple[str, ...]] = {
    "EU": ("eu", "eu261", "european union", "europe", "eea"),
    "GB": ("uk", "uk261", "united kingdom", "britain", "great britain", "british", "england", "gb"),
    "FR": ("france", "french", "fr"),
    "DE": ("germany", "german", "de"),
    "NL": ("netherlands", "dutch", "holland", "nl"),
    "AE": ("uae", "united arab emirates", "emirati", "ae"),
    "US": ("us", "usa", "united states", "america", "american"),
    "AU": ("australia", "australian", "au"),
}

# Query reformulation offline: domain synonyms appended to the question so the lexical measure meets the
# corpus's wording ("night" questions are answered by "curfew" entries).
SYNONYMS: dict[str, str] = {
    "night": "curfew night flights",
    "curfew": "night flights ban",
    "hotel": "care accommodation",
    "meal": "care refreshments",
    "compensation": "compensated amounts",
    "compensate": "compensation",
    "late": "delay",
    "delayed": "delay",
    "cancelled": "cancellation",
    "canceled": "cancellation",
    "overbooked": "denied boarding",
    "bumped": "denied boarding",
    "pilot": "crew duty",
    "fdp": "crew duty",
    "claim": "time limit claims",
    "money": "refund compensation",
    "long-haul": "over 3,500 km",
    "longhaul": "over 3,500 km",
}


class RuleEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    jurisdiction: str = Field(pattern=r"^[A-Z]{2}$")
    tags: tuple[str, ...]
    question: str
    answer: str
    source: str


class RulesFile(BaseModel):
    model_config = ConfigDict(frozen=True)

    about: str
    jurisdictions: dict[str, str]
    entries: tuple[RuleEntry, ...]


class ScoredRule(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry: RuleEntry
    score: float  # TF-IDF cosine of the (reformulated) question to the entry, after reranking


class RulesPage(BaseModel):
    entries: list[RuleEntry]
    total: int
    offset: int
    limit: int
    has_more: bool


class PairDifference(BaseModel):
    a: str
    b: str
    similarity: float
    differs: bool
    only_in_a: list[str]  # distinctive terms of a's answers missing from b's (e.g. "gbp", "520")
    only_in_b: list[str]


class TopicComparison(BaseModel):
    tag: str
    entries: dict[str, list[RuleEntry]]  # jurisdiction → its entries with the tag
    pairs: list[PairDifference]
    missing: list[str]  # jurisdictions with no entry for the tag

    @property
    def differs(self) -> bool:
        return bool(self.missing) or any(p.differs for p in self.pairs)


class UnknownJurisdiction(LookupError):
    def __init__(self, text: str, known: list[str]):
        super().__init__(f"no rules on record for {text!r}: known jurisdictions are {', '.join(known)}")


class RulesCorpus:
    def __init__(self, rules: RulesFile):
        self.rules = rules
        self.entries = rules.entries
        self.index = TfidfIndex([f"{e.question} {e.answer} {' '.join(e.tags)}" for e in self.entries])
        self.question_index = TfidfIndex([e.question for e in self.entries])

    @property
    def jurisdictions(self) -> list[str]:
        return sorted(self.rules.jurisdictions)

    @property
    def tags(self) -> list[str]:
        return sorted({t for e in self.entries for t in e.tags})

    def jurisdiction(self, text: str) -> str:
        code = find_jurisdiction(text)
        if code is None or code not in self.rules.jurisdictions:
            raise UnknownJurisdiction(text, self.jurisdictions)
        return code

    def answer(
        self,
        jurisdiction: str,
        question: str,
        *,
        top_k: int,
        threshold: float,
        reformulate: bool = False,
        rerank: bool = False,
    ) -> list[ScoredRule]:
        query = reformulated(question) if reformulate else question
        scores = self.index.scores(query)
        if rerank:
            scores = self._reranked(question, scores)
        ranked = sorted(
            (i for i, e in enumerate(self.entries) if e.jurisdiction == jurisdiction), key=lambda i: -scores[i]
        )
        return [
            ScoredRule(entry=self.entries[i], score=round(float(scores[i]), 4))
            for i in ranked[:top_k]
            if scores[i] >= threshold
        ]

    def _reranked(self, question: str, scores):
        """Blend in agreement with the entry's own question and its tags: a second, narrower lexical signal."""
        asked = set(tokens(reformulated(question)))
        question_scores = self.question_index.scores(question)
        tag_hits = [len(asked & {w for t in e.tags for w in t.split("_")}) for e in self.entries]
        return 0.7 * scores + 0.2 * question_scores + 0.1 * (scores > 0) * [min(h, 2) / 2 for h in tag_hits]

    def browse(self, *, jurisdiction: str | None, tags: list[str], offset: int, limit: int) -> RulesPage:
        chosen = [
            e
            for e in self.entries
            if (jurisdiction is None or e.jurisdiction == jurisdiction) and all(t in e.tags for t in tags)
        ]
        page = chosen[offset : offset + limit]
        return RulesPage(
            entries=page, total=len(chosen), offset=offset, limit=limit, has_more=offset + len(page) < len(chosen)
        )

    def compare(
        self, jurisdictions: list[str], *, tags: list[str], question: str, difference_threshold: float
    ) -> list[TopicComparison]:
        """Topic by topic across the jurisdictions; with no tags, the tags the question's best matches carry."""
        topics = tags or self._topics_for(question, jurisdictions)
        relevance = self.index.scores(reformulated(question)) if question else None
        comparisons, seen = [], set()
        for tag in topics:
            found = {
                j: self._by_relevance(
                    [i for i, e in enumerate(self.entries) if e.jurisdiction == j and tag in e.tags], relevance
                )
                for j in jurisdictions
            }
            present = [j for j in jurisdictions if found[j]]
            same_entries = tuple(e.id for j in present for e in found[j])
            if not present or same_entries in seen:  # a tag carried by exactly the entries already compared
                continue
            seen.add(same_entries)
            pairs = []
            for a, b in combinations(present, 2):
                text_a, text_b = _joined(found[a]), _joined(found[b])
                similarity = self.index.similarity(text_a, text_b)
                pairs.append(
                    PairDifference(
                        a=a,
                        b=b,
                        similarity=round(similarity, 4),
                        differs=similarity < difference_threshold,
                        only_in_a=self.index.distinctive_terms(text_a, text_b),
                        only_in_b=self.index.distinctive_terms(text_b, text_a),
                    )
                )
            comparisons.append(
                TopicComparison(
                    tag=tag,
                    entries={j: found[j] for j in present},
                    pairs=pairs,
                    missing=[j for j in jurisdictions if not found[j]],
                )
            )
        return comparisons

    def _by_relevance(self, positions: list[int], relevance) -> list[RuleEntry]:
        """Entries most relevant to the question first (corpus order without a question)."""
        if relevance is not None:
            positions = sorted(positions, key=lambda i: -relevance[i])
        return [self.entries[i] for i in positions]

    def _topics_for(self, question: str, jurisdictions: list[str], limit: int = 4) -> list[str]:
        scores = self.index.scores(reformulated(question))
        ranked = sorted(
            (i for i, e in enumerate(self.entries) if e.jurisdiction in jurisdictions), key=lambda i: -scores[i]
        )
        topics: list[str] = []
        for i in ranked:
            for tag in self.entries[i].tags:
                if tag not in topics and scores[i] > 0:
                    topics.append(tag)
            if len(topics) >= limit:
                break
        return topics[:limit]


def _joined(entries: list[RuleEntry]) -> str:
    return " ".join(e.answer for e in entries)


def reformulated(question: str) -> str:
    extra = [SYNONYMS[t] for t in tokens(question) if t in SYNONYMS]
    return " ".join([question, *extra])


def find_jurisdictions(text: str) -> list[str]:
    """Jurisdiction codes named in the text, in order of first mention, each once."""
    lowered = text.lower()
    hits = []
    for code, names in JURISDICTION_NAMES.items():
        positions = [
            m.start()
            for name in names
            for m in re.finditer(rf"\b{re.escape(name)}\b", lowered)
            if not (len(name) == 2 and name not in ("uk", "us", "eu"))
        ]
        if positions:
            hits.append((min(positions), code))
    return [code for _, code in sorted(hits)]


def find_jurisdiction(text: str) -> str | None:
    stripped = text.strip()
    if stripped.upper() in JURISDICTION_NAMES:
        return stripped.upper()
    found = find_jurisdictions(stripped)
    return found[0] if found else None


@lru_cache(maxsize=4)
def load_rules(path: str | None = None) -> RulesCorpus:
    file = Path(path or os.environ.get("SKYMARSHAL_ASSISTANT_RULES") or PACKAGED_RULES)
    return RulesCorpus(RulesFile.model_validate(json.loads(file.read_text(encoding="utf-8"))))
