"""When the agents debate (issue 20 item 3, seed 002 FR-NCG): the rule that decides whether a round leaves a
conflict the arbitrator's own resolution does not settle, when the debate stops, and what the agents agreed.

Data in, data out: positions (what each agent stands for after a round, with the arbitrator's verdict on each
plan it proposed) and the configuration's thresholds. No reads, no clock, no model: the same positions always
give the same answer, so deterministic agents either converge or stop.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ...data.schema import BUSINESS_AGENTS
from ...models.debate import (
    FIRST_DEBATE_ROUND,
    HARD_MAX_ROUNDS,
    Agreement,
    DebateIssue,
    DebateOutcome,
    Position,
    PositionChange,
    StatedConflict,
)

# Whose concern each action of a plan is: an action is open when one of these agents holds out on an open issue.
ACTION_DOMAIN: dict[str, tuple[str, ...]] = {
    "swap_aircraft": ("maintenance", "network"),
    "ferry": ("maintenance", "network"),
    "continue": ("crew_compliance", "regulatory", "network"),
    "reassign_crew": ("crew_compliance",),
    "stand_down_crew": ("crew_compliance", "regulatory"),
    "delay": ("network", "crew_compliance", "regulatory"),
    "divert": ("regulatory", "network"),
    "cancel": ("network", "finance"),
    "rebook": ("guest_experience",),
}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DebateStep(_Frozen):
    """The rule's answer after a round: another debate round with the conflict stated, or arbitrate now."""

    round: int  # the round just assessed (2 = the revision round)
    again: bool
    outcome: DebateOutcome | None  # why it stops (None while it goes on)
    reason: str
    issues: list[DebateIssue]
    conflict: StatedConflict | None  # what the next round is told


def unheard_business_agents(positions: dict[str, Position]) -> list[DebateIssue]:
    """A business agent every one of whose plans breaks a binding safety constraint.

    Why this is beyond the arbitrator's resolution: the arbitrator settles a safety-vs-business conflict by
    rejecting the plan, which is right but answers nothing the business agent raised — the plan it ranks first is
    one that agent never argued for. While the agent still has a legal plan of its own, the weighted ranking
    weighs its case; when it has none, it must hear the binding constraints and argue within them first."""
    issues = []
    for agent in BUSINESS_AGENTS:
        p = positions.get(agent)
        if p is None or p.status != "ok" or not p.plans or len({r.scenario_id for r in p.rejected}) < len(p.plans):
            continue
        owners = sorted({o for r in p.rejected for o in r.owners})
        text = f"{agent}: every plan it proposed breaks a binding safety constraint — " + "; ".join(
            f"'{r.title}' breaks {r.constraint}" for r in p.rejected
        )
        issues.append(
            DebateIssue(
                kind="safety_vs_business",
                agents=sorted({agent, *owners}),
                holdouts=[agent],
                text=text + f". {agent}: withdraw them or propose a plan inside these constraints.",
                disputed={agent: p.rejected},
            )
        )
    return issues


def confidence_gap(positions: dict[str, Position], threshold: float) -> list[DebateIssue]:
    """The agents' confidences (those that answered "ok") differ by more than `threshold`.

    Why: confidence is computed from the completeness of an agent's inputs, how close it is to a limit and what it
    assumed; a wide spread means one agent analysed a different situation from the others (a release time, a
    weather window), which the arbitrator can flag (AGENT_CONFIDENCE_GAP) but not reconcile."""
    ok = sorted((p for p in positions.values() if p.status == "ok"), key=lambda p: (p.confidence, p.agent))
    if len(ok) < 2 or ok[-1].confidence - ok[0].confidence <= threshold:
        return []
    low, high = ok[0], ok[-1]
    return [
        DebateIssue(
            kind="confidence_gap",
            agents=sorted({low.agent, high.agent}),
            holdouts=[low.agent],
            text=f"agent confidence ranges {low.confidence:.2f} ({low.agent}) to {high.confidence:.2f} ({high.agent}), "
            f"more than {threshold:.2f} apart: {low.agent}, say what your analysis is missing; the others, what in "
            f"{low.agent}'s findings would change yours.",
        )
    ]


def open_issues(positions: dict[str, Position], threshold: float) -> list[DebateIssue]:
    return unheard_business_agents(positions) + confidence_gap(positions, threshold)


def changes(previous: dict[str, Position], positions: dict[str, Position]) -> list[PositionChange]:
    """Who changed position between two rounds: their proposals or their confidence (to two places)."""
    out = []
    for agent in sorted(positions):
        before, after = previous.get(agent), positions[agent]
        if before is None:
            continue
        if before.proposals != after.proposals or round(before.confidence, 2) != round(after.confidence, 2):
            out.append(PositionChange(agent=agent, before=before.summary(), after=after.summary()))
    return out


def next_step(
    round_: int,
    positions: dict[str, Position],
    previous: dict[str, Position] | None,
    *,
    max_rounds: int,
    threshold: float,
) -> DebateStep:
    """After round `round_` (2 = the revision round): debate again, or arbitrate.

    In this order: no open issue → arbitrate (so a run without conflict has exactly two rounds); the maximum
    reached → arbitrate with the issues open; a debate round in which nobody moved → arbitrate (another round of the
    same deterministic agents would repeat it); else the next round, told the open issues."""
    limit = min(max(max_rounds, FIRST_DEBATE_ROUND - 1), HARD_MAX_ROUNDS)
    issues = open_issues(positions, threshold)
    if not issues:
        reason = "the agents agree" + (" after the revision round" if round_ < FIRST_DEBATE_ROUND else "")
        return DebateStep(round=round_, again=False, outcome="agreement", reason=reason, issues=[], conflict=None)
    if round_ >= limit:
        return DebateStep(
            round=round_,
            again=False,
            outcome="maximum",
            reason=f"{len(issues)} issue(s) still open after round {round_}, the most the debate may run",
            issues=issues,
            conflict=None,
        )
    if previous is not None and round_ >= FIRST_DEBATE_ROUND and not changes(previous, positions):
        return DebateStep(
            round=round_,
            again=False,
            outcome="no_change",
            reason=f"no agent changed position in round {round_}; another round would repeat it",
            issues=issues,
            conflict=None,
        )
    stated = StatedConflict(round=round_ + 1, issues=issues)
    return DebateStep(
        round=round_,
        again=True,
        outcome=None,
        reason=f"{len(issues)} open issue(s) go to debate round {round_ + 1}",
        issues=issues,
        conflict=stated,
    )


def agreement(actions: list[tuple[str, str]], issues: list[DebateIssue]) -> Agreement:
    """The recommended plan's actions ((kind, description) each) split by the open issues: an action is open when
    an agent whose concern it is (ACTION_DOMAIN) holds out on an issue; the rest are agreed and proposed."""
    holdouts = {a for issue in issues for a in issue.holdouts}
    agreed, open_items = [], [issue.text for issue in issues]
    for kind, text in actions:
        who = sorted(holdouts & set(ACTION_DOMAIN.get(kind, ())))
        if who:
            open_items.append(f"{text}: open while {', '.join(who)} hold(s) out")
        else:
            agreed.append(text)
    status: Literal["agreed", "partial", "open"] = "agreed" if not issues else ("partial" if agreed else "open")
    return Agreement(status=status, agreed_actions=agreed, open_items=open_items)
