"""The before/after Gantt of a decision, as the API returns it (GET /disruptions/{id}/gantt).

One chart per ranked plan: rows of the affected tails (and, switchable, the crews' duties) over one time
window, each row holding the original schedule (`layer="original"`, drawn faint) and the plan
(`layer="plan"`, drawn bold). What the plan does to a bar is its `change`, so the console can mark it by
pattern and label, never by colour alone. Bands are the time windows that constrain every plan (curfews,
closures, slots, weather): the rules' and the agents' binding constraints, not a guess of the console.
The operational rows it is drawn from (`OpsSnapshot`) and where a plan puts a flight (`PlannedFlight`) are here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..models.agent_response import RegulatoryConstraint
from ..models.common import UtcDatetime
from ..models.operational import AirportProfile, Booking, CrewDuty, Flight

Change = Literal[
    "unchanged",
    "delayed",  # same tail, later times (the plan's delay, or the delay propagated down the rotation)
    "swapped_in",  # the flight now on this tail
    "swapped_out",  # the flight taken off this tail (plan layer: marks where it was)
    "cancelled",
    "diverted",  # lands at an alternate
    "ferry",  # a positioning flight the plan adds (after a diversion)
    "reserve_call_out",  # a standby reserve called out to fly
    "replaced",  # a rostered crew member taken off the flight
    "standby",  # a reserve's standby duty, not called out
]
BandKind = Literal["curfew", "closure", "slot", "weather", "disruption"]
RowKind = Literal["tail", "crew"]
Layer = Literal["original", "plan"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GanttBar(_Frozen):
    layer: Layer
    change: Change
    label: str  # what the bar says: the flight number, "FERRY", "STBY"
    flight_id: str | None = None  # the original flight this bar is
    duty_key: str | None = None  # or the original crew duty it is (a standby), by its CrewRoster duty_key
    new_flight: bool = False  # or a flight the plan adds (ferry): it maps to no original one
    origin: str | None = None
    destination: str | None = None  # after a diversion: the alternate
    start: UtcDatetime
    end: UtcDatetime
    delay_minutes: int = 0
    passengers: int | None = None
    connections_at_risk: int | None = None  # connecting passengers whose onward flight the plan breaks
    constraints: list[str] = Field(default_factory=list)  # binding constraints that apply, as checked for the plan
    note: str = ""

    @model_validator(mode="after")
    def _sane(self) -> GanttBar:
        if self.end < self.start:
            raise ValueError(f"bar {self.label} ends before it starts")
        if [self.flight_id is not None, self.duty_key is not None, self.new_flight].count(True) != 1:
            raise ValueError("a bar is one original flight, one original duty, or a flight the plan adds")
        return self


class GanttRow(_Frozen):
    kind: RowKind
    key: str  # the registration or the crew id
    label: str  # "A6-BLA (B787-9)", "CPT C00123 (reserve)"
    bars: list[GanttBar]


class GanttBand(_Frozen):
    kind: BandKind
    airport: str | None
    start: UtcDatetime
    end: UtcDatetime
    label: str
    source: str  # "rules: curfew FRA", "regulatory agent", "report"


class PlanFigures(_Frozen):
    """The compare table's row for one plan."""

    delay_minutes: int  # off blocks, from the schedule
    arrival_delay_minutes: int  # at the passengers' destination (after a diversion: by coach)
    cancellations: int
    passengers_disrupted: int
    misconnections: int  # connecting passengers whose onward flight the plan breaks (rules.network, MCT)
    compensation_usd: float  # EU261/UK261
    total_cost_usd: float
    confidence: float


class PlanGantt(_Frozen):
    scenario_id: str
    rank: int  # as presented (after any model reordering the rules allowed)
    rules_rank: int  # the rules engine's order (by score)
    reordered_by_model: bool
    title: str
    kind: str
    score: float
    figures: PlanFigures
    tails: list[GanttRow]
    crew: list[GanttRow]


class GanttView(_Frozen):
    disruption_id: str
    flight_id: str
    flight_number: str
    start: UtcDatetime  # the chart's time window
    end: UtcDatetime
    bands: list[GanttBand]
    plans: list[PlanGantt] = Field(description="the top ranked plans, best first")
    llm_overrides: list[str] = Field(default_factory=list, description="what the model asked for and was refused")


@dataclass(frozen=True)
class OpsSnapshot:
    """The operational rows a decision's Gantt is drawn from (each read by GetItem or Query, see gantt_data)."""

    flight: Flight
    rotations: dict[str, list[Flight]]  # registration → its flights around the disruption
    roster: list[CrewDuty]  # the disrupted flight's crew (its CrewRoster rows)
    duties: dict[str, list[CrewDuty]]  # crew id → that member's duties around the disruption (reserves too)
    bookings: list[Booking]  # the disrupted flight's bookings
    onward: dict[str, Flight]  # the onward flights those bookings connect to
    profiles: dict[str, AirportProfile]
    regulatory: list[RegulatoryConstraint] = field(default_factory=list)  # the regulatory agent's constraints


@dataclass(frozen=True)
class PlannedFlight:
    """Where a plan puts one original flight."""

    start: datetime
    end: datetime
    change: Change
    destination: str
    delay_minutes: int
