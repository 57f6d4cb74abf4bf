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
from .lexicon_words import AIRCRAFT_PARTS, DEFECT
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


# An aircraft part said to have failed ("hydraulic system failed", "APU will not start"): the aircraft's defect is
# stated, above a place or a piece of equipment the same sentence names in passing ("… returned to stand"), unless
# the report names a cause by itself (a bird strike: the failed engine is its consequence)
SAID_FAILED = 2.75
# the part, and the noun that may close its name ("hydraulic system", "bleed valve")
_PART = re.compile(
    rf"(?<![\w-])(?:{AIRCRAFT_PARTS})(?:\s+(?:system|unit|assembly|pump|valve|light|indication))?(?![\w]|-\w)", re.I
)


def _a_part_said_to_fail(cue: Cue, sentence: str) -> bool:
    """Is this the parts-and-defect cue (41), with a part of the aircraft and its defect written side by side?"""
    if cue.code != 41 or cue.groups != (AIRCRAFT_PARTS, DEFECT):
        return False
    defects = [m.span() for m in _compiled(DEFECT).finditer(sentence)]
    parts = [m.span() for m in _PART.finditer(sentence)]
    return any(p[1] <= d[0] and _beside(sentence, p, d) for p in parts for d in defects)


def _needed_for_a_defect(hit: tuple[int, int], cue: Cue, sentence: str) -> bool:
    """Ground equipment (AHM 730 39) in a sentence that says an aircraft part failed, the equipment itself not: it is
    needed because of the defect ("APU inoperative, no GPU available"), so the cause is the aircraft's (41)."""
    if cue.fact != "ramp_equipment":
        return False
    defects = [m.span() for m in _compiled(DEFECT).finditer(sentence)]
    parts = [m.span() for m in _compiled(AIRCRAFT_PARTS).finditer(sentence)]
    equipment = [m.span() for m in _compiled(cue.groups[0]).finditer(sentence)]
    part_failed = any(p[1] <= d[0] and _beside(sentence, p, d) for p in parts for d in defects)
    return part_failed and not any(_beside(sentence, e, d) for e in equipment for d in defects)


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
    said_failed = False
    for start, end in spans(text):
        sentence = text[start:end]
        matched = {index: hit for index, cue in enumerate(CUES) if (hit := _match(cue, sentence)) is not None}
        for index, hit in matched.items():
            cue = CUES[index]
            if _explained(hit, cue, [CUES[i] for i in matched], sentence) or _needed_for_a_defect(hit, cue, sentence):
                continue
            span = (start + hit[0], start + hit[1])
            order.setdefault(cue.code, index)
            said_failed = said_failed or _a_part_said_to_fail(cue, sentence)
            held = best.get(cue.code)
            if held is None or cue.weight > held[0]:
                if held is not None:
                    extra[cue.code] = extra.get(cue.code, 0) + held[0]
                best[cue.code] = (cue.weight, cue.fact, span)
            else:
                extra[cue.code] = extra.get(cue.code, 0) + cue.weight
    if said_failed and 41 in best and not any(w >= SETTLED for c, (w, _, _) in best.items() if c != 41):
        weight, fact, span = best[41]  # no cause named by itself: the part said to have failed is the cause
        best[41] = (max(weight, SAID_FAILED), fact, span)
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
