"""The debate after the revision round (seed 002 FR-NCG, issue 20 item 3): what a debate round is told, and what
the decision records of the debate.

These are foundations, not arbitration: the agents read a stated conflict (agents/ may not import the
arbitrator), the arbitrator states it and the workflow carries it between rounds.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DEBATE_PHASE = "debate"
FIRST_DEBATE_ROUND = 3  # rounds 1 and 2 are the initial and the revision round
HARD_MAX_ROUNDS = 5  # seed 002: at most three debate rounds, whatever the configuration says

IssueKind = Literal["safety_vs_business", "confidence_gap"]
DebateOutcome = Literal["agreement", "no_change", "maximum"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DisputedPlan(_Frozen):
    """A plan an agent proposed that breaks a binding safety constraint, as the conflict states it."""

    scenario_id: str
    title: str
    kind: str
    registration: str | None = None
    alternate: str | None = None
    delay_minutes: int = 0
    constraint: str  # the binding constraint(s) it breaks, as the rules state them
    owners: list[str] = Field(default_factory=list)  # the safety agents whose constraints those are
    # a delay past the rostered crew's limit: the longest delay inside it (what the agent may propose instead)
    inside_minutes: int | None = None


class DebateIssue(_Frozen):
    """One open conflict, stated to the agents in the next round and listed for the duty manager at the end."""

    kind: IssueKind
    agents: list[str]  # who it is between
    holdouts: list[str]  # whose position is open: the agent that must move for the issue to close
    text: str
    # safety_vs_business: the business agent's plans that break a binding constraint, by agent
    disputed: dict[str, list[DisputedPlan]] = Field(default_factory=dict)


class StatedConflict(_Frozen):
    """What debate round `round` is told: the open issues after the round before it."""

    round: int = Field(ge=FIRST_DEBATE_ROUND, le=HARD_MAX_ROUNDS)
    issues: list[DebateIssue]

    def text(self) -> str:
        return f"Debate round {self.round}: " + " ".join(i.text for i in self.issues)


class PositionChange(_Frozen):
    agent: str
    before: str
    after: str


class DebateRound(_Frozen):
    round: int
    conflict: StatedConflict
    changed: list[PositionChange]  # who changed position in this round, and how


class Agreement(_Frozen):
    """When the debate ends: the recommended plan's actions split into those no open issue touches (proposed) and
    the open ones, listed for the duty manager."""

    status: Literal["agreed", "partial", "open"]
    agreed_actions: list[str]
    open_items: list[str]


class Position(_Frozen):
    """What one agent stands for after a round, with the arbitrator's verdict on the plans it proposed."""

    agent: str
    status: str  # ok | degraded | input_error | error
    confidence: float
    proposals: list[str] = Field(default_factory=list)  # its proposals' titles, in its order
    plans: list[str] = Field(default_factory=list)  # the arbitrator's scenarios it is a source of
    rejected: list[DisputedPlan] = Field(default_factory=list)  # those of its plans that break a binding constraint

    def summary(self) -> str:
        proposed = "; ".join(self.proposals) or "no proposal"
        return f"{proposed} (confidence {self.confidence:.2f})"


class DebateRecord(_Frozen):
    """What the decision records of the debate."""

    rounds_run: int  # all rounds, the initial and the revision round included (3 to 5)
    outcome: DebateOutcome
    reason: str
    rounds: list[DebateRound]
    open_issues: list[DebateIssue]
    agreement: Agreement | None = None  # the arbitrator's, over its recommended plan


def proposal_matches(proposal: dict[str, Any], plan: DisputedPlan) -> bool:
    """Whether a proposal (an AgentResponse's `proposals` item, as JSON) is the disputed plan: the same kind and
    the same tail, alternate or delay. The arbitrator rounds a proposed delay up to five minutes, so a delay
    within five minutes below the plan's is the same plan."""
    if proposal.get("kind") != plan.kind:
        return False
    parameters = proposal.get("parameters") or {}
    if plan.kind == "tail_swap":
        return parameters.get("registration") == plan.registration
    if plan.kind == "divert":
        return parameters.get("alternate") == plan.alternate
    if plan.kind == "delay":
        minutes = parameters.get("delay_minutes")
        return minutes is not None and 0 <= plan.delay_minutes - int(minutes) < 5
    return plan.kind == "cancel"


class DebateState(_Frozen):
    """The debate as it stands after a round: in `$.phase2.debate` after the revision round, in `$.debate` after
    each debate round (with that round's collation). `again` is what the state machine's Choice reads."""

    round: int  # the round just collated (2 = the revision round)
    max_rounds: int
    again: bool
    outcome: DebateOutcome | None = None  # why it stopped (None while it goes on)
    reason: str
    conflict: StatedConflict | None = None  # what the next round is told
    next_round: int | None = None
    issues: list[DebateIssue] = Field(default_factory=list)  # open after this round
    positions: dict[str, Position] = Field(default_factory=dict)
    rounds: list[DebateRound] = Field(default_factory=list)  # the debate rounds run so far
    agents: list[str] = Field(default_factory=list)  # who takes part in a debate round (all seven)
    # A debate round's collation reference and what the safety gate reads (the revision round's are in `$.phase2`).
    collation: dict[str, Any] | None = None
    statuses: dict[str, str] = Field(default_factory=dict)
    failed: list[str] = Field(default_factory=list)
    safety_failed: bool = False

    def record(self) -> DebateRecord | None:
        """What the decision records; None when no debate round ran (the agents agreed after two rounds)."""
        if not self.rounds:
            return None
        return DebateRecord(
            rounds_run=self.round,
            outcome=self.outcome or "maximum",
            reason=self.reason,
            rounds=self.rounds,
            open_issues=self.issues,
        )
