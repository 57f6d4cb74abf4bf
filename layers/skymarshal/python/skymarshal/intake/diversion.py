"""A diversion stated in a report's prose — "diverted to Muscat", "has diverted to MCT and is on the ground there",
"DIV MCT" (normalised to "diverted") — as the airport the flight is on the ground at: the `diverted_to` fact a DIV
message gives (intake/movement_facts.py), read from words instead of elements.

Only a diversion that has happened is a fact. A clause that speaks of one that may happen ("may divert", "could be
diverted to", "if it diverts", "plans to divert", "not diverted") states none, nor does an instructing sentence
(blanked first). The alternate is an airport of the reference by its IATA code or by the one airport its name
means ("Muscat"); a name of several ("diverted to London") is no fact: the reading does not guess which.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..data import schema as s
from ..data.overlay import Overlay, RowPatch
from ..models.airports import UnknownAirport, airport, codes_named_in, route_distance_km
from .normalise import normalise
from .report import NOT_AIRPORTS, Reading, folded
from .sentences import blank_instructions

# "diverted" (or "DIV", written out), then "to"/"into"/"in"/"at", then the place: a code or up to three capitalised
# words. The verb alone: "divert", "diverting", "diversion to" speak of one still to come as often as of one done.
DIVERTED = re.compile(
    r"\bdiverted\s+(?:(?:to|into|in|at)\s+)?(?:the\s+)?"
    r"(?P<place>[A-Z]{3}\b|[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2})"
)
# A clause that speaks of a diversion still to come or that did not happen (looked for between the clause's start
# and "diverted").
NOT_DONE = re.compile(
    r"\b(?:may|might|could|would|will|shall|should|can|must|if|whether|unless|in case|possibl\w*|likely|probabl\w*"
    r"|plan\w*|consider\w*|prepar\w*|expect\w*|intend\w*|to be|not|never|no longer|n't|avoid\w*)\b",
    re.I,
)
# A diversion lands near the route it flew: farther than this from the great circle, a namesake is not the alternate.
ALTERNATE_REACH_KM = 1_500
CLAUSE_START = re.compile(r"[.;:!?\n]|,\s|\bbut\b|\band\b", re.I)


@dataclass(frozen=True)
class StatedDiversion:
    """Where the report says the flight diverted, with the report's own words for it."""

    airport: str
    reading: Reading


def _airport_of(place: str, route: tuple[str, str] | None = None) -> str | None:
    """The one reference airport `place` names (its IATA code, else the longest run of its words that is a name);
    a name of several ("Naples": NAP and APF) is the one within reach of the flight's `route`, if only one is."""
    if re.fullmatch(r"[A-Z]{3}", place):
        if place in NOT_AIRPORTS:
            return None
        try:
            airport(place)
        except UnknownAirport:
            return None
        return place
    words = place.split()
    for n in range(len(words), 0, -1):
        codes = codes_named_in(folded(" ".join(words[:n])))
        if len(codes) > 1 and route is not None:
            codes = {c for c in codes if _within_reach(c, route)}
        if codes:
            return next(iter(codes)) if len(codes) == 1 else None
    return None


def _within_reach(code: str, route: tuple[str, str]) -> bool:
    try:
        return route_distance_km(code, *route) <= ALTERNATE_REACH_KM
    except UnknownAirport:
        return False


def stated_diversion(text: str, route: tuple[str, str] | None = None) -> StatedDiversion | None:
    """The diversion the report states as done, or None (none stated, one still to come, an unknown or ambiguous
    place); `route` (the flight's origin and destination) tells a name's airports apart."""
    norm = normalise(text)
    plain = blank_instructions(norm.text)
    for m in DIVERTED.finditer(plain):
        before = plain[: m.start()]
        starts = [c.end() for c in CLAUSE_START.finditer(before)]
        if NOT_DONE.search(before[starts[-1] if starts else 0 :]):
            continue
        code = _airport_of(m.group("place"), route)
        if code is None:
            continue
        span = norm.source(*m.span())
        return StatedDiversion(code, Reading(value=code, span=span, words=norm.original[span[0] : span[1]]))
    return None


def diverted_overlay(overlay: Overlay, flight_id: str, alternate: str) -> Overlay:
    """`overlay` with the flight's row seen DIVERTED at `alternate` (rotation checks then start the tail's day from
    there, and no plan flies it from its origin)."""
    patch = RowPatch(
        table=s.FLIGHTS,
        key={"flight_id": flight_id},
        fields={"status": "DIVERTED", "diverted_to": alternate},
        fact="diverted_to",
    )
    return Overlay(patches=[*overlay.patches, patch], additions=overlay.additions)
