"""Conflicts between the agents, how each is resolved, and the safety overrides (seed 000's arbitration logic).

- safety vs business: a business agent's proposal breaks a safety constraint → safety wins, the proposal is
  overridden and the override listed;
- safety vs safety: one safety agent's proposal breaks another's constraint (a release that comes after the
  crew's last legal minute) → the most conservative holds: every safety bound applies, so only plans inside
  all of them survive;
- business vs business: the business agents prefer different actions → balanced by the weighted ranking.
"""

from __future__ import annotations

from ..data.schema import BUSINESS_AGENTS, SAFETY_AGENTS
from ..models.agent_response import AgentResponse
from .bounds import AircraftGroundedBound, CrewIllegalBound, CrewMaxDelayBound, SafetyBound
from .models import ConflictDetail, ResolutionDetail, SafetyOverride, ValidatedScenario

# Which safety agent owns a rejection the rules re-computed.
OWNER = {
    "CREW_ILLEGAL": "crew_compliance",
    "CREW_LIMIT_EXCEEDED": "crew_compliance",
    "AIRCRAFT_NOT_AIRWORTHY": "maintenance",
    "TAIL_SWAP_INELIGIBLE": "maintenance",
    "CURFEW": "regulatory",
    "WEATHER_BELOW_LIMITS": "regulatory",
    "ROTATION_BROKEN": "maintenance",  # the tail assignment: which aircraft is where, airworthy, when
    "CREW_CHAIN_BROKEN": "crew_compliance",
}


def constraint_owners(v: ValidatedScenario) -> dict[str, str]:
    """Safety agent → the first constraint of theirs this scenario breaks."""
    owners: dict[str, str] = {}
    for rejection in v.rejections:
        agent = OWNER.get(rejection.code)
        if agent:
            owners.setdefault(agent, rejection.message)
    for check in v.checks:
        if check.status == "illegal" and check.source in SAFETY_AGENTS:
            owners.setdefault(check.source, check.message)
    return owners


def identify(
    collation: dict[str, AgentResponse], validated: list[ValidatedScenario], bounds: list[SafetyBound]
) -> tuple[list[ResolutionDetail], list[SafetyOverride]]:
    resolutions: list[ResolutionDetail] = []
    overrides: list[SafetyOverride] = []
    for v in validated:
        if v.valid:
            continue
        owners = constraint_owners(v)
        proposers = [a for a in v.scenario.sources if a in collation]
        business = [a for a in proposers if a in BUSINESS_AGENTS]
        safety = [a for a in proposers if a in SAFETY_AGENTS]
        for agent, constraint in owners.items():
            if business:
                overrides.append(
                    SafetyOverride(
                        safety_agent=agent,
                        binding_constraint=constraint,
                        overridden_recommendations=[f"{b}: {v.scenario.title}" for b in business],
                    )
                )
        if business and owners:
            conflict = ConflictDetail(
                agents_involved=sorted({*business, *owners}),
                conflict_type="safety_vs_business",
                description=f"{', '.join(business)} proposed '{v.scenario.title}', which breaks "
                f"{'; '.join(owners.values())}",
            )
            resolutions.append(
                ResolutionDetail(
                    conflict=conflict,
                    resolution=f"'{v.scenario.title}' rejected",
                    rationale="Safety constraints are binding; business preferences never override them.",
                )
            )
        others = {a: c for a, c in owners.items() if a not in safety}
        if safety and others:
            conflict = ConflictDetail(
                agents_involved=sorted({*safety, *others}),
                conflict_type="safety_vs_safety",
                description=f"{', '.join(safety)} proposed '{v.scenario.title}', which breaks "
                f"{'; '.join(others.values())}",
            )
            resolutions.append(
                ResolutionDetail(
                    conflict=conflict,
                    resolution=f"'{v.scenario.title}' rejected; the most conservative constraint governs",
                    rationale="Between safety agents every binding bound applies at once, "
                    "so the stricter one always decides.",
                )
            )
    resolutions.extend(_bound_conflicts(bounds))
    resolutions.extend(_business_conflicts(collation))
    return resolutions, overrides


def _bound_conflicts(bounds: list[SafetyBound]) -> list[ResolutionDetail]:
    """A grounded tail released after the rostered crew's last legal minute: no plan on that tail with that crew.
    One conflict per grounded tail, against the strictest crew bound (crew bounds come one per member)."""
    max_delay = min((b.max_delay_minutes for b in bounds if isinstance(b, CrewMaxDelayBound)), default=None)
    illegal_from = min((b.from_delay_minutes for b in bounds if isinstance(b, CrewIllegalBound)), default=None)
    limit = (
        min(x for x in (max_delay, illegal_from) if x is not None)
        if max_delay is not None or illegal_from is not None
        else None
    )
    if limit is None:
        return []
    text = (
        f"crew legal only up to a {max_delay}-min delay"
        if limit == max_delay
        else f"crew illegal from a {illegal_from}-min delay"
    )
    out = []
    for grounded in (b for b in bounds if isinstance(b, AircraftGroundedBound) and b.release_at is not None):
        conflict = ConflictDetail(
            agents_involved=sorted({grounded.agent, "crew_compliance"}),
            conflict_type="safety_vs_safety",
            description=f"{grounded.registration} is released at {grounded.release_at:%H:%MZ}; {text}",
        )
        out.append(
            ResolutionDetail(
                conflict=conflict,
                resolution="both bounds apply: a plan waiting for the release "
                "needs other crew, or another aircraft flies",
                rationale="Most conservative option wins between safety agents (seed 000, property 9).",
            )
        )
    return out


def _business_conflicts(collation: dict[str, AgentResponse]) -> list[ResolutionDetail]:
    preferred = {
        a: r.proposals[0].kind
        for a, r in collation.items()
        if a in BUSINESS_AGENTS and r.status in ("ok", "degraded") and r.proposals
    }
    kinds = sorted(set(preferred.values()))
    if len(kinds) < 2:
        return []
    conflict = ConflictDetail(
        agents_involved=sorted(preferred),
        conflict_type="business_vs_business",
        description="; ".join(f"{a} prefers {k.replace('_', ' ')}" for a, k in sorted(preferred.items())),
    )
    return [
        ResolutionDetail(
            conflict=conflict,
            resolution="balanced by the weighted ranking",
            rationale="Passenger satisfaction, cost, network stability and execution reliability are "
            "weighed together; no business agent has a veto.",
        )
    ]
