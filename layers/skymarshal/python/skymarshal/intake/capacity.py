"""The figures of an airport report that make it a capacity cut or an ATC regulation rather than a closure: a share
of capacity ("capacity cut to 50 %"), a rate ("20 movements per hour") or a slot delay ("45-minute ATC slot
delays"). Each is a stated fact with the report's words; nothing is estimated here.
"""

from __future__ import annotations

import re

from ..models.disruption import Fact

# "to 50 %", "50% capacity", "half capacity" — a share of the normal rate; "by 30 %" is a cut of 30 %.
_SHARE_TO = re.compile(
    r"\b(?:to|at)\s+(\d{1,3})\s*(?:%|per ?cent)|\b(\d{1,3})\s*(?:%|per ?cent)\s+(?:of\s+)?(?:its\s+|the\s+|normal\s+)*capacity",
    re.I,
)
_SHARE_BY = re.compile(r"\b(?:cut|reduced|reduction|down)\s+(?:of\s+|by\s+)(\d{1,3})\s*(?:%|per ?cent)", re.I)
_HALF = re.compile(r"\bhalf (?:its |the |normal )*capacity|capacity (?:is )?halved|halves (?:its |the )?capacity", re.I)
_RATE = re.compile(r"\b(\d{1,3})\s+(?:movements|flights|slots)\s*(?:per|an|a|/)\s*(?:hour|h)\b", re.I)
_SLOT = re.compile(
    r"\b(\d{1,3})[- ]?(?:min(?:ute)?s?)\b[^.]{0,30}?\b(?:slot|atc|atfm|flow|regulation|ctot)"
    r"|\b(?:slot|atc|atfm|flow|regulation|ctot)\w*\b[^.]{0,40}?\b(\d{1,3})[- ]?(?:min(?:ute)?s?)\b",
    re.I,
)
_ATC = re.compile(r"\b(?:atc|atfm|air traffic|flow (?:control|regulation)|slot)", re.I)


def _fact(name: str, value: int | float, m: re.Match[str]) -> Fact:
    return Fact(name=name, value=value, source="stated", evidence=m.group(0), span=m.span())


def rate_facts(report: str) -> list[Fact]:
    """The capacity share, rate or slot delay the report states (at most one of each), with its words."""
    facts: list[Fact] = []
    if (m := _SHARE_BY.search(report)) is not None and 0 < int(m.group(1)) <= 100:
        facts.append(_fact("capacity_share", round(1 - int(m.group(1)) / 100, 2), m))
    elif (m := _SHARE_TO.search(report)) is not None and 0 <= int(m.group(1) or m.group(2)) <= 100:
        facts.append(_fact("capacity_share", int(m.group(1) or m.group(2)) / 100, m))
    elif (m := _HALF.search(report)) is not None:
        facts.append(_fact("capacity_share", 0.5, m))
    if (m := _RATE.search(report)) is not None:
        facts.append(_fact("capacity_per_hour", int(m.group(1)), m))
    if _ATC.search(report) and (m := _SLOT.search(report)) is not None:
        facts.append(_fact("slot_delay_minutes", int(m.group(1) or m.group(2)), m))
    return facts
