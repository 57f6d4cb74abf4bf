"""What travels between the state machine's steps: pydantic models for each Lambda's input and result.

The execution's state is a JSON object with one key per step — `request`, `phase1`, `phase2`, `debate`, `decision`,
`approval`, `execution`, `escalation`, `outcome` — each present from the start (null until its step runs),
so every JSONPath in the definition resolves and the console can show a run half way through.
Large payloads (collations, the arbitrator's full output) live in S3; the state carries a `PayloadRef`.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from ..data.overlay import Overlay
from ..data.schema import AGENTS
from ..models.common import MAX_PROMPT_CHARS
from ..models.debate import Agreement, DebateState
from ..models.disruption import Disruption

# A Step Functions execution name: at most 80 characters of letters, digits, '-' and '_'. The resume and
# retry suffixes ("--resume-N", "--retry-N") need room, so a disruption id keeps to 64.
DISRUPTION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
RESUME_SUFFIX = "--resume-"
RETRY_SUFFIX = "--retry-"
CORRECT_SUFFIX = "--correct-"  # the run again with the duty manager's corrected facts (workflow/runs/correction.py)
RUN_SUFFIXES = (RESUME_SUFFIX, RETRY_SUFFIX, CORRECT_SUFFIX)
# A disruption decided again at its re-decision point (the cause not cleared by then): a disruption of its own,
# `ID--redecide-N`, naming the one it follows (`DisruptionRequest.redecides`)
REDECIDE_SUFFIX = "--redecide-"


def base_name(execution_name: str) -> str:
    """The disruption id a resumed or retried run's name starts with (`ID--resume-2` → `ID`)."""
    for suffix in RUN_SUFFIXES:
        execution_name = execution_name.split(suffix)[0]
    return execution_name


def is_run_of(execution_name: str, disruption_id: str) -> bool:
    """The first run of the disruption, or one of its resumes or retries."""
    return execution_name == disruption_id or any(execution_name.startswith(disruption_id + s) for s in RUN_SUFFIXES)


# exclude: a network plan with some flights left as scheduled (`excluded_flights`), re-validated before it is shown
ApprovalAction = Literal["approve", "select", "alternatives", "reject", "exclude"]
RunStatus = Literal["executed", "rejected", "escalated", "failed"]
# The state machine's escalation codes; deployment.ESCALATION_REASONS (one metric and alarm each) lists the same.
EscalationReason = Literal[
    "SAFETY_AGENT_FAILED", "NO_VALID_PLAN", "APPROVAL_TIMEOUT", "ARBITRATION_FAILED", "NETWORK_DISRUPTION", "RUN_FAILED"
]


