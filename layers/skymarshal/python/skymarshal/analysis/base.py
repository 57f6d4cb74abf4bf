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


def decision_time(flight: Flight, now: datetime | None = None) -> datetime:
    now = now or datetime.now(UTC)
    if flight.scheduled_departure - timedelta(days=1) <= now <= flight.arrival:
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
