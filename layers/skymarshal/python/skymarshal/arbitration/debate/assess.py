"""Each agent's position after a round, as the debate rule (arbitration/debate/rule.py) reads it: the plans it proposed
and the arbitrator's own verdict on each — the same scenario generation and zero-tolerance validation Arbitrate
runs, without ranking, sources or a model, so it is cheap enough to run after every round (~0.3 s offline)."""

from __future__ import annotations

from datetime import UTC, datetime

from ...data.access import DataHandle
from ...data.schema import AGENTS
from ...models.agent_response import AgentResponse
from ...models.debate import DisputedPlan, Position
from ...models.disruption import Disruption
from ..bounds import CrewIllegalBound, CrewMaxDelayBound, SafetyBound
from ..conflicts import constraint_owners
from ..context import load_context, request_flight
from ..models import ValidatedScenario
from ..plans.generator import generate
from ..validation.scenario import validate

# Refusals a shorter delay can cure: the crew's own duty limits, and the rest its knock-on would take from a crew
# member's next rostered duty (CREW_CHAIN_BROKEN, arbitration/crew/chain.py).
CREW_LIMITS = frozenset({"CREW_ILLEGAL", "CREW_LIMIT_EXCEEDED", "CREW_CHAIN_BROKEN"})


def inside_crew_limit(v: ValidatedScenario, bounds: list[SafetyBound], *, at_least: int = 0) -> int | None:
    """For a delay refused only on its crew's duty limits: the longest delay every crew bound allows, no shorter
    than the delay the flight already has (`at_least`). The arbitrator validates whatever is then proposed; this
    is what the conflict states, not a verdict."""
    if v.scenario.kind != "delay" or not v.rejections or not {r.code for r in v.rejections} <= CREW_LIMITS:
        return None
    limits = [b.max_delay_minutes for b in bounds if isinstance(b, CrewMaxDelayBound)]
    limits += [b.from_delay_minutes - 1 for b in bounds if isinstance(b, CrewIllegalBound)]
    if not limits:
        return None
    inside = min(limits) - min(limits) % 5  # the arbitrator rounds a proposed delay up to five minutes
    return inside if max(at_least, 1) <= inside < v.scenario.delay_minutes else None


def _disputed(v: ValidatedScenario, bounds: list[SafetyBound], at_least: int) -> DisputedPlan:
    owners = constraint_owners(v)
    constraint = (
        "; ".join(f"{message} ({agent})" for agent, message in sorted(owners.items()))
        if owners
        else "; ".join(f"{r.code}: {r.message}" for r in v.rejections[:2])
    )
    s = v.scenario
    return DisputedPlan(
        scenario_id=s.scenario_id,
        title=s.title,
        kind=s.kind,
        registration=s.registration if s.kind == "tail_swap" else None,
        alternate=s.arrival_airport if s.kind == "divert" else None,
        delay_minutes=s.delay_minutes,
        constraint=constraint,
        owners=sorted(owners),
        inside_minutes=inside_crew_limit(v, bounds, at_least=at_least),
    )


def positions(
    collation: dict[str, AgentResponse | dict],
    prompt: str,
    *,
    handle: DataHandle,
    disruption: Disruption,
    now: datetime | None = None,
) -> dict[str, Position]:
    """Every agent's position; plans and verdicts on the request's flight (the disruption's; when the data no
    longer holds it, no plan is anyone's and only the confidences speak)."""
    responses = {
        a: r if isinstance(r, AgentResponse) else AgentResponse.model_validate(r) for a, r in collation.items()
    }
    validated: list[ValidatedScenario] = []
    bounds: list[SafetyBound] = []
    flight = request_flight(handle, disruption)
    if flight is not None:
        ctx = load_context(prompt, flight, responses, handle, now or datetime.now(UTC), disruption)
        validated = [validate(ctx, s) for s in generate(ctx, proposed_only=True)]  # only agents' plans are positions
        bounds = ctx.bounds
    out = {}
    for agent in AGENTS:
        r = responses.get(agent)
        if r is None:
            continue
        own = [v for v in validated if agent in v.scenario.sources]
        out[agent] = Position(
            agent=agent,
            status=r.status,
            confidence=r.confidence,
            proposals=[p.title for p in r.proposals],
            plans=[v.scenario.scenario_id for v in own],
            rejected=[_disputed(v, bounds, flight.delay_minutes if flight else 0) for v in own if not v.valid],
        )
    return out