def field_error(exc: ValidationError, what: str) -> str:
    """The first error, naming its field: what a caller reads instead of a traceback."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or what
    return f"{what}: {where}: {first['msg']}"


OVERRIDES = ("select", "alternatives", "reject", "abort", "exclude")  # anything but approving the recommendation


def missing_for_action(
    action: str,
    scenario_id: str | None,
    instruction: str | None,
    reason: str | None = "given",
    excluded_flights: dict[str, str] | None = None,
) -> str | None:
    """What a decision of this kind lacks: select names a plan, alternatives says what to look for, exclude names
    each flight with its reason, and every override says why (the CLI, the API and the console alike; the audit
    records it)."""
    if action == "exclude":
        if not excluded_flights:
            return "exclude needs excluded_flights: each flight to leave as scheduled, with the reason"
        blank = sorted(f for f, why in excluded_flights.items() if not why.strip())
        if blank:
            return f"exclude needs a reason for each flight: none given for {', '.join(blank)}"
        return None
    if action in OVERRIDES and not (reason or "").strip():
        return f"{action} overrides the recommendation: a reason is required (say why, it goes into the audit)"
    if action == "select" and not scenario_id:
        return "select needs scenario_id: the ranked plan chosen instead"
    if action == "alternatives" and not instruction:
        return "alternatives needs an instruction saying what to look for"
    if action == "alternatives":  # an instruction may narrow the plans, never relax a binding safety constraint
        from ..arbitration.instructions.grammar import instruction_problem

        return instruction_problem(instruction)
    return None


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PayloadRef(_Model):
    """A JSON payload: inline when small, else the S3 object holding it."""

    inline: Any = None
    bucket: str | None = None
    key: str | None = None
    size: int = 0  # bytes of the JSON

    @model_validator(mode="after")
    def _one_place(self) -> PayloadRef:
        if (self.inline is None) == (self.key is None):
            raise ValueError("a payload reference holds the payload inline or names its S3 key, not both or neither")
        return self


class DisruptionRequest(_Model):
    """The execution's input: what the trigger (EventBridge), the API or the CLI submits."""

    disruption_id: str = Field(description="names the execution; a repeated id starts nothing new")
    prompt: str = Field(min_length=1, max_length=MAX_PROMPT_CHARS)
    source: Literal["eventbridge", "api", "cli", "bench"] = "cli"
    requested_by: str | None = Field(None, max_length=120)
    reported_at: AwareDatetime = Field(default_factory=lambda: datetime.now(UTC))
    # The operating day relative days ("today", "tomorrow") resolve against, unless the report states its own
    # (default: SKYMARSHAL_OPS_DATE, else the reported day, or the data's first day where it starts later).
    ops_date: date | None = None
    resume: bool = False  # reuse the checkpointed collations of an earlier run of the same disruption
    resumes: str | None = Field(None, pattern=r"^[A-Za-z0-9_-]{1,80}$")  # which execution (default: the first)
    # Continue from a checkpoint: reuse the rounds up to and including this one, run the rest again.
    reuse_through: Literal["initial", "revision"] | None = None
    # Re-run only the agents that did not answer "ok" in an earlier run's rounds (workflow/runs/retry.py).
    retry: bool = False
    # The duty manager's corrections of what the report was read as (models/corrections.py), checked here and
    # against the data at Validate; `corrects`: the run whose reading they correct.
    facts: dict[str, str] = Field(default_factory=dict)
    corrects: str | None = Field(None, pattern=r"^[A-Za-z0-9_-]{1,80}$")
    # The disruption whose executed plan this one decides again at its re-decision point, the cause not cleared by
    # then (issue 46): it takes that disruption's claim on the flight (workflow/runs/flight_claims.py).
    redecides: str | None = Field(None, pattern=r"^[A-Za-z0-9_-]{1,64}$")

    @model_validator(mode="after")
    def _resume_or_retry(self) -> DisruptionRequest:
        if self.resume and self.retry:
            raise ValueError("resume (reuse finished rounds) and retry (re-run failed agents) exclude each other")
        return self

    @field_validator("facts", mode="before")
    @classmethod
    def _checked_facts(cls, value: Any) -> Any:
        from ..models.corrections import checked_facts

        return checked_facts(value) if isinstance(value, dict) else value

    @field_validator("disruption_id")
    @classmethod
    def _execution_name(cls, value: str) -> str:
        if not DISRUPTION_ID.match(value):
            raise ValueError("1 to 64 letters, digits, '-' or '_' (it names the Step Functions execution)")
        return value


class RunSavedBeforeFacts(Exception):
    """A run saved before Validate read its report into facts (no `disruption`): nothing after Validate reads the
    prompt again, so it cannot go on; it is started again from its report. Not a ValueError, so pydantic does not
    wrap it: the step fails with this one line."""

    def __init__(self, disruption_id: str | None) -> None:
        super().__init__(
            f"run {disruption_id or '?'} was saved before reports were read into facts and cannot go on: start it "
            'again from its report (skymarshal analyze "<report>", or POST /disruptions)'
        )


