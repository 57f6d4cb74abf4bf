"""A network plan as a ranked scenario: each row of the per-flight table becomes the typed actions Execute applies,
and a plan better on every criterion ranks above the other (pure: hand-built plans, no data)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.arbitration.plans.network import flight_actions, network_scenario, rank_network, with_contacts
from skymarshal.arbitration.ranking import RankingWeights
from skymarshal.models.network_plan import (
    CrewChange,
    FlightAction,
    NetworkPlan,
    PlanTotals,
    ValidatedNetworkPlan,
)
from skymarshal.workflow.models import ApprovalDecision

T0 = datetime(2027, 1, 22, 14, tzinfo=UTC)


def row(action: str = "retime", delay: int = 30, **extra) -> FlightAction:
    operated = action != "cancel"
    values = {
        "flight_id": "EY1-20270122",
        "flight_number": "EY1",
        "origin": "AUH",
        "destination": "LHR",
        "action": action,
        "scheduled_departure": T0,
        "scheduled_arrival": T0 + timedelta(hours=7),
        "new_departure": T0 + timedelta(minutes=delay) if operated else None,
        "new_arrival": T0 + timedelta(hours=7, minutes=delay) if operated else None,
        "delay_minutes": delay if operated else 0,
        "registration": "A6-AAA",
        "new_registration": "A6-AAA" if operated else None,
        "aircraft_type": "B787-9",
        "passengers": 200,
    }
    return FlightAction(**{**values, **extra})


def totals(cost: float = 1000.0, delay: int = 30, cancellations: int = 0, reaccommodated: int = 0) -> PlanTotals:
    return PlanTotals(
        flights=1,
        operated=1 - cancellations,
        delay_minutes=delay,
        max_delay_minutes=delay,
        cancellations=cancellations,
        tail_swaps=0,
        ferries=0,
        reserves_called=0,
        passengers_affected=200,
        passengers_reaccommodated=reaccommodated,
        passengers_stranded_overnight=0,
        misconnections=0,
        passenger_minutes=(200 - reaccommodated) * delay,  # as network.totals.measure counts the operated flight
        cost_usd=cost,
    )


def test_a_retimed_swapped_recrewed_row_becomes_swap_delay_and_crew_actions():
    change = CrewChange(rank="CPT", replaced="C1", reserve="R9", report_at=T0 - timedelta(minutes=30), reason="FDP")
    actions = flight_actions(row(new_registration="A6-BBB", crew_changes=[change]))
    assert [a.kind for a in actions] == ["swap_aircraft", "delay", "reassign_crew"]
    swap, delay, crew = actions
    assert (swap.from_registration, swap.to_registration) == ("A6-AAA", "A6-BBB")
    assert delay.delay_minutes == 30 and delay.new_departure == T0 + timedelta(minutes=30)
    assert crew.replacements == {"C1": "R9"} and crew.report_at == change.report_at


def test_a_cancelled_row_cancels_and_rebooks_where_the_totals_found_seats_the_rest_interline():
    cancel, rebook = flight_actions(row("cancel", rebooked_onto={"EY3-20270122": 150}, reason="closure"))
    assert cancel.kind == "cancel" and cancel.reason == "closure"
    assert rebook.onto == {"EY3-20270122": 150} and rebook.interline == 50 and rebook.passengers == 200


def test_an_unchanged_row_needs_no_action():
    assert flight_actions(row("operate", delay=0)) == []


def test_the_scenario_carries_every_rows_actions_and_the_plans_id():
    plan = NetworkPlan(
        plan_id="network:min_delay",
        objective="min_delay",
        title="Least delay",
        actions=[row(), row("cancel", flight_id="EY2-20270122")],
        totals=totals(cancellations=1),
    )
    scenario = network_scenario(plan)
    assert scenario.scenario_id == "network:min_delay" and scenario.sources == ["network"]
    assert [(a.kind, a.flight_id) for a in scenario.actions] == [
        ("delay", "EY1-20270122"),
        ("cancel", "EY2-20270122"),
        ("rebook", "EY2-20270122"),
        ("reposition", "EY1-20270122"),  # where each touched tail ends up (AircraftAvailability), last
    ]
    assert scenario.actions[-1].registrations == sorted({a.registration for a in plan.actions})
    assert scenario.kind == "cancel"  # as many cancellations as moved flights


def test_exclude_needs_each_flight_with_a_reason():
    ok = ApprovalDecision(action="exclude", excluded_flights={"EY1-20270122": "slot kept"}, decided_by="D")
    assert ok.excluded_flights == {"EY1-20270122": "slot kept"}
    for flights in ({}, {"EY1-20270122": "  "}):
        try:
            ApprovalDecision(action="exclude", excluded_flights=flights, decided_by="D")
        except ValueError as exc:
            assert "exclude needs" in str(exc)
        else:
            raise AssertionError(f"accepted {flights}")


amounts = st.integers(min_value=0, max_value=10_000)


@given(cost=amounts, delay=st.integers(0, 600), extra_cost=st.integers(1, 10_000), extra_delay=st.integers(1, 600))
def test_a_plan_better_on_every_criterion_ranks_first(cost, delay, extra_cost, extra_delay):
    def plan(pid: str, c: float, d: int) -> ValidatedNetworkPlan:
        p = NetworkPlan(
            plan_id=pid, objective="min_delay", title=pid, actions=[row(delay=d)], totals=totals(cost=c, delay=d)
        )
        return ValidatedNetworkPlan(plan=p, flights_checked=1, checks=1, rejections=[])

    better = plan("network:b", cost, delay)
    worse = plan("network:a", cost + extra_cost, delay + extra_delay)
    ranked = rank_network([worse, better], RankingWeights())
    assert [r.scenario.scenario_id for r in ranked] == ["network:b", "network:a"]
    assert ranked[0].score > ranked[1].score and 0 <= ranked[1].confidence <= ranked[0].confidence <= 1


def test_the_plan_calling_fewer_crew_ranks_first_when_all_else_is_equal():
    """Its totals count the crew to call (contacts.py): those of a flight it retimes 30 min or more, once each."""
    roster = {"EY1-20270122": [f"C{i}" for i in range(12)], "EY2-20270122": ["C1", "C2"]}

    def plan(pid: str, flight: str) -> NetworkPlan:
        p = NetworkPlan(
            plan_id=pid,
            objective="min_delay",
            title=pid,
            actions=[row(delay=45, flight_id=flight, flight_number=flight.split("-")[0])],
            totals=totals(delay=45),
        )
        return with_contacts(p, lambda fid: roster.get(fid, []))

    busy, quiet = plan("network:a", "EY1-20270122"), plan("network:b", "EY2-20270122")
    assert (busy.totals.crew_to_contact, quiet.totals.crew_to_contact) == (12, 2)
    valid = [ValidatedNetworkPlan(plan=p, flights_checked=1, checks=1, rejections=[]) for p in (busy, quiet)]
    ranked = rank_network(valid, RankingWeights())
    assert [r.scenario.scenario_id for r in ranked] == ["network:b", "network:a"]  # not the ids' order
    assert ranked[0].scenario.crew_to_contact == 2 and ranked[0].score > ranked[1].score
    on_time = NetworkPlan(
        plan_id="network:d", objective="min_delay", title="d", actions=[row(delay=20)], totals=totals(delay=20)
    )
    assert with_contacts(on_time, lambda fid: roster[fid]).totals.crew_to_contact == 0  # under 30 min: no call


def test_between_plans_that_score_alike_waiting_ranks_first_and_the_baseline_last():
    def plan(objective: str) -> ValidatedNetworkPlan:
        p = NetworkPlan(
            plan_id=f"network:{objective}", objective=objective, title=objective, actions=[row()], totals=totals()
        )
        return ValidatedNetworkPlan(plan=p, flights_checked=1, checks=1, rejections=[])

    ranked = rank_network([plan("baseline"), plan("min_delay"), plan("hold")], RankingWeights())
    assert [r.scenario.scenario_id for r in ranked] == ["network:hold", "network:min_delay", "network:baseline"]
