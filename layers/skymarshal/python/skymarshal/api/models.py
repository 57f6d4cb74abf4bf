"""The API's request bodies and responses (they are the OpenAPI document's schemas)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..arbitration.instructions import InstructionRemoval, ReadInstruction
from ..models.common import MAX_PROMPT_CHARS
from ..models.debate import DebateRecord
from ..models.disruption import Disruption
from ..workflow.models import ActionDetails, RankedSummary
from ..workflow.settings import RunSettings
from .plans import PhaseSpan


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


class Approve(_Body):
    scenario_id: str | None = Field(None, max_length=200, description="the plan approved; rank 1 when omitted")
    comment: str | None = Field(None, max_length=2000)


class Override(ActionDetails, _Body):
    action: Literal["select", "alternatives", "abort"] = Field(
        description="select another ranked plan, ask the arbitrator for alternatives, or abort (reject all)"
    )
    reason: str = Field(min_length=1, max_length=2000, description="why the recommendation is overridden (mandatory)")
    scenario_id: str | None = Field(None, max_length=200, description="select: the plan chosen instead")
    instruction: str | None = Field(None, max_length=2000, description="alternatives: what to look for instead")


class Started(BaseModel):
    disruption_id: str
    execution_name: str
    started: bool = Field(description="false when a run of that id already existed (nothing new started)")


class RunSummary(BaseModel):
    disruption_id: str
    status: str = Field(description="the Step Functions execution status: RUNNING, SUCCEEDED, FAILED, ...")
    started_at: datetime
    stopped_at: datetime | None = None


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
        description="validating | initial | revision | arbitrating | awaiting_approval | executing "
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
    started_at: datetime
    stopped_at: datetime | None = None


class ScenarioCard(RankedSummary):
    """A ranked plan as the console's card shows it: the decision summary's fields and the explanation."""

    passengers_impacted: int
    rationale: str
    pros: list[str]
    cons: list[str]
    compliance: list[dict[str, Any]] = Field(description="each binding constraint re-checked under the plan")
    actions: list[dict[str, Any]]


class DecisionView(BaseModel):
    disruption_id: str
    status: str
    final_decision: str
    confidence: float
    justification: str
    awaiting_approval: bool
    attempt: int | None = None
    top: list[ScenarioCard] = Field(description="the top three ranked plans, best first")
    escalations: list[dict[str, Any]]
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


class DecisionRecorded(BaseModel):
    disruption_id: str
    action: str
    scenario_id: str | None
    decided_by: str
    decided_at: datetime
    comment: str | None = None
    instruction: str | None = None


class SettingsChange(RunSettings):
    version: int = Field(ge=0, description="the version read with GET /settings")

    def settings(self) -> RunSettings:
        return RunSettings(**self.model_dump(exclude={"version"}))
