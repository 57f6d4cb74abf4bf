"""Properties of arbitration over generated agent outputs and candidate scenarios (no data needed).

The oracle below restates what each typed constraint forbids, straight from the AgentResponse, without the
arbitrator's bounds code: the chosen plan must pass it whatever the agents said and whatever the weights.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.agents.graph import failure_response
from skymarshal.arbitration.actions import CancelFlight, DelayFlight
from skymarshal.arbitration.bounds import bounds_from
from skymarshal.arbitration.models import Scenario
from skymarshal.arbitration.ranking import Precedent, RankingWeights, rank_order
from skymarshal.arbitration.validation.scenario import validate_bounds
from skymarshal.data.schema import AGENTS
from skymarshal.models.agent_response import (
    AgentResponse,
    CrewConstraint,
    MaintenanceConstraint,
    RegulatoryConstraint,
    TimeWindow,
)
from skymarshal.models.findings import Finding

STD = datetime(2027, 1, 20, 10, 25, tzinfo=UTC)
BLOCK = timedelta(minutes=400)
TAIL, SPARES, CREW = "A6-BLQ", ("A6-BLT", "A6-BLU", "A6-BMJ"), tuple(f"C{n:05d}" for n in range(1, 7))
AIRPORTS = ("FRA", "BHX", "MAN")
NEUTRAL = Precedent(0.5, 0, "none")


def response(agent: str, constraints=(), findings=()) -> AgentResponse:
    return AgentResponse(
        agent_name=agent,
        phase="revision",
        status="ok",
        recommendation="r",
        confidence=0.9,
        binding_constraints=[f.message for f in findings if f.binding],
        reasoning="r",
        data_sources=[],
        extracted_flight_info={},
        constraints=list(constraints),
        findings=list(findings),
    )


crew_constraints = st.lists(
    st.one_of(
        st.builds(
            lambda ids, d: CrewConstraint(
                constraint_type="duty_limit",
                affected_crew=ids,
                restriction=f"illegal from {d}",
                reasoning="ORO.FTL.205",
                illegal_from_delay_minutes=d,
            ),
            st.lists(st.sampled_from(CREW), min_size=1, max_size=3, unique=True),
            st.integers(0, 600),
        ),
        st.builds(
            lambda ids, d: CrewConstraint(
                constraint_type="duty_limit",
                affected_crew=ids,
                restriction=f"at most {d}",
                reasoning="ORO.FTL.205",
                max_delay_minutes=d,
            ),
            st.lists(st.sampled_from(CREW), min_size=1, max_size=6, unique=True),
            st.integers(0, 600),
        ),
    ),
    max_size=3,
)
grounded = st.lists(
    st.builds(
        lambda reg, release: MaintenanceConstraint(
            aircraft_id=reg,
            mel_items=[],
            airworthy=False,
            restrictions=[],
            required_actions=[],
            estimated_release=release,
            reasoning=f"{reg} AOG",
        ),
        st.sampled_from((TAIL,) + SPARES),
        st.one_of(st.none(), st.integers(0, 900).map(lambda m: STD + timedelta(minutes=m))),
    ),
    max_size=2,
    unique_by=lambda c: c.aircraft_id,
)
expired = st.lists(
    st.sampled_from(SPARES).map(
        lambda reg: Finding(
            rule="mx.mel_expired",
            clause="MEL",
            status="illegal",
            binding=True,
            subject=reg,
            message=f"{reg} MEL expired",
        )
    ),
    max_size=2,
    unique_by=lambda f: f.subject,
)
windows = st.lists(
    st.builds(
        lambda kind, airport, start, length: RegulatoryConstraint(
            constraint_type=kind,
            affected_airports=[airport],
            restrictions=[f"no arrival at {airport}"],
            reasoning=kind,
            time_windows=[
                TimeWindow(
                    start=STD + BLOCK + timedelta(minutes=start), end=STD + BLOCK + timedelta(minutes=start + length)
                )
            ],
        ),
        st.sampled_from(("curfew", "weather")),
        st.sampled_from(AIRPORTS),
        st.integers(-120, 600),
        st.integers(1, 480),
    ),
    max_size=3,
)


@st.composite
def collations(draw) -> dict[str, AgentResponse]:
    collation = {a: response(a) for a in AGENTS}
    collation["crew_compliance"] = response("crew_compliance", draw(crew_constraints))
    collation["maintenance"] = response("maintenance", draw(grounded), draw(expired))
    collation["regulatory"] = response("regulatory", draw(windows))
    for agent in draw(st.lists(st.sampled_from(("crew_compliance", "maintenance", "regulatory")), max_size=1)):
        collation[agent] = failure_response(agent, "revision", {}, "no answer within the 30 s deadline")
    return collation


@st.composite
def scenarios(draw, cancel=st.booleans()) -> list[Scenario]:
    out = []
    for n in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(("delay", "tail_swap", "crew_swap", "divert")))
        delay = draw(st.integers(0, 600))
        registration = draw(st.sampled_from(SPARES)) if kind == "tail_swap" else TAIL
        replaced = draw(st.lists(st.sampled_from(CREW), unique=True)) if kind in ("crew_swap", "delay") else []
        airport = draw(st.sampled_from(AIRPORTS[1:])) if kind == "divert" else "FRA"
        departure = STD + timedelta(minutes=delay)
        out.append(
            Scenario(
                scenario_id=f"{kind}:{n}",
                kind=kind,
                title=f"{kind} {n}",
                sources=["generator"],
                actions=[
                    DelayFlight(
                        flight_id="F", delay_minutes=delay, new_departure=departure, new_arrival=departure + BLOCK
                    )
                ],
                operates=True,
                registration=registration,
                aircraft_type="B789",
                crew_replacements={c: f"R{c}" for c in replaced},
                departure=departure,
                arrival=departure + BLOCK,
                arrival_airport=airport,
                delay_minutes=delay,
                arrival_delay_minutes=delay,
                passengers_impacted=draw(st.integers(0, 300)),
                cost_usd=draw(st.floats(0, 2e5)),
                downstream_flights_delayed=draw(st.integers(0, 4)),
            )
        )
    if draw(cancel):
        out.append(
            Scenario(
                scenario_id="cancel",
                kind="cancel",
                title="cancel",
                sources=["generator"],
                actions=[CancelFlight(flight_id="F", reason="test")],
                operates=False,
                registration=None,
                aircraft_type=None,
                departure=None,
                arrival=None,
                arrival_airport=None,
                delay_minutes=1440,
                arrival_delay_minutes=1440,
                passengers_impacted=300,
                cost_usd=2e5,
            )
        )
    return out


weights = st.builds(
    RankingWeights,
    passenger_satisfaction=st.floats(0.01, 1),
    cost=st.floats(0, 1),
    network_stability=st.floats(0, 1),
    execution_reliability=st.floats(0, 1),
)


def violations(s: Scenario, collation: dict[str, AgentResponse]) -> list[str]:
    """What the agents' typed constraints forbid, restated independently of the arbitrator."""
    if not s.operates:
        return []
    out = []
    for agent in ("crew_compliance", "maintenance", "regulatory"):
        if any(c.startswith("NO DISPATCH") for c in collation[agent].binding_constraints):
            out.append(f"{agent} could not clear dispatch")
    kept = lambda ids: [c for c in ids if c not in s.crew_replacements]  # noqa: E731
    release = {}
    for c in collation["crew_compliance"].constraints:
        if (
            c.illegal_from_delay_minutes is not None
            and kept(c.affected_crew)
            and s.delay_minutes >= c.illegal_from_delay_minutes
        ):
            out.append(c.restriction)
        if c.max_delay_minutes is not None and kept(c.affected_crew) and s.delay_minutes > c.max_delay_minutes:
            out.append(c.restriction)
    for c in collation["maintenance"].constraints:
        release[c.aircraft_id] = c.estimated_release
        if s.registration == c.aircraft_id and (c.estimated_release is None or s.departure < c.estimated_release):
            out.append(c.reasoning)
    for f in collation["maintenance"].findings:
        if f.binding and f.subject == s.registration and f.subject not in release:
            out.append(f.message)
    for c in collation["regulatory"].constraints:
        for w in c.time_windows:
            if s.arrival_airport in c.affected_airports and w.start <= s.arrival < w.end:
                out.append(c.restrictions[0])
    return out


