"""What an agent returns: seed 000's AgentResponse, seed 002's domain constraints and impacts, proposals.

Binding constraints are always the rules engine's illegal findings (as text plus the typed findings);
an LLM may explain and propose but cannot add or remove one.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .common import UtcDatetime
from .findings import Finding

Status = Literal["ok", "degraded", "input_error", "error"]
Phase = Literal["initial", "revision", "debate"]  # debate: rounds 3 to 5, when a conflict stays open


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TimeWindow(Frozen):
    start: UtcDatetime
    end: UtcDatetime


class CrewConstraint(Frozen):
    # next_duty_rest: the member may fly this duty, but the rest after it runs short of their next rostered one —
    # a plan keeps them only if it re-crews or moves that next duty (checked by the rules in validation)
    constraint_type: Literal[
        "duty_limit", "rest_required", "next_duty_rest", "qualification", "recency", "availability"
    ]
    affected_crew: list[str]
    restriction: str
    binding: bool = True
    reasoning: str
    # Machine-checkable form for the arbitrator: the affected crew are illegal at any delay of at least
    # `illegal_from_delay_minutes`, or (a limit, not a violation) legal only up to `max_delay_minutes`.
    illegal_from_delay_minutes: int | None = None
    max_delay_minutes: int | None = None


class MelItemSummary(Frozen):
    reference: str
    category: str
    expires_at: UtcDatetime | None
    expired: bool
    restrictions: list[str]


class MaintenanceConstraint(Frozen):
    aircraft_id: str
    mel_items: list[MelItemSummary]
    airworthy: bool
    restrictions: list[str]
    required_actions: list[str]
    estimated_release: UtcDatetime | None
    reasoning: str


class RegulatoryConstraint(Frozen):
    constraint_type: Literal["notam", "curfew", "atc", "rights", "weather"]
    affected_airports: list[str]
    time_windows: list[TimeWindow]
    restrictions: list[str]
    reasoning: str


class NetworkImpact(Frozen):
    downstream_flights: int
    affected_rotations: int
    fleet_utilization_impact: float
    critical_connections: list[str]
    propagation_risk: Literal["low", "medium", "high"]


class GuestImpact(Frozen):
    pax_affected: int
    misconnections: int
    elite_pax: int
    nps_impact_estimate: float
    vulnerable_pax: int
    compensation_liability_usd: float = 0.0
    care_cost_usd: float = 0.0


class CargoImpact(Frozen):
    total_awbs: int
    high_yield_awbs: int
    perishable_awbs: int
    cold_chain_at_risk: bool
    revenue_at_risk: float


class FinanceImpact(Frozen):
    direct_costs: float
    revenue_loss: float
    compensation_liability: float
    long_term_impact: float
    total_exposure: float


class RecoveryProposal(Frozen):
    """An option a business agent (or a safety agent that sees one) puts to the arbitrator."""

    kind: Literal["tail_swap", "crew_swap", "delay", "divert", "cancel", "rebook", "offload", "hold"]
    title: str
    detail: str
    parameters: dict[str, Any] = Field(default_factory=dict)  # e.g. {"registration": "A6-BLT"}, {"delay_minutes": 240}
    estimated_delay_minutes: int | None = None
    estimated_cost_usd: float | None = None


class Revision(Frozen):
    revised: bool
    changes: list[str]  # what changed and why, one sentence each
    considered: list[str]  # the other agents' outputs read


class AgentResponse(Frozen):
    agent_name: str
    phase: Phase
    status: Status
    recommendation: str
    confidence: float = Field(ge=0, le=1)
    binding_constraints: list[str]
    reasoning: str
    data_sources: list[str]
    extracted_flight_info: dict[str, Any]
    timestamp: UtcDatetime = Field(default_factory=lambda: datetime.now(UTC))
    findings: list[Finding] = Field(default_factory=list)
    constraints: list[CrewConstraint | MaintenanceConstraint | RegulatoryConstraint] = Field(default_factory=list)
    impact: NetworkImpact | GuestImpact | CargoImpact | FinanceImpact | None = None
    proposals: list[RecoveryProposal] = Field(default_factory=list)
    revision: Revision | None = None
    message: str | None = None  # for input_error / error: what was wrong and what to do
    llm: str = "offline"  # provider and model that wrote the narrative, or "offline"
    duration_ms: int | None = None
    # where the agent's checkpoints went: "stored", "none" (no checkpointer), or "memory (…)" when the store failed
    checkpoints: str = "stored"
