"""The figures of an airport report that make it a capacity cut or a hold rather than a closure, in every form an
OCC writes them: a share of capacity ("cut to 50 %", "reduced by 30 %", "halved", "cut to half", "a third of
normal"), a rate ("20 movements an hour", "12 arrivals/hr"), runways ("one runway only": half the rate of two) or a
delay every movement carries ("45-minute ATC slot delays", "departures held about 45 min", "slots +90").
Each is a stated fact with the report's words; nothing is estimated here. Instructing sentences are blanked first.
"""

from __future__ import annotations

import re

from ..models.disruption import Fact
from .normalise import normalise
from .sentences import blank_instructions

_PERCENT = r"(\d{1,3})\s*(?:%|per ?cent|pct)"
_SHARE_TO = re.compile(
    rf"\b(?:to|at|of)\s+(?:about\s+|around\s+|roughly\s+)?{_PERCENT}|\b{_PERCENT}\s+(?:of\s+)?(?:its\s+|the\s+|normal\s+)*"
    r"(?:capacity|rate|movements|flow)",
    re.I,
)
_SHARE_BY = re.compile(
    rf"\b(?:cut|cuts|reduced|reduces|reduction|down|lowered|drop(?:ped|s)?|fall(?:s|en)?|limited)\s+(?:of\s+|by\s+)?{_PERCENT}",
    re.I,
)
_FRACTIONS = {"half": 0.5, "halved": 0.5, "halves": 0.5, "halving": 0.5, "third": 0.33, "quarter": 0.25}
_FRACTION = re.compile(
    r"\b(?:(?:cut|reduced|down|limited)\s+(?:to|by)\s+(?:a\s+|one\s+)?)?(half|halved|halves|halving|third|quarter)\b",
    re.I,
)
_CAPACITY_WORDS = re.compile(
    r"\b(?:capacity|rate|rates|movements?|arrivals?|departures?|flow|throughput|slots?|traffic|operations)\b", re.I
)
_RATE = re.compile(
    r"\b(\d{1,3})\s+(?:movements?|flights?|slots?|arrivals?|departures?|landings?|take-?offs?|aircraft)\s*"
    r"(?:per|an|a|/|each|every)\s*(?:hour|hr|h)\b",
    re.I,
)
_RUNWAYS = re.compile(
    r"\b(?:one|single|1)[- ]runway(?:\s+(?:only|operations?|ops|in use))?|\bonly\s+one\s+runway|\brunway\s+\w+\s+only\b",
    re.I,
)
_DELAY = r"(\d{1,3})\s*-?\s*(?:min(?:ute)?s?|m)\b"
_HOLD = re.compile(
    rf"\b(?:slot\w*|atc|atfm|flow|regulation\w*|ctot\w*|held|holding|hold|holds|delays?|delayed|late|waits?)\b[^.;]{{0,40}}?"
    rf"(?:\+\s*(\d{{1,3}})\b|{_DELAY})"
    rf"|{_DELAY}[^.;]{{0,30}}?\b(?:slot|slots|atc|atfm|flow|regulation|ctot|holds?|delays?|late|later)\b",
    re.I,
)


def _fact(name: str, value: int | float, report: str, span: tuple[int, int]) -> Fact:
    return Fact(name=name, value=value, source="stated", evidence=report[span[0] : span[1]] or "?", span=span)


def rate_facts(report: str) -> list[Fact]:
    """The capacity share, rate or hold the report states (at most one of each), with its words."""
    norm = normalise(report)
    text = blank_instructions(norm.text)
    facts: list[Fact] = []
    share: tuple[float, tuple[int, int]] | None = None
    if (m := _SHARE_BY.search(text)) is not None and 0 < int(m.group(1)) <= 100:
        share = round(1 - int(m.group(1)) / 100, 2), m.span()
    elif (m := _SHARE_TO.search(text)) is not None and 0 <= int(m.group(1) or m.group(2)) <= 100:
        share = int(m.group(1) or m.group(2)) / 100, m.span()
    elif (m := _FRACTION.search(text)) is not None and _CAPACITY_WORDS.search(text):
        share = _FRACTIONS[m.group(1).lower()], m.span()
    elif (m := _RUNWAYS.search(text)) is not None:
        share = 0.5, m.span()  # one runway of the usual two: half the rate
    if share is not None:
        facts.append(_fact("capacity_share", share[0], report, norm.source(*share[1])))
    if (m := _RATE.search(text)) is not None:
        facts.append(_fact("capacity_per_hour", int(m.group(1)), report, norm.source(*m.span())))
    if (m := _HOLD.search(text)) is not None:
        minutes = int(next(g for g in m.groups() if g))
        if 0 < minutes <= 600:
            facts.append(_fact("slot_delay_minutes", minutes, report, norm.source(*m.span())))
    return facts