def choose(collation, candidates, w):
    bounds = bounds_from(collation)
    validated = [validate_bounds(s, bounds) for s in candidates]
    valid = [v for v in validated if v.valid]
    order = rank_order(valid, w, [NEUTRAL] * len(valid))
    return (valid[order[0][0]].scenario if order else None), validated


@settings(max_examples=500, deadline=None)
@given(collations(), scenarios(), weights)
def test_the_chosen_plan_never_violates_a_binding_constraint(collation, candidates, w):
    chosen, validated = choose(collation, candidates, w)
    for v in validated:  # the bounds layer agrees with the oracle on every scenario, chosen or not
        assert v.valid == (not violations(v.scenario, collation)), (v.scenario.scenario_id, v.rejections)
    if chosen is None:
        assert all(violations(s, collation) for s in candidates)
    else:
        assert violations(chosen, collation) == []


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 600), st.integers(0, 600), st.lists(st.integers(0, 600), min_size=1, max_size=10), weights)
def test_between_conflicting_safety_agents_the_most_conservative_bound_wins(crew_max, curfew_at, delays, w):
    """Crew says "at most `crew_max` min"; regulatory says "no arrival from `curfew_at` min late". Longer delays
    are made cheaper, so business preference pulls the other way: the plan still keeps the stricter bound."""
    collation = {a: response(a) for a in AGENTS}
    collation["crew_compliance"] = response(
        "crew_compliance",
        [
            CrewConstraint(
                constraint_type="duty_limit",
                affected_crew=list(CREW),
                restriction="max",
                reasoning="r",
                max_delay_minutes=crew_max,
            )
        ],
    )
    collation["regulatory"] = response(
        "regulatory",
        [
            RegulatoryConstraint(
                constraint_type="curfew",
                affected_airports=["FRA"],
                restrictions=["curfew"],
                reasoning="r",
                time_windows=[
                    TimeWindow(start=STD + BLOCK + timedelta(minutes=curfew_at), end=STD + BLOCK + timedelta(hours=30))
                ],
            )
        ],
    )
    candidates = []
    for _n, d in enumerate(sorted(set(delays))):
        dep = STD + timedelta(minutes=d)
        candidates.append(
            Scenario(
                scenario_id=f"delay:{d}",
                kind="delay",
                title=f"delay {d}",
                sources=["network"],
                actions=[DelayFlight(flight_id="F", delay_minutes=d, new_departure=dep, new_arrival=dep + BLOCK)],
                operates=True,
                registration=TAIL,
                aircraft_type="B789",
                departure=dep,
                arrival=dep + BLOCK,
                arrival_airport="FRA",
                delay_minutes=d,
                arrival_delay_minutes=d,
                passengers_impacted=100,
                cost_usd=100000.0 - 100 * d,
            )
        )
    chosen, _ = choose(collation, candidates, w)
    strictest = min(crew_max, curfew_at - 1)
    legal = [d for d in delays if d <= strictest]
    if legal:
        assert chosen is not None and chosen.delay_minutes <= strictest
    else:
        assert chosen is None
