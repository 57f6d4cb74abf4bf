"""Whether a flight can operate with the cabin crew it has left (issue 46 item 4): a cabin crew member sick away from
base need not cancel the flight when the others still meet the certified minimum (EASA ORO.CC.100) and one of them can
be named senior cabin crew member (ORO.CC.200: required with more than one cabin crew member).

The operator's complement per type (``AircraftType.cabin_crew``) is its service standard, above the legal minimum;
flying below the complement but at or above the minimum is a commercial decision the duty manager takes, not a legal
one. Pure: the caller passes who is left and who can lead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from ...models.fleet import AIRCRAFT_TYPES

CLAUSE = "ORO.CC.100(b) minimum cabin crew; ORO.CC.200 senior cabin crew member"
SEATS_PER_CABIN_CREW = 50  # ORO.CC.100(b)(2): one per 50 passenger seats, or fraction of 50, on the same deck
NO_CABIN_CREW_UP_TO = 19  # ORO.CC.100(a): cabin crew are required above 19 passenger seats


class CabinMinimum(BaseModel):
    """The verdict on operating with the cabin crew left, with its reason."""

    model_config = ConfigDict(frozen=True)

    code: str  # "MEETS_MINIMUM", "BELOW_MINIMUM", "NO_SENIOR", "UNKNOWN_TYPE"
    operable: bool
    left: int
    minimum: int
    message: str


def certified_minimum(seats_by_deck: Sequence[int]) -> int:
    """ORO.CC.100(b)(2): one cabin crew member per 50 passenger seats, or fraction of 50, installed on each deck;
    none for an aircraft of 19 seats or fewer (ORO.CC.100(a)). The certification's evacuation minimum, where higher,
    is the type's own figure and would be passed as a deck's seats rounded up to it."""
    if sum(seats_by_deck) <= NO_CABIN_CREW_UP_TO:
        return 0
    return sum(math.ceil(seats / SEATS_PER_CABIN_CREW) for seats in seats_by_deck if seats > 0)


def operate_with(aircraft_type: str, left: int, senior_qualified: int) -> CabinMinimum:
    """Whether `left` cabin crew (of whom `senior_qualified` can be named senior cabin crew member) may operate
    `aircraft_type` (one deck: every type in the fleet table is single-deck)."""
    info = AIRCRAFT_TYPES.get(aircraft_type)
    if info is None:
        return CabinMinimum(
            code="UNKNOWN_TYPE", operable=False, left=left, minimum=0, message=f"{aircraft_type}: seats unknown"
        )
    minimum = certified_minimum([info.seats])
    if left < minimum:
        return CabinMinimum(
            code="BELOW_MINIMUM",
            operable=False,
            left=left,
            minimum=minimum,
            message=f"{left} cabin crew left, {minimum} required for {info.seats} seats ({CLAUSE})",
        )
    if left > 1 and senior_qualified < 1:
        return CabinMinimum(
            code="NO_SENIOR",
            operable=False,
            left=left,
            minimum=minimum,
            message=f"none of the {left} cabin crew left can be named senior cabin crew member ({CLAUSE})",
        )
    return CabinMinimum(
        code="MEETS_MINIMUM",
        operable=True,
        left=left,
        minimum=minimum,
        message=f"{left} cabin crew left meet the minimum of {minimum} for {info.seats} seats "
        f"(complement {info.cabin_crew}; {CLAUSE})",
    )
