"""What every agent's analysis produces, and the moment a disruption is analysed at.

`decision_time`: the real clock when it falls within a day of the flight; otherwise (the synthetic airline
lives in 2027) one hour before the scheduled departure, so an analysis of a past or future day is made
as the duty manager would have made it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, Field

from ..models.agent_response import (
    CargoImpact,
    CrewConstraint,
    FinanceImpact,
    GuestImpact,
    MaintenanceConstraint,
    NetworkImpact,
    RecoveryProposal,
    RegulatoryConstraint,
)
from ..models.findings import Finding
from ..models.operational import Flight

DECISION_LEAD = timedelta(minutes=60)
Constraint = CrewConstraint | MaintenanceConstraint | RegulatoryConstraint
Impact = NetworkImpact | GuestImpact | CargoImpact | FinanceImpact


ON_THE_GROUND_FOR = timedelta(days=1)  # a flight still on the ground is decided at `now` this long past its schedule


def decision_time(flight: Flight, now: datetime | None = None) -> datetime:
    """The decision's moment: `now` when it is about this flight's operation (from a day before its departure until
    it lands — or, still on the ground past its estimate because the cause held it, a day past its schedule: a
    re-decision), else an hour before its departure (a report read far from the flight's day)."""
    now = now or datetime.now(UTC)
    until = flight.arrival
    if flight.status in ("SCHEDULED", "DELAYED"):
        until = max(until, flight.scheduled_departure + ON_THE_GROUND_FOR)
    if flight.scheduled_departure - timedelta(days=1) <= now <= until:
        return now
    return flight.scheduled_departure - DECISION_LEAD


class Analysis(BaseModel):
    """One agent's view of one disruption: facts, findings (binding ones first), impact, proposals."""

    agent: str
    recommendation: str
    facts: list[str] = Field(default_factory=list)  # sentences of what the data says, for the narrative
    findings: list[Finding] = Field(default_factory=list)
    constraints: list[Constraint] = Field(default_factory=list)
    impact: Impact | None = None
    proposals: list[RecoveryProposal] = Field(default_factory=list)
    data_sources: list[str] = Field(default_factory=list)
    inputs_expected: int = 1  # how many inputs the analysis uses …
    inputs_present: int = 1  # … and how many the data had (completeness, for confidence)
    delay_assumed_minutes: int | None = None
    limits: list[str] = Field(default_factory=list)  # binding bounds that are not violations, e.g. latest legal delay

    @property
    def binding(self) -> list[Finding]:
        return [f for f in self.findings if f.binding]


def sources(handle) -> list[str]:
    """The tables and indexes this handle actually read, e.g. 'Query:flights'."""
    return sorted(handle.calls)
