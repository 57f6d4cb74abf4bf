"""Tail swap: the refusal and note codes, the clauses cited, ``SwapConfig`` and the result models
(``CabinPlan``, ``TailSwapEligibility``) of ``rules.tail_swap``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..models.common import UtcDatetime
from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding
from ..models.operational import Cabin
from ._reasons import Reason

CABINS: tuple[Cabin, ...] = ("F", "J", "Y")  # highest first
TYPE_CLAUSE = "Same type-rating group, crew stay qualified (FCL.700, ORO.CC.125)"
RANGE_CLAUSE = "Aircraft type range (typical published figure; fuel planning CAT.OP.MPA.150 decides, verify)"
TURN_CLAUSE = "Scheduled minimum turn-round for the type (operator ground-handling standard)"
CAPACITY_CLAUSE = "Reg. (EC) 261/2004 Art. 10(2) downgrading, Art. 4 denied boarding"

SwapRefusalCode = Literal[
    "SAME_AIRCRAFT",
    "UNKNOWN_TYPE",
    "TYPE_INCOMPATIBLE",
    "UNAVAILABLE",
    "NOT_AIRWORTHY",
    "OUT_OF_RANGE",
    "WRONG_STATION",
    "NOT_READY_IN_TIME",
    "CONFLICTING_FLIGHTS",
]
SwapNoteCode = Literal[
    "DIFFERENT_TYPE",
    "DOWNGRADE",
    "UPGRADE",
    "OFFLOAD",
    "EXTRA_CABIN_CREW",
    "MEL_RESTRICTIONS",
    "GIVES_UP_FLIGHTS",
    "CONTINUITY_BREAK",
]


class SwapRefusal(Reason):
    code: SwapRefusalCode


class SwapNote(Reason):
    code: SwapNoteCode


class SwapConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    allow_giving_up_flights: bool = False
    unavailable_statuses: tuple[str, ...] = ("AOG", "MAINTENANCE")
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES


DEFAULT_SWAP = SwapConfig()


class CabinPlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    booked: dict[str, int]
    capacity: dict[str, int]
    downgraded: dict[str, int]  # "J>Y": passengers moved down
    upgraded: dict[str, int]  # "Y>J": passengers moved up
    offloaded: int

    @property
    def fits(self) -> bool:
        return not self.downgraded and not self.offloaded


class TailSwapEligibility(BaseModel):
    model_config = ConfigDict(frozen=True)

    registration: str
    aircraft_type: str
    flight_id: str
    eligible: bool
    refusals: tuple[SwapRefusal, ...]
    notes: tuple[SwapNote, ...]
    station: str  # where the aircraft is before the departure
    ready_at: UtcDatetime | None  # last arrival + minimum turn (None: on the ground since the start of the day)
    turn_margin_minutes: int | None
    flights_to_give_up: tuple[str, ...]  # own flights in the way (a refusal unless allow_giving_up_flights)
    cabin_plan: CabinPlan
    findings: tuple[Finding, ...]
