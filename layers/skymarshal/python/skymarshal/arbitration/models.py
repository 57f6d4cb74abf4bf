"""The arbitrator's vocabulary: scenarios, the checks that validate them, typed rejections, conflicts, and
seed 000's ArbitratorOutput extended with ranked scenarios, citations and escalation flags."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..models.common import UtcDatetime
from ..models.debate import DebateRecord
from ..models.disruption import Clearance, Disruption
from ..models.history import ActionKind
from ..models.network_plan import NetworkDecision
from ..rules._reasons import Reason
from .actions import Action

CheckStatus = Literal["legal", "at_risk", "illegal"]
RejectionCode = Literal[
    "CREW_ILLEGAL",
    "CREW_LIMIT_EXCEEDED",
    "AIRCRAFT_NOT_AIRWORTHY",
    "TAIL_SWAP_INELIGIBLE",
    "CURFEW",
    "WEATHER_BELOW_LIMITS",
    "NOT_CANCELLABLE",
    "DATA_MISSING",
    "SAFETY_ANALYSIS_MISSING",
    "ROTATION_BROKEN",
    "CREW_CHAIN_BROKEN",
    "HELD_BY_CAUSE",
]
ConflictType = Literal["safety_vs_business", "safety_vs_safety", "business_vs_business"]
EscalationCode = Literal[
    "SAFETY_AGENT_FAILED", "NO_VALID_SCENARIO", "AGENT_CONFIDENCE_GAP", "LOW_CONFIDENCE", "INPUT_ERROR"
]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# What each typed action makes of a plan (a rebooking goes with a cancellation or a diversion, it is no kind).
KIND_OF_ACTION: dict[str, ActionKind] = {
    "ferry": "rescue_aircraft",
    "swap_aircraft": "tail_swap",
    "reassign_crew": "crew_swap",
    "stand_down_crew": "crew_swap",  # the crew changes: without a member, the rest at or above the minimum
    "divert": "divert",
    "delay": "delay",
    "cancel": "cancel",
}


class WaitOnClearance(Frozen):
    """A plan that waits for the cause to clear (Disruption.clears): until when, from what estimate, and when the
    decision must be looked at again if the cause has not cleared (the estimate's upper bound)."""

    until: UtcDatetime  # the flight's departure in the plan: the estimate, or its upper bound
    clears: Clearance  # the estimate waited for: kind, expected, latest, source and its evidence
    bound: bool = False  # True: waits until the upper bound (`clears.latest`), not the estimate

    @property
    def redecide_at(self) -> datetime:
        return self.clears.latest

    def describe(self) -> str:
        """E.g. wait until 13:40Z (stated: 'about 3 h'); look again at 14:40Z."""
        c = self.clears
        return f"wait until {self.until:%H:%MZ} ({c.source}: {c.evidence!r}); look again at {self.redecide_at:%H:%MZ}"


class Scenario(Frozen):
    """A candidate recovery plan: typed actions and what they do to the flight."""

    scenario_id: str  # stable: kind and parameters, e.g. "tail_swap:A6-BLT"
    kind: ActionKind  # what the plan is, e.g. rescue_aircraft for a ferried spare (a swap and a delay too)
    kinds: list[ActionKind] = Field(default_factory=list)  # the kind and the other decisions it combines
    title: str
    sources: list[str]  # "generator" and/or the agents that proposed it
    actions: list[Action]
    operates: bool  # False for a cancellation
    registration: str | None  # the tail that flies it
    aircraft_type: str | None
    crew_replacements: dict[str, str] = Field(default_factory=dict)
    crew_rested: list[str] = Field(default_factory=list)  # rostered crew who report again after the minimum rest
    crew_stood_down: list[str] = Field(default_factory=list)  # unavailable cabin crew the flight operates without
    # rostered crew whose next duty the plan cancels: no rest owed before it (crew/next_duty_cancel.py)
    crew_next_duty_cancelled: list[str] = Field(default_factory=list)
    departure: UtcDatetime | None
    arrival: UtcDatetime | None
    arrival_airport: str | None  # the destination, or the alternate after a diversion
    delay_minutes: int  # off-blocks delay from the schedule (cancel: the re-accommodation delay)
    arrival_delay_minutes: int  # at the passengers' final destination, incl. ground transport
    passengers_impacted: int
    cost_usd: float
    cost_by_component: dict[str, float] = Field(default_factory=dict)
    downstream_flights_delayed: int = 0
    crew_to_contact: int = 0  # distinct crew members its execution must call (contacts.py); set by the arbitrator
    execution_notes: list[str] = Field(default_factory=list)  # what makes it harder to carry out (extra crew, ...)
    waits: WaitOnClearance | None = None  # a wait for the cause to clear (issue 46): until, estimate, re-decision
    # what the day scorecard counts, for the ranking (arbitration/day_cost.py; None: the flight's own figures)
    passenger_minutes: int | None = None  # at the final destination: the flight's, its knock-on's, re-accommodated
    overnight_passengers: int = 0  # passengers whose wait covers part of the local night (EU261 Art. 9(1)(b))
    knock_on_usd: float = 0.0  # EU261 compensation and care owed on the later flights the plan re-times
    pros: list[str] = Field(default_factory=list)
    cons: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _kinds_from_actions(cls, data: Any) -> Any:
        """`kinds`: the plan's kind and every other decision its actions combine (a delay with reserves is
        ["delay", "crew_swap"]). How late a plan flies is no decision of its own, nor is a rescue's swap."""
        if isinstance(data, dict) and not data.get("kinds"):
            kind = data.get("kind")
            acts = [
                getattr(a, "kind", None) or (a.get("kind") if isinstance(a, dict) else None)
                for a in data.get("actions", [])
            ]
            found = {KIND_OF_ACTION[a] for a in acts if a in KIND_OF_ACTION} - {kind, "delay"}
            if kind == "rescue_aircraft":
                found.discard("tail_swap")
            data = {**data, "kinds": [kind, *sorted(found)]}
        return data


class ConstraintCheck(Frozen):
    """One binding constraint checked against one scenario."""

    constraint: str  # "crew legality", "airworthiness", "curfew FRA", "weather LHR", an agent's constraint
    source: str  # "rules" (re-computed under the scenario) or the agent whose constraint it is
    clause: str
    subject: str
    status: CheckStatus
    message: str


class ScenarioRejection(Reason):
    code: RejectionCode


class ValidatedScenario(Frozen):
    scenario: Scenario
    checks: list[ConstraintCheck]
    rejections: list[ScenarioRejection]

    @property
    def valid(self) -> bool:
        return not self.rejections


class ConflictDetail(Frozen):
    agents_involved: list[str]
    conflict_type: ConflictType
    description: str


class ResolutionDetail(Frozen):
    conflict: ConflictDetail
    resolution: str
    rationale: str


class SafetyOverride(Frozen):
    safety_agent: str
    binding_constraint: str
    overridden_recommendations: list[str]


class Citation(Frozen):
    document: str  # "crew-limits.md"
    section: str  # "ORO.FTL.205 maximum daily FDP"
    excerpt: str
    score: float | None = None


class Sensitivity(Frozen):
    delay_plus_30: str
    delay_minus_30: str
    one_spare_fewer: str
    one_reserve_more: str


class RankedScenario(Frozen):
    rank: int
    scenario: Scenario
    score: float
    criteria: dict[str, float]  # 0..1 per criterion, 1 = best (ranking.normalise)
    confidence: float = Field(ge=0, le=1)
    rationale: str
    pros: list[str]
    cons: list[str]
    compliance: list[ConstraintCheck]
    precedent: str
    sensitivity: Sensitivity


class Escalation(Reason):
    code: EscalationCode


class LlmOverride(Frozen):
    """The LLM asked for something the rules forbid; the arbitrator kept the computed answer."""

    requested: str
    reason: str


# A duty manager's instruction as typed constraints (read by instructions.py, carried in the decision).
ConstraintKind = Literal[
    "forbid_kind", "max_delay", "exclude_tail", "reserve_tail", "protect_connections", "prefer_station"
]
HARD: frozenset[ConstraintKind] = frozenset({"forbid_kind", "max_delay", "exclude_tail", "reserve_tail"})

KIND_LABELS = {
    "tail_swap": "tail swap",
    "crew_swap": "crew swap (reserves)",
    "delay": "delay",
    "divert": "diversion",
    "cancel": "cancellation",
    "rescue_aircraft": "rescue aircraft",
}


class InstructionConstraint(BaseModel):
    """One constraint read from the instruction, with the words it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ConstraintKind
    words: str  # the instruction's own words
    action: ActionKind | None = None  # forbid_kind
    minutes: int | None = Field(None, ge=0)  # max_delay
    registration: str | None = None  # exclude_tail, reserve_tail
    flight_number: str | None = None  # reserve_tail: the flight the tail is kept for
    airport: str | None = None  # protect_connections, prefer_station
    hard: bool = False  # from the kind: a filter (True) or a preference that only reorders (False)

    @model_validator(mode="before")
    @classmethod
    def _hard_from_kind(cls, data: Any) -> Any:
        if isinstance(data, dict) and "kind" in data:
            data = {**data, "hard": data["kind"] in HARD}
        return data

    def describe(self) -> str:
        what = {
            "forbid_kind": f"no {KIND_LABELS.get(str(self.action), str(self.action))}",
            "max_delay": f"at most {self.minutes} min late at the destination",
            "exclude_tail": f"not {self.registration}",
            "reserve_tail": f"{self.registration} kept for {self.flight_number}",
            "protect_connections": "protect connections" + (f" at {self.airport}" if self.airport else ""),
            "prefer_station": f"prefer {self.airport}",
        }[self.kind]
        return f"{what} (“{self.words}”)"

    def removes(self, scenario: Scenario, flight_number: str) -> bool:
        """Whether this hard constraint takes the plan out (a preference never does)."""
        if self.kind == "forbid_kind":
            return self.action in scenario.kinds
        if self.kind == "max_delay":  # a cancellation's passengers arrive when re-accommodated
            return self.minutes is not None and scenario.arrival_delay_minutes > self.minutes
        if self.kind == "exclude_tail":
            return scenario.operates and scenario.registration == self.registration
        if self.kind == "reserve_tail":
            return (
                scenario.operates
                and scenario.registration == self.registration
                and flight_number != (self.flight_number)
            )
        return False


class InstructionRefused(BaseModel):
    """An instruction that would relax a binding safety constraint: refused whole, nothing applied."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: Literal["RELAXES_SAFETY_CONSTRAINT"] = "RELAXES_SAFETY_CONSTRAINT"
    constraint: str
    clause: str
    words: str

    @property
    def message(self) -> str:
        return (
            f"RELAXES_SAFETY_CONSTRAINT: “{self.words}” would relax the {self.constraint} ({self.clause}); "
            "binding safety constraints are computed by the rules engine and no instruction changes them"
        )


class InstructionRemoval(BaseModel):
    """A plan the instruction took out, and which of its constraints did."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario_id: str
    title: str
    constraint: str  # InstructionConstraint.describe()


class ReadInstruction(BaseModel):
    """What the grammar understood of an instruction, and what it did not."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    constraints: list[InstructionConstraint] = Field(default_factory=list)
    not_understood: list[str] = Field(default_factory=list)  # the instruction's clauses the grammar could not read
    refused: InstructionRefused | None = None


class ArbitratorOutput(Frozen):
    final_decision: str
    recommendations: list[str]
    conflicts_identified: list[ConflictDetail]
    conflict_resolutions: list[ResolutionDetail]
    safety_overrides: list[SafetyOverride]
    justification: str
    reasoning: str
    confidence: float = Field(ge=0, le=1)
    timestamp: UtcDatetime = Field(default_factory=lambda: datetime.now(UTC))
    status: Literal["decided", "escalated", "input_error"]
    flight_id: str | None = None
    disruption: Disruption | None = None  # the report's facts the decision answers (Validate's)
    ranked: list[RankedScenario] = Field(default_factory=list)
    rejected: list[ValidatedScenario] = Field(default_factory=list)
    # valid plans ranked below the top three, best first: considered and legal, kept by id for the audit
    also_valid: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    knowledge_mode: str = "none"  # "bedrock", "local", "local (fallback: …)", "none"
    escalations: list[Escalation] = Field(default_factory=list)
    llm: str = "offline"
    llm_overrides: list[LlmOverride] = Field(default_factory=list)
    weights: dict[str, float] = Field(default_factory=dict)
    scenarios_considered: int = 0
    debate: DebateRecord | None = None  # the rounds after the revision round, when a conflict stayed open
    network: NetworkDecision | None = None  # an airport or airspace disruption: every plan's per-flight table
    # alternatives: the duty manager's instruction as the grammar read it, and the plans its constraints removed
    instruction: ReadInstruction | None = None
    removed_by_instruction: list[InstructionRemoval] = Field(default_factory=list)
    # when the cause is expected to clear (the disruption's estimate) and when to look again if it has not: the
    # estimate's upper bound (the workflow waiting on it is a later step; recorded here for the console and --json)
    estimate: Clearance | None = None
    redecide_at: UtcDatetime | None = None
