"""The cause of a report: every code of the lexicon (lexicon.py) the report's sentences give cues for, scored, the
strongest first, with a confidence.

A code's score is its strongest cue's weight plus a quarter of its other cues' (several cues for one cause make it
surer, never outweigh a cue that names another cause). Instructing sentences are blanked first (sentences.py), so
an injected sentence adds nothing. The confidence is how far the first code stands above the second, scaled by how
much its cue settles the cause: one hint ("failed") read alone is a low-confidence reading the decision shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from .lexicon import CUES, Cue
from .normalise import Normalised
from .sentences import blank_instructions, spans

SETTLED = 3.0  # a cue this strong names the cause by itself
OTHERS = 0.25  # what each further cue of the same code adds
IMPLIES = 2.0  # a cue this strong implies its cause; below it, a hint
# What may stand between a defect hint and the thing it qualifies: "hydrant failure", "GPU - failed", "the bowser
# has broken down", "tug is u/s".
BETWEEN = re.compile(r"[\s:–-]*(?:(?:has|have|had|is|are|was|were|been|got|gone|now)\s+)*")


@dataclass(frozen=True)
class Found:
    """A code the report gives cues for: its score, its fact's name and the words of its strongest cue."""

    code: int
    fact: str
    score: float
    span: tuple[int, int]  # in the report (not the normalised text)
    words: str


@dataclass(frozen=True)
class CauseReading:
    found: tuple[Found, ...]  # strongest first; empty when no cue is in the report
    confidence: float

    @property
    def first(self) -> Found | None:
        return self.found[0] if self.found else None


@cache
def _compiled(group: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{group})(?![\w]|-\w)", re.I)


NEAR = 40  # a cue's words closer than this are quoted together ("cracked windshield"), else its first group's


def _match(cue: Cue, sentence: str) -> tuple[int, int] | None:
    """The span of the cue's words when every group of it occurs in the sentence."""
    spans = []
    for group in cue.groups:
        m = _compiled(group).search(sentence)
        if m is None:
            return None
        spans.append(m.span())
    start, end = min(a for a, _ in spans), max(b for _, b in spans)
    return (start, end) if end - start <= NEAR else spans[0]


def _explained(hit: tuple[int, int], cue: Cue, hits: list[Cue], sentence: str) -> bool:
    """A defect hint ("failure", "broken", "U/S") right beside the words of a cue that implies another cause
    qualifies that cue's thing, not the aircraft: "hydrant failure" is fuelling, "GPU failure" and "tug broken down"
    ramp equipment — no defect of the aircraft is stated."""
    if cue.fact != "aircraft_defect" or cue.weight >= IMPLIES:
        return False
    return any(
        _beside(sentence, hit, m.span())
        for other in hits
        if other.code != cue.code and other.weight >= IMPLIES
        for group in other.groups
        for m in _compiled(group).finditer(sentence)
    )


def _beside(sentence: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Nothing but spacing, a dash or colon, or an auxiliary ("has", "is") between the two spans."""
    first, second = sorted((a, b))
    return first[1] <= second[0] and BETWEEN.fullmatch(sentence[first[1] : second[0]]) is not None


def read_cause(norm: Normalised) -> CauseReading:
    """Every code the report gives cues for, strongest first, and the confidence in the first."""
    text = blank_instructions(norm.text).lower()
    best: dict[int, tuple[float, str, tuple[int, int]]] = {}
    extra: dict[int, float] = {}
    order: dict[int, int] = {}
    for start, end in spans(text):
        sentence = text[start:end]
        matched = {index: hit for index, cue in enumerate(CUES) if (hit := _match(cue, sentence)) is not None}
        for index, hit in matched.items():
            cue = CUES[index]
            if _explained(hit, cue, [CUES[i] for i in matched], sentence):
                continue
            span = (start + hit[0], start + hit[1])
            order.setdefault(cue.code, index)
            held = best.get(cue.code)
            if held is None or cue.weight > held[0]:
                if held is not None:
                    extra[cue.code] = extra.get(cue.code, 0) + held[0]
                best[cue.code] = (cue.weight, cue.fact, span)
            else:
                extra[cue.code] = extra.get(cue.code, 0) + cue.weight
    found: list[Found] = []
    for code, (weight, fact, span) in best.items():
        score = weight + OTHERS * min(extra.get(code, 0), weight)
        source = norm.source(*span)
        found.append(Found(code, fact, round(score, 3), source, norm.original[source[0] : source[1]]))
    found.sort(key=lambda f: (-f.score, order[f.code]))
    return CauseReading(tuple(found), _confidence(found))


def _confidence(found: list[Found]) -> float:
    if not found:
        return 0.0
    top = found[0].score
    second = found[1].score if len(found) > 1 else 0.0
    margin = (top - second) / top
    strength = min(1.0, top / SETTLED)
    return round(max(0.05, min(0.99, strength * (0.5 + 0.5 * margin))), 2)
