"""A past disruption as the DisruptionHistory table keeps it: what happened, what was decided, how it went.

The generator seeds precedents; the workflow's Learn step writes one record per run. The arbitrator reads
records of the same `disruption_type` (disruption-type-index) to weigh a scenario by how the same kind of
action worked before.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, NonNegativeFloat, NonNegativeInt

from .common import FlightNumber, Iata, Row, UtcDatetime

DisruptionType = Literal["mechanical", "crew", "weather", "atc", "other"]
ActionKind = Literal["tail_swap", "crew_swap", "delay", "divert", "cancel", "rescue_aircraft"]
Outcome = Literal["on_plan", "late", "failed", "not_executed"]


class DisruptionRecord(Row):
    disruption_id: str
    disruption_type: DisruptionType
    occurred_at: UtcDatetime  # when the disruption was reported (sort key of disruption-type-index)
    flight_number: FlightNumber
    origin: Iata
    destination: Iata
    aircraft_type: str
    initial_delay_minutes: NonNegativeInt
    recommended_action: ActionKind  # the arbitrator's rank-1 scenario kind
    chosen_action: ActionKind  # what the duty manager approved
    overridden: bool  # the duty manager chose something other than rank 1
    outcome: Outcome
    actual_delay_minutes: NonNegativeInt
    passengers_affected: NonNegativeInt
    cost_usd: NonNegativeFloat
    summary: str  # one sentence a duty manager would recognise
    decided_by: str | None = None
    execution_id: str | None = None
    scenario_ids: list[str] = Field(default_factory=list)
