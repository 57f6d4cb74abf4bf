"""Tail swap eligibility: typed refusals and notes."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from ops_rows import aircraft_day, flight, mel_item, utc, work_order

from skymarshal.rules.tail_swap import rank_tail_swaps, tail_swap_eligibility
from skymarshal.rules.tail_swap_checks import cabin_plan
from skymarshal.rules.tail_swap_models import SwapConfig

DEP = utc(2027, 1, 20, 10)
AT = utc(2027, 1, 20, 8)
EY123 = flight(dep=DEP, reg="A6-BLQ", booked={"J": 20, "Y": 200})


def own(number: str, origin: str, destination: str, dep, block: int = 120, reg: str = "A6-BLT", **kw):
    return flight(number=number, origin=origin, destination=destination, dep=dep, block=block, reg=reg, **kw)


def codes(result):
    return [r.code for r in result.refusals]


def test_an_airworthy_spare_at_the_station_is_eligible():
    result = tail_swap_eligibility(aircraft_day(), [], [], EY123, AT)
    assert result.eligible and result.refusals == () and result.ready_at is None
    assert {f.rule: f.status for f in result.findings} == {
        "fleet.swap_type": "legal",
        "fleet.swap_range": "legal",
        "fleet.swap_position": "legal",
        "fleet.swap_capacity": "legal",
    }


def test_arriving_exactly_at_departure_minus_min_turn_is_eligible_at_risk():
    inbound = own("EY400", "BAH", "AUH", DEP - timedelta(minutes=75 + 120), block=120)  # B789 min turn 75
    result = tail_swap_eligibility(aircraft_day(), [], [inbound], EY123, AT)
    assert result.eligible and result.turn_margin_minutes == 0 and result.ready_at == DEP
    position = next(f for f in result.findings if f.rule == "fleet.swap_position")
    assert position.status == "at_risk" and position.margin_minutes == 0


def test_one_minute_later_is_not_ready_in_time():
    inbound = own("EY400", "BAH", "AUH", DEP - timedelta(minutes=75 + 120 - 1), block=120)
    result = tail_swap_eligibility(aircraft_day(), [], [inbound], EY123, AT)
    assert codes(result) == ["NOT_READY_IN_TIME"] and result.turn_margin_minutes == -1


def test_an_aircraft_elsewhere_is_at_the_wrong_station():
    assert codes(tail_swap_eligibility(aircraft_day(station="DXB"), [], [], EY123, AT)) == ["WRONG_STATION"]
    away = own("EY401", "AUH", "BAH", DEP - timedelta(hours=3))
    result = tail_swap_eligibility(aircraft_day(), [], [away], EY123, AT - timedelta(hours=4))
    assert codes(result) == ["WRONG_STATION"] and result.station == "BAH"


def test_an_incompatible_type_is_refused_with_a_binding_finding():
    result = tail_swap_eligibility(aircraft_day(reg="A6-EIK", type_code="A320"), [], [], EY123, AT)
    assert "TYPE_INCOMPATIBLE" in codes(result)
    finding = next(f for f in result.findings if f.rule == "fleet.swap_type")
    assert finding.binding and finding.status == "illegal"


def test_a_compatible_variant_is_eligible_with_notes():
    result = tail_swap_eligibility(aircraft_day(reg="A6-BMJ", type_code="B78X"), [], [], EY123, AT)
    assert result.eligible
    assert [n.code for n in result.notes] == ["DIFFERENT_TYPE", "EXTRA_CABIN_CREW"]


def test_range_short_of_the_distance_is_refused():
    long_a321 = flight(number="EY301", type_code="A321", distance_km=5600, booked={"J": 4, "Y": 100})
    result = tail_swap_eligibility(aircraft_day(reg="A6-EJQ", type_code="A321"), [], [], long_a321, AT)
    assert codes(result) == ["OUT_OF_RANGE"]
    finding = next(f for f in result.findings if f.rule == "fleet.swap_range")
    assert (finding.limit, finding.actual, finding.binding) == (5500, 5600, True)


def test_an_expired_mel_item_makes_it_not_airworthy():
    expired = work_order("WO-9", "A6-BLT", aog=False, mel=mel_item("B", discovered=date(2027, 1, 15)))
    result = tail_swap_eligibility(aircraft_day(), [expired], [], EY123, AT)
    assert codes(result) == ["NOT_AIRWORTHY"]
    assert any(f.rule == "mnt.mel_interval" and f.binding for f in result.findings)


def test_mel_restrictions_are_noted():
    deferred = work_order("WO-8", "A6-BLT", aog=False, mel=mel_item("C", restrictions=["ALT_LIMIT_FL310"]))
    result = tail_swap_eligibility(aircraft_day(), [deferred], [], EY123, AT)
    assert result.eligible and [n.code for n in result.notes] == ["MEL_RESTRICTIONS"]


def test_own_flights_in_the_way_are_refused_or_listed_to_give_up():
    mine = own("EY500", "AUH", "BAH", DEP + timedelta(hours=2))
    refused = tail_swap_eligibility(aircraft_day(), [], [mine], EY123, AT)
    assert codes(refused) == ["CONFLICTING_FLIGHTS"] and refused.flights_to_give_up == (mine.flight_id,)
    allowed = tail_swap_eligibility(
        aircraft_day(), [], [mine], EY123, AT, config=SwapConfig(allow_giving_up_flights=True)
    )
    assert allowed.eligible and allowed.flights_to_give_up == (mine.flight_id,)
    assert "GIVES_UP_FLIGHTS" in [n.code for n in allowed.notes]


def test_a_later_flight_from_elsewhere_is_a_continuity_note():
    later = own("EY502", "AUH", "BAH", DEP + timedelta(hours=12))
    result = tail_swap_eligibility(aircraft_day(), [], [later], EY123, AT)
    assert result.eligible and [n.code for n in result.notes] == ["CONTINUITY_BREAK"]


@pytest.mark.parametrize("status", ["AOG", "MAINTENANCE"])
def test_an_unavailable_row_is_refused(status):
    assert codes(tail_swap_eligibility(aircraft_day(status=status), [], [], EY123, AT)) == ["UNAVAILABLE"]


def test_the_same_aircraft_is_not_a_swap():
    assert codes(tail_swap_eligibility(aircraft_day(reg="A6-BLQ"), [], [], EY123, AT)) == ["SAME_AIRCRAFT"]


def test_a_smaller_variant_gives_typed_downgrade_and_offload_notes():
    big = flight(number="EY85", type_code="B78X", booked={"J": 32, "Y": 280})
    result = tail_swap_eligibility(aircraft_day(), [], [], big, AT)
    assert result.eligible
    assert result.cabin_plan.downgraded == {} and result.cabin_plan.offloaded == 13  # Y 280 on 271, J full
    assert [n.code for n in result.notes] == ["DIFFERENT_TYPE", "OFFLOAD"]
    assert next(f for f in result.findings if f.rule == "fleet.swap_capacity").status == "at_risk"


def test_cabin_plan_downgrades_upgrades_and_offloads():
    assert cabin_plan({"J": 32, "Y": 200}, {"J": 28, "Y": 271}).downgraded == {"J>Y": 4}
    plan = cabin_plan({"J": 4, "Y": 150}, {"J": 8, "Y": 128})
    assert plan.upgraded == {"Y>J": 4} and plan.offloaded == 18
    plan = cabin_plan({"F": 8, "J": 40, "Y": 280}, {"J": 44, "Y": 323})
    assert plan.downgraded == {"F>J": 4, "F>Y": 4} and plan.offloaded == 0


def test_rank_prefers_same_type_then_margin():
    same = tail_swap_eligibility(aircraft_day(), [], [], EY123, AT)
    variant = tail_swap_eligibility(aircraft_day(reg="A6-BMJ", type_code="B78X"), [], [], EY123, AT)
    refused = tail_swap_eligibility(aircraft_day(reg="A6-EIK", type_code="A320"), [], [], EY123, AT)
    assert [r.registration for r in rank_tail_swaps([variant, refused, same])] == ["A6-BLT", "A6-BMJ"]


def test_real_ey123_candidates_ranked_and_every_refusal_typed(ops):
    flight_row = ops.flight("EY123", date(2027, 1, 20))
    results = [
        tail_swap_eligibility(
            d,
            ops.work_orders(d.aircraft_registration),
            ops.rotation(d.aircraft_registration),
            flight_row,
            flight_row.scheduled_departure - timedelta(hours=1),
        )
        for d in ops.aircraft_days(flight_row.flight_date)
    ]
    ranked = rank_tail_swaps(results)
    assert ranked and ranked[0].aircraft_type == "B789" and ranked[0].eligible
    for r in results:
        assert r.eligible == (not r.refusals)
        if r.aircraft_type not in ("B789", "B78X"):
            assert "TYPE_INCOMPATIBLE" in [x.code for x in r.refusals]
