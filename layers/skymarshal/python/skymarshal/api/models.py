"""The API's request bodies and responses (they are the OpenAPI document's schemas)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from ..arbitration.models import InstructionRemoval, ReadInstruction
from ..models.common import MAX_PROMPT_CHARS
from ..models.debate import DebateRecord
from ..models.disruption import Disruption
from ..models.network_plan import FlightActionKind, FlightRejection, NetworkRestriction, Objective, PlanTotals
from ..workflow.models import ActionDetails, RankedSummary
from ..workflow.settings import RunSettings
from .plans import PhaseSpan
from .why import EscalationBanner, FindingRow, RefusedGroup


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StartDisruption(_Body):
    prompt: str = Field(
        min_length=1,
        max_length=MAX_PROMPT_CHARS,
        description="the disruption in plain language, e.g. 'Flight EY123 on January 20th had a mechanical failure'",
    )
    disruption_id: str | None = Field(
        None, pattern=r"^[A-Za-z0-9_-]{1,64}$", description="names the run; a repeated id starts nothing new"
    )
    ops_date: date | None = Field(
        None,
        description="the operating day 'today' and 'tomorrow' mean (YYYY-MM-DD) unless the report states its own; "
        "default SKYMARSHAL_OPS_DATE, else today (the first day of the data where it starts later)",
    )


class Approve(_Body):
    scenario_id: str | None = Field(None, max_length=200, description="the plan approved; rank 1 when omitted")
    comment: str | None = Field(None, max_length=2000)


FlightKey = Annotated[str, StringConstraints(min_length=1, max_length=64)]
ExclusionReason = Annotated[str, StringConstraints(max_length=500)]


class Override(ActionDetails, _Body):
    action: Literal["select", "alternatives", "abort", "exclude"] = Field(
        description="select another ranked plan, ask the arbitrator for alternatives, abort (reject all), or "
        "exclude flights from a network decision (left as scheduled in every plan, which is validated again)"
    )
    # Optional in the schema, required by the validator for select, alternatives and abort: an exclusion's
    # reasons are per flight, in excluded_flights.
    reason: str | None = Field(
        None, min_length=1, max_length=2000, description="why the recommendation is overridden (mandatory but exclude)"
    )
    scenario_id: str | None = Field(None, max_length=200, description="select: the plan chosen instead")
    instruction: str | None = Field(None, max_length=2000, description="alternatives: what to look for instead")
    excluded_flights: dict[FlightKey, ExclusionReason] = Field(
        default_factory=dict,
        max_length=300,
        description="exclude: flight id (or its flight number, when one flight of the table has it) → why",
    )

    @model_validator(mode="after")
    def _flights_only_to_exclude(self):
        if self.excluded_flights and self.action != "exclude":
            raise ValueError(f"excluded_flights goes with action exclude, not {self.action}")
        return self


class Started(BaseModel):
    disruption_id: str
    execution_name: str
    started: bool = Field(description="false when a run of that id already existed (nothing new started)")


class AgentStatus(BaseModel):
    phase: Literal["initial", "revision", "debate"]
    agent: str
    status: str
    seconds: float | None = None


class StateEntered(BaseModel):
    name: str
    at: datetime


class RunProgress(BaseModel):
    disruption_id: str
    status: str
    phase: str = Field(
        description="validating | initial | revision | debate | arbitrating | awaiting_approval | executing "
        "| learning | done | failed"
    )
    current_state: str | None
    awaiting_approval: bool
    prompt: str | None = None
    agents: list[AgentStatus]
    states: list[StateEntered]
    phases: list[PhaseSpan] = Field(
        default_factory=list, description="the run's phases by name and their seconds (no routing choice states)"
    )
    outcome: dict[str, Any] | None = None
    escalation: EscalationBanner | None = Field(
        None, description="the run's own escalation (a failed safety agent, a timeout, no legal plan) and what to do"
    )
    started_at: datetime
    stopped_at: datetime | None = None


class ScenarioCard(RankedSummary):
    """A ranked plan as the console's card shows it: the decision summary's fields and the explanation."""

    passengers_impacted: int
    rationale: str
    pros: list[str]
    cons: list[str]
    compliance: list[dict[str, Any]] = Field(description="each binding constraint re-checked under the plan")
    findings: list[FindingRow] = Field(
        default_factory=list, description="the compliance checks with identical ones made one row, broken first"
    )
    precedent: str = Field("", description="the precedent the ranking used (or that there was none)")
    sensitivity: dict[str, str] = Field(
        default_factory=dict, description="what would change its rank: delay ±30 min, a spare fewer, a reserve more"
    )
    actions: list[dict[str, Any]]


class CrewChangeRow(BaseModel):
    rank: str
    replaced: str
    reserve: str = Field(description="the reserve called out from standby")
    reason: str


class FlightRow(BaseModel):
    """One row of a network plan's per-flight table."""

    flight_id: str = Field(description="what excluded_flights names")
    flight_number: str
    origin: str
    destination: str
    action: FlightActionKind
    scheduled_departure: datetime
    scheduled_arrival: datetime
    new_departure: datetime | None = Field(description="None: cancelled")
    new_arrival: datetime | None
    delay_minutes: int
    registration: str
    new_registration: str | None = Field(description="the tail that flies it; None: cancelled")
    aircraft_type: str
    crew_changes: list[CrewChangeRow]
    passengers: int
    passengers_reaccommodated: int
    passengers_stranded_overnight: int
    reason: str
    excluded: str | None = Field(None, description="the duty manager's reason, when the flight was excluded")