class ValidatedRequest(_Model):
    """`$.request` after Validate: the request, the flight it is about, and the run's settings."""

    disruption_id: str
    execution_name: str
    prompt: str
    source: str
    requested_by: str | None
    reported_at: datetime
    # the flight a flight-scope report is about; None for an airport or airspace over a window (disruption.scope)
    flight_number: str | None = None
    flight_date: str | None = None
    flight_id: str | None = None
    description: str
    agents: list[str]  # the initial round's Map items
    # The revision round's Map items: all seven, or on a retry the agents that run again (workflow/runs/retry.py).
    revision_agents: list[str] = Field(default_factory=lambda: list(AGENTS))
    approval_timeout_seconds: int = Field(ge=1)
    resumes: str | None = None  # the earlier execution a resume or a retry reuses (its checkpoints, its answers)
    redecides: str | None = None  # the disruption this one decides again (DisruptionRequest.redecides)
    disruption: Disruption  # the report as facts, resolved here once: the only reading of it after Validate
    overlay: Overlay = Field(default_factory=Overlay)  # what the facts change in the data, for every reader

    @model_validator(mode="before")
    @classmethod
    def _saved_with_facts(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("disruption") is None:
            raise RunSavedBeforeFacts(data.get("disruption_id"))
        return data


class PhaseResult(_Model):
    """`$.phase1` / `$.phase2` after Collate: the collation (by reference) and what the gate needs; after the
    revision round, whether the agents debate (workflow/steps/debate.py)."""

    phase: Literal["initial", "revision", "debate"]
    round: int | None = None  # a debate round's number (3 to 5)
    collation: PayloadRef
    statuses: dict[str, str]  # agent → ok | degraded | input_error | error
    failed: list[str]  # agents whose status is not ok
    safety_failed: bool  # a safety agent did not finish: no arbitration, a human decides
    reused: bool = False  # loaded from the checkpoint of an earlier run (resume)
    reused_from: str | None = None  # that earlier execution's name
    debate: DebateState | None = None  # the revision round's: the debate rule's first answer
    debate_again: bool = False  # what the state machine's "Debate or arbitrate?" Choice reads


class RankedSummary(_Model):
    rank: int
    scenario_id: str
    title: str
    kind: str
    kinds: list[str] = Field(default_factory=list)  # a combined plan's kinds (rescue aircraft: ferry, swap, delay)
    score: float
    confidence: float
    delay_minutes: int
    cost_usd: float


class DecisionSummary(_Model):
    """`$.decision` after Arbitrate: enough for the approval step and the console; the rest is in `output`."""

    status: Literal["decided", "escalated", "input_error"]
    has_plan: bool
    final_decision: str
    confidence: float
    ranked: list[RankedSummary]
    escalations: list[str]  # codes
    attempt: int = 1  # 2+ after the duty manager asked for alternatives
    excluded: list[str] = Field(default_factory=list)  # scenario ids shown before and set aside
    instruction: str | None = None
    output: PayloadRef  # the full ArbitratorOutput
    llm: str = "offline"  # the arbitrator's model, or "offline (fallback: <reason>)" when it failed
    debate_rounds: int = 2  # all rounds run before this decision (3 to 5 after a debate)
    debate: Agreement | None = None  # after a debate: the agreed actions proposed, the open ones for the duty manager
    # "network": an airport or airspace disruption's plans (the per-flight tables are in `output`'s `network`)
    scope: Literal["flight", "network"] = "flight"
    # decided again because the plan approved before could not be carried out: what refused it, in one line
    redecided_after: str | None = None


class ActionDetails(BaseModel):
    """Mixin for a decision (`action`, `scenario_id`, `instruction`, and `reason` or `comment`): select names a
    plan, alternatives says what to look for, every override says why."""

    @model_validator(mode="after")
    def _complete(self):
        reason = getattr(self, "reason", None) or getattr(self, "comment", None)  # the API's reason, the comment
        flights = getattr(self, "excluded_flights", None) or {}
        missing = missing_for_action(self.action, self.scenario_id, self.instruction, reason, flights)
        if missing:
            raise ValueError(missing)
        return self


class ApprovalDecision(ActionDetails, _Model):
    """`$.approval`: what the duty manager decided (the task-token callback's output)."""

    action: ApprovalAction
    scenario_id: str | None = None  # approve: rank 1 unless given; select: required
    decided_by: str = Field(min_length=1, max_length=120)
    comment: str | None = Field(None, max_length=2000)
    instruction: str | None = Field(None, max_length=2000)  # alternatives: what to look for instead
    excluded_flights: dict[str, str] = Field(default_factory=dict, max_length=300)  # exclude: flight id → reason
    decided_at: AwareDatetime = Field(default_factory=lambda: datetime.now(UTC))


class Escalation(_Model):
    """`$.escalation`: why the run went to a human without an executed plan."""

    reason: EscalationReason
    message: str = ""


class ExecutionSummary(_Model):
    """`$.execution` after Execute."""

    status: Literal["executed", "rolled_back", "compensation_failed"]
    scenario_id: str
    actions: list[str]
    error: str | None = None
    reason_code: str | None = None
    messages_not_published: int = 0  # events of its messages the message bus did not take (they are in S3)
    attempt: int = 1  # 2+: a plan decided again after the one before it was refused (workflow/steps/attempts.py)
    redecide: bool = False  # refused because the operation changed since the decision: Arbitrate again


class Outcome(_Model):
    """`$.outcome` after Learn: how the run ended and where its record is."""

    status: RunStatus
    history_id: str | None
    audit: PayloadRef | None = None
    message: str
    alert: dict[str, Any] | None = None  # an escalation's duty-manager alert (workflow/alerts.py)
    anchor: dict[str, Any] | None = None  # the audit head Learn left (workflow/audit/anchor.py): outside the chain
