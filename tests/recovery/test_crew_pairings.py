"""Crews as resources of the recovery model (issue 47 item 1): the checker names each crew breach, the planner and
the search never retime a leg past its crew's slack, and the slack is the rules engine's own answer."""

from __future__ import annotations

from datetime import timedelta

import row_builders
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from row_builders import utc

from skymarshal.models.operational import CrewMember
from skymarshal.recovery.aircraft_plan import Weights
from skymarshal.recovery.checker import check
from skymarshal.recovery.crew_checks import check_crews
from skymarshal.recovery.crew_pairings import HORIZON_MINUTES, joint_slack
from skymarshal.recovery.model import CrewPairing, DatedFlightRef
from skymarshal.recovery.network import build_network
from skymarshal.recovery.solver import NoFeasibleSolution, construct, solve
from skymarshal.rules.crew import latest_legal_delay
from skymarshal.rules.rostered import flight_crew_legality, rostered_duty

from .tiny import FILES, delay, planned_solution, replace_flight, tiny_instance


def _pairing(pid: str, numbers: tuple[int, ...], start: str, slack: tuple[int, ...], connect: int = 30) -> CrewPairing:
    return CrewPairing(
        id=pid,
        legs=tuple(DatedFlightRef(number=n, day=0) for n in numbers),
        start_airport=start,
        slack=slack,
        connect=connect,
    )


def _kinds(instance, solution) -> list[str]:
    return [v.kind for v in check_crews(instance, solution)]


def test_the_checker_names_each_crew_breach(tmp_path):
    """A crew flies 101 on P1 (AAA-BBB, lands 10:00), then 203 on P2 (BBB-AAA at 13:00)."""
    base = tiny_instance(tmp_path)
    instance = base.model_copy(update={"crews": (_pairing("K", (101, 203), "AAA", (60, 60)),)})
    planned = planned_solution(instance)
    assert _kinds(instance, planned) == [] and check(instance, planned) == []
    assert _kinds(instance, delay(planned, 203, 61)) == ["crew_duty"]
    assert _kinds(instance, delay(planned, 203, 60)) == []
    # 101 cancelled: the crew is still at AAA and cannot fly 203 out of BBB
    assert _kinds(instance, replace_flight(planned, 101, aircraft=None)) == ["crew_position"]
    assert _kinds(instance, replace_flight(replace_flight(planned, 101, aircraft=None), 203, aircraft=None)) == []
    tight = base.model_copy(update={"crews": (_pairing("K", (101, 203), "AAA", (60, 60), connect=200),)})
    assert _kinds(tight, planned) == ["crew_connection"]  # 13:00 is 180 min after 10:00 on another aircraft
    assert check(base, planned) == []  # no crews (the 2009 instances): nothing to check


SPARE = "P3 M1 FAM 0/10/50 300 1100.0 30 20 AAA NULL\n#"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    unavailable_from=st.one_of(st.none(), st.integers(9, 16)),
    slacks=st.lists(st.integers(0, 240), min_size=8, max_size=8),
    seed=st.integers(0, 1000),
)
def test_no_plan_retimes_a_leg_past_its_crews_slack(tmp_path_factory, unavailable_from, slacks, seed):
    """Each tail's rotation is flown by one crew; P1 grounded from some hour forces delays, swaps or cancellations.
    The constructed plan and the solver's result keep every operated leg within its slack."""
    overrides = {"aircraft.csv": FILES["aircraft.csv"].replace("#", SPARE)}
    if unavailable_from is not None:
        overrides["alt_aircraft.csv"] = (
            f"P1 01/01/09 {unavailable_from:02d}:00 01/01/09 {unavailable_from + 3:02d}:00\n#"
        )
    base = tiny_instance(tmp_path_factory.mktemp("tiny"), **overrides)
    slacks[1] = max(slacks[1], 30)  # 102 carries an imposed 30-minute delay: its crew is legal for it
    crews = (
        _pairing("P1", (101, 102, 103, 104), "AAA", tuple(slacks[:4])),
        _pairing("P2", (201, 202, 203, 204), "BBB", tuple(slacks[4:])),
    )
    instance = base.model_copy(update={"crews": crews})
    net = build_network(instance)
    plan = construct(net, Weights(), list(instance.aircraft))
    slack = {(p.legs[i].number, 0): p.slack[i] for p in crews for i in range(4)}
    for f in net.flights:
        if plan.aircraft_of[f.idx] is not None and f.status == "free":
            assert plan.departure[f.idx] - f.planned_departure <= slack[(f.number, f.day)]
    try:
        solution, result = solve(instance, 0.3, seed=seed)
    except NoFeasibleSolution:
        return  # every crew-legal construction failed the checker: refused, never returned broken
    assert result.feasible
    for f in solution.flights:
        if f.aircraft is not None and f.number in instance.flights:  # a ferry (new flight) carries no pairing
            assert f.departure - (instance.flights[f.number].departure) <= slack[(f.number, f.day)]


def _member(crew_id: str) -> CrewMember:
    return CrewMember(crew_id=crew_id, name=crew_id, rank="CA", base="AUH", type_ratings=["A320"])


@settings(max_examples=25, deadline=None)
@given(
    blocks=st.lists(st.integers(60, 720), min_size=1, max_size=4),
    rest_before=st.lists(st.integers(8 * 60, 20 * 60), min_size=1, max_size=4),
)
def test_a_crews_slack_is_the_tightest_members_latest_legal_delay(blocks, rest_before):
    """Members flying the same leg, each with a different duty before it: the pairing's slack is the smallest
    of the rules' own `latest_legal_delay`, and the scorecard's check agrees on both sides of it."""
    f = row_builders.flight("EY1", "AUH", "LHR", utc(2027, 1, 20, 6), min(blocks), "A6-AAA", "A320", flight_id="F")
    crews = []
    for i, (block, rest) in enumerate(zip(blocks, rest_before)):
        cid = f"C{i}"
        before = row_builders.flight(
            "EY9",
            "LHR",
            "AUH",
            f.scheduled_departure - timedelta(minutes=75 + rest + 30 + block),
            block,
            "A6-BBB",
            "A320",
        )
        before = before.model_copy(update={"flight_id": f"B{i}"})
        roster = [
            row_builders.flight_duty(cid, before, duty_id=f"D0-{cid}", aircraft_type="A320"),
            row_builders.flight_duty(cid, f, duty_id=f"D1-{cid}", aircraft_type="A320", block_minutes=f.block_minutes),
        ]
        crews.append((_member(cid), roster))
    slack, _ = joint_slack(crews, "F")
    expected = []
    for member, roster in crews:
        latest = latest_legal_delay(member, roster, rostered_duty(roster, "F"), horizon_minutes=HORIZON_MINUTES)
        expected.append(0 if latest is None else latest)
    assert slack == min(expected)
    members, rosters = [m for m, _ in crews], {m.crew_id: r for m, r in crews}
    if min(expected) > 0:
        assert all(c.legal for c in flight_crew_legality("F", members, rosters, slack))
    if slack < HORIZON_MINUTES:
        assert not all(c.legal for c in flight_crew_legality("F", members, rosters, slack + 1))