class NetworkPlanView(BaseModel):
    plan_id: str = Field(description="the ranked scenario's scenario_id, when the plan is valid")
    title: str
    objective: Objective
    valid: bool
    rank: int | None = Field(description="its rank among the ranked plans; None when rejected or set aside")
    totals: PlanTotals
    rejections: list[FlightRejection] = Field(description="each flight that makes the plan illegal, and why")
    notes: list[str]
    rows: list[FlightRow]


class NetworkView(BaseModel):
    summary: str = Field(description="the restriction in one line, e.g. 'closure at AUH 22 Jan 14:00–17:00Z'")
    restriction: NetworkRestriction
    flights_affected: int
    flights_inheriting: int
    recommended: str | None = Field(description="the plan_id of rank 1; None when no plan is valid")
    excluded: dict[str, str] = Field(description="flights the duty manager excluded: flight id → reason")
    exclusion_refused: str | None = Field(description="the last exclusion, refused: it left no valid plan")
    plans: list[NetworkPlanView] = Field(description="valid plans first (by rank), then the rejected ones")


class Station(BaseModel):
    """The station a decision is about, with its zone: the console shows its local time beside UTC."""

    iata: str
    tz: str = Field(description="its IANA time zone, e.g. Asia/Dubai")


class DecisionView(BaseModel):
    disruption_id: str
    status: str
    final_decision: str
    confidence: float
    justification: str
    awaiting_approval: bool
    attempt: int | None = None
    decided: dict[str, Any] | None = Field(
        None, description="the duty manager's answer once given: action, scenario_id, decided_by, decided_at, comment"
    )
    top: list[ScenarioCard] = Field(description="the top three ranked plans, best first")
    escalations: list[dict[str, Any]]
    escalation_banners: list[EscalationBanner] = Field(
        default_factory=list, description="each escalation with what the duty manager can do about it"
    )
    refused: list[RefusedGroup] = Field(
        default_factory=list, description="the plans refused, grouped by their typed reason (most plans first)"
    )
    citations: list[dict[str, Any]]
    disruption: Disruption | None = Field(
        None, description="the report as understood: delay code, scope, window, each fact with its source and span"
    )
    llm_overrides: list[dict[str, Any]] = Field(
        default_factory=list, description="what the model asked for (a reordering, a plan) and the rules refused"
    )
    instruction: ReadInstruction | None = Field(
        None, description="alternatives: the duty manager's instruction as read — constraints, words not understood"
    )
    removed_by_instruction: list[InstructionRemoval] = Field(
        default_factory=list, description="the valid plans the instruction's constraints removed, and which did"
    )
    debate: DebateRecord | None = Field(
        None, description="the debate rounds after the revision round, when a conflict stayed open, and the agreement"
    )
    network: NetworkView | None = Field(
        None, description="an airport or airspace disruption: every plan's per-flight table and totals"
    )
    station: Station | None = Field(
        None, description="the airport the disruption is about and its zone (None: none named, or not a known code)"
    )


class DecisionRecorded(BaseModel):
    disruption_id: str
    action: str
    scenario_id: str | None
    decided_by: str
    decided_at: datetime
    comment: str | None = None
    instruction: str | None = None
    excluded_flights: dict[str, str] = Field(default_factory=dict, description="exclude: flight id → reason")


class SettingsChange(RunSettings):
    version: int = Field(ge=0, description="the version read with GET /settings")

    def settings(self) -> RunSettings:
        return RunSettings(**self.model_dump(exclude={"version"}))
