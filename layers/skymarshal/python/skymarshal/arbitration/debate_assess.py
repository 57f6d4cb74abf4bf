"""Each agent's position after a round, as the debate rule (arbitration/debate.py) reads it: the plans it proposed
and the arbitrator's own verdict on each — the same scenario generation and zero-tolerance validation Arbitrate
runs, without ranking, sources or a model, so it is cheap enough to run after every round (~0.3 s offline)."""

from __future__ import annotations

from datetime import UTC, date, datetime

from ..data import queries as q
from ..data.access import DataHandle
from ..data.schema import AGENTS
from ..models.agent_response import AgentResponse
from ..models.debate import DisputedPlan, Position
from ..models.disruption import Disruption
from .conflicts import constraint_owners
from .context import load_context
from .models import ValidatedScenario
from .scenarios import generate
from .validation import validate


def _disputed(v: ValidatedScenario) -> DisputedPlan:
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
    )


def positions(
    collation: dict[str, AgentResponse | dict],
    prompt: str,
    *,
    handle: DataHandle,
    disruption: Disruption | None = None,
    now: datetime | None = None,
) -> dict[str, Position]:
    """Every agent's position; plans and verdicts only when an agent identified the flight (else no plan is
    anyone's, and only the confidences speak)."""
    responses = {
        a: r if isinstance(r, AgentResponse) else AgentResponse.model_validate(r) for a, r in collation.items()
    }
    validated: list[ValidatedScenario] = []
    flight = None
    for response in responses.values():
        info = response.extracted_flight_info or {}
        if response.status in ("ok", "degraded") and info.get("flight_number") and info.get("date"):
            flight = q.find_flight(handle, info["flight_number"], date.fromisoformat(str(info["date"])))
            break
    if flight is not None:
        ctx = load_context(prompt, flight, responses, handle, now or datetime.now(UTC), disruption)
        validated = [validate(ctx, s) for s in generate(ctx)]
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
            rejected=[_disputed(v) for v in own if not v.valid],
        )
    return out
