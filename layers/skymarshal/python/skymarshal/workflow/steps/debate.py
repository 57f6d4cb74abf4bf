"""The debate in the workflow: after the revision round and after each debate round, Collate asks the debate rule
(arbitration/debate/rule.py) whether the agents debate again, and carries the answer in the state for the state
machine's Choice. Free of Lambda, like the other steps.
"""

from __future__ import annotations

from typing import Any

from ...arbitration.arbitrator import ArbitratorConfig
from ...arbitration.debate.assess import positions
from ...arbitration.debate.rule import changes, next_step
from ...data.access import DataHandle
from ...data.schema import AGENTS
from ...models.debate import DEBATE_PHASE, DebateRound, DebateState
from ..audit.trail import AuditTrail
from ..models import PhaseResult, ValidatedRequest
from ..payloads import ArtifactStore, run_key
from .collate import collate

REVISION_ROUND = 2


def assess(
    round_: int,
    collation: dict[str, Any],
    request: ValidatedRequest,
    *,
    handle: DataHandle,
    previous: DebateState | None,
    config: ArbitratorConfig = ArbitratorConfig(),
) -> DebateState:
    """The debate after round `round_`: each agent's position on the arbitrator's own verdicts, and the rule's
    answer. `previous`: the state after the round before (None after the revision round)."""
    now = positions(
        collation,
        request.prompt,
        handle=handle.with_overlay(request.overlay).with_read_cache(),
        disruption=request.disruption,
    )
    before = previous.positions if previous is not None else None
    step = next_step(round_, now, before, max_rounds=config.debate_max_rounds, threshold=config.agent_confidence_gap)
    rounds = list(previous.rounds) if previous is not None else []
    if previous is not None and previous.conflict is not None:  # the round just run: what it was told, who moved
        rounds.append(DebateRound(round=round_, conflict=previous.conflict, changed=changes(previous.positions, now)))
    return DebateState(
        round=round_,
        max_rounds=config.debate_max_rounds,
        again=step.again,
        outcome=step.outcome,
        reason=step.reason,
        conflict=step.conflict,
        next_round=step.conflict.round if step.conflict else None,
        issues=step.issues,
        positions=now,
        rounds=rounds,
        agents=list(AGENTS),
    )


def after_revision(
    result: PhaseResult,
    request: dict[str, Any],
    *,
    store: ArtifactStore,
    handle: DataHandle,
    config: ArbitratorConfig = ArbitratorConfig(),
) -> PhaseResult:
    """The revision round's PhaseResult with the debate's first answer. A safety agent that failed sends the run to
    a human before any debate (the safety gate comes first), so no assessment then."""
    if result.safety_failed:
        return result
    validated = ValidatedRequest.model_validate(request)
    debate = assess(
        REVISION_ROUND, store.resolve(result.collation), validated, handle=handle, previous=None, config=config
    )
    # The first debate round reads the revision round's collation as "the round before".
    debate = debate.model_copy(update={"collation": result.collation.model_dump(mode="json")})
    return result.model_copy(update={"debate": debate, "debate_again": debate.again})


def collate_debate(
    results: list,
    request: dict[str, Any],
    previous: dict[str, Any],
    *,
    store: ArtifactStore,
    handle: DataHandle,
    execution_name: str | None = None,
    trail: AuditTrail | None = None,
    config: ArbitratorConfig = ArbitratorConfig(),
) -> DebateState:
    """A debate round's Map results → its collation (stored as `collation-debate-<round>`), the safety gate's
    flags, and the rule's answer on whether another round follows."""
    validated = ValidatedRequest.model_validate(request)
    before = DebateState.model_validate(previous)
    round_ = before.next_round
    if round_ is None:
        raise ValueError("a debate round ran, but the state names no next round")
    result = collate(
        DEBATE_PHASE,
        results,
        disruption_id=validated.disruption_id,
        store=store,
        execution_name=execution_name,
        trail=trail,
        round_=round_,
    )
    flags = {
        "collation": result.collation.model_dump(mode="json"),
        "statuses": result.statuses,
        "failed": result.failed,
        "safety_failed": result.safety_failed,
    }
    if result.safety_failed:  # the gate escalates: the debate ends here, as it stood
        return before.model_copy(
            update={**flags, "round": round_, "again": False, "conflict": None, "next_round": None}
        )
    debate = assess(round_, store.resolve(result.collation), validated, handle=handle, previous=before, config=config)
    state = debate.model_copy(update=flags)
    if trail is not None:
        trail.append(
            validated.disruption_id,
            "debate",
            f"debate:{round_}:{execution_name}",
            {
                "round": round_,
                "stated": before.conflict.model_dump(mode="json") if before.conflict else None,
                "changed": [c.model_dump(mode="json") for c in state.rounds[-1].changed] if state.rounds else [],
                "again": state.again,
                "reason": state.reason,
            },
            actor="collate",
            execution_name=execution_name,
        )
    store.put(
        run_key(validated.disruption_id, execution_name or validated.disruption_id, f"debate-{round_}"),
        state.model_dump(mode="json"),
    )
    return state
