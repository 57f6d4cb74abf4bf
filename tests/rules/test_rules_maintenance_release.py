"""Estimated release to service from work orders and the maintenance roster."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from ops_rows import engineer, mel_item, shift, utc, work_order

from skymarshal.rules.maintenance_release import (
    MaintenanceConfig,
    ReleaseBlocker,
    estimate_release,
    grounding_work_orders,
    schedule_work_order,
    tail_swap_eligibility,
)

AT = utc(2027, 1, 20, 9)
E1, E2 = engineer("E1"), engineer("E2")


def test_parts_then_one_shift_gives_parts_time_plus_labour():
    order = work_order(parts=utc(2027, 1, 20, 11, 40), labour=5.5)
    result = estimate_release("A6-BLA", [order], [E1], [shift("E1", utc(2027, 1, 20, 10))], AT)
    assert result.grounded and result.release_at == utc(2027, 1, 20, 17, 10)
    (task,) = result.tasks
    assert task.start == task.earliest_start == utc(2027, 1, 20, 11, 40)
    assert [s.staff_ids for s in task.segments] == [("E1",)]
    assert [f.rule for f in result.findings] == ["mnt.aog", "mnt.release"]


def test_parts_arriving_after_the_shift_ends_wait_for_the_next_authorised_shift():
    order = work_order(parts=utc(2027, 1, 20, 18, 30), labour=5.5)
    shifts = [shift("E1", utc(2027, 1, 20, 10)), shift("E1", utc(2027, 1, 21, 10))]
    result = estimate_release("A6-BLA", [order], [E1], shifts, AT)
    assert result.tasks[0].earliest_start == utc(2027, 1, 20, 18, 30)
    assert result.tasks[0].start == utc(2027, 1, 21, 10)
    assert result.release_at == utc(2027, 1, 21, 15, 30)


def test_work_continues_across_consecutive_shifts_of_different_engineers():
    order = work_order(parts=utc(2027, 1, 20, 15), labour=5.5)
    shifts = [shift("E1", utc(2027, 1, 20, 10)), shift("E2", utc(2027, 1, 20, 18))]
    result = estimate_release("A6-BLA", [order], [E1, E2], shifts, AT)
    assert result.release_at == utc(2027, 1, 20, 20, 30)
    segments = result.tasks[0].segments
    assert [(s.staff_ids, s.engineer_hours) for s in segments] == [(("E1",), 3.0), (("E2",), 2.5)]


def test_work_pauses_while_nobody_authorised_is_on_shift():
    order = work_order(parts=utc(2027, 1, 20, 16), labour=4)
    shifts = [shift("E1", utc(2027, 1, 20, 10)), shift("E1", utc(2027, 1, 20, 22))]
    assert estimate_release("A6-BLA", [order], [E1], shifts, AT).release_at == utc(2027, 1, 21, 0, 0)


def test_a_team_of_two_halves_the_elapsed_time_when_two_are_on():
    order = work_order(parts=utc(2027, 1, 20, 11), labour=5)
    shifts = [shift("E1", utc(2027, 1, 20, 10)), shift("E2", utc(2027, 1, 20, 10))]
    two = estimate_release("A6-BLA", [order], [E1, E2], shifts, AT, config=MaintenanceConfig(team_size=2))
    one = estimate_release("A6-BLA", [order], [E1, E2], shifts, AT)
    assert two.release_at == utc(2027, 1, 20, 13, 30) and one.release_at == utc(2027, 1, 20, 16)
    assert two.tasks[0].segments[0].staff_ids == ("E1", "E2")


@pytest.mark.parametrize(
    "engineers, shifts",
    [
        ([engineer("E1", auth=("B1-A320",))], [shift("E1", utc(2027, 1, 20, 10))]),  # not authorised on the type
        ([E1], [shift("E1", utc(2027, 1, 20, 10), station="FRA")]),  # authorised, wrong station
        ([E1], [shift("E1", utc(2027, 1, 24, 10))]),  # beyond the 72 h horizon
        ([E1], []),
    ],
)
def test_no_authorised_engineer_in_the_horizon_is_a_typed_blocker(engineers, shifts):
    result = estimate_release("A6-BLA", [work_order()], engineers, shifts, AT)
    assert result.release_at is None and result.blocker.code == "NO_AUTHORISED_ENGINEER"
    assert result.blocker.work_order_id == "WO-1"
    assert result.findings[-1].rule == "mnt.release" and result.findings[-1].status == "illegal"


def test_horizon_too_short_when_shifts_exist_but_do_not_cover_the_labour():
    order = work_order(parts=utc(2027, 1, 20, 10), labour=30)
    shifts = [shift("E1", utc(2027, 1, 20, 10) + timedelta(days=d)) for d in range(3)]
    result = estimate_release("A6-BLA", [order], [E1], shifts, AT)
    assert result.blocker.code == "HORIZON_TOO_SHORT"
    longer = estimate_release(
        "A6-BLA",
        [order],
        [E1],
        shifts + [shift("E1", utc(2027, 1, 23, 3))],
        AT,
        config=MaintenanceConfig(horizon_hours=96),
    )
    assert longer.release_at == utc(2027, 1, 23, 9)


@pytest.mark.parametrize(
    "kw, code",
    [({"parts": None}, "PARTS_UNKNOWN"), ({"labour": 0}, "LABOUR_UNKNOWN"), ({"auth": None}, "AUTHORISATION_UNKNOWN")],
)
def test_missing_data_is_a_typed_blocker(kw, code):
    result = estimate_release("A6-BLA", [work_order(**kw)], [E1], [shift("E1", utc(2027, 1, 20, 10))], AT)
    assert isinstance(result.blocker, ReleaseBlocker) and result.blocker.code == code and result.release_at is None


def test_parts_unknown_can_be_assumed_on_hand():
    order = work_order(parts=None, labour=2)
    result = estimate_release(
        "A6-BLA",
        [order],
        [E1],
        [shift("E1", utc(2027, 1, 20, 10))],
        AT,
        config=MaintenanceConfig(assume_parts_on_hand_when_unknown=True),
    )
    assert result.release_at == utc(2027, 1, 20, 12)


def test_an_airworthy_aircraft_is_released_now():
    order = work_order(aog=False, mel=mel_item("C"))
    result = estimate_release("A6-BLA", [order], [E1], [], AT)
    assert not result.grounded and result.release_at == AT and result.tasks == ()


def test_two_grounding_orders_are_worked_one_after_the_other():
    orders = [
        work_order("WO-2", parts=utc(2027, 1, 20, 12), labour=2),
        work_order("WO-1", parts=utc(2027, 1, 20, 11), labour=2),
    ]
    result = estimate_release("A6-BLA", orders, [E1], [shift("E1", utc(2027, 1, 20, 10), hours=12)], AT)
    assert [t.work_order_id for t in result.tasks] == ["WO-1", "WO-2"]
    assert result.tasks[1].start == utc(2027, 1, 20, 13) and result.release_at == utc(2027, 1, 20, 15)


def test_a_mel_item_running_out_during_the_work_is_added_to_it():
    aog = work_order("WO-1", parts=utc(2027, 1, 20, 11), labour=16)  # one 8 h shift a day: done the next day
    expiring = work_order(
        "WO-2", aog=False, mel=mel_item("B", discovered=date(2027, 1, 17)), labour=1, parts=utc(2027, 1, 20, 9)
    )  # runs out 2027-01-21 00:00Z
    shifts = [shift("E1", utc(2027, 1, 20, 10) + timedelta(days=d)) for d in range(3)]
    assert [o.work_order_id for o in grounding_work_orders([aog, expiring], AT)] == ["WO-1"]
    result = estimate_release("A6-BLA", [aog, expiring], [E1], shifts, AT)
    assert [t.work_order_id for t in result.tasks] == ["WO-1", "WO-2"]
    assert result.tasks[0].end == utc(2027, 1, 22, 11) and result.release_at == utc(2027, 1, 22, 12)


def test_an_expired_mel_item_without_parts_data_blocks_the_estimate():
    expired = work_order("WO-9", aog=False, mel=mel_item("B", discovered=date(2027, 1, 15)), parts=None)
    result = estimate_release("A6-BLA", [expired], [E1], [shift("E1", utc(2027, 1, 20, 10))], AT)
    assert result.grounded and result.blocker.code == "PARTS_UNKNOWN" and result.blocker.work_order_id == "WO-9"


@pytest.mark.parametrize(
    "needed_by, status, margin",
    [
        (utc(2027, 1, 20, 17, 10), "at_risk", 0),
        (utc(2027, 1, 20, 19), "legal", 110),
        (utc(2027, 1, 20, 17), "illegal", -10),
    ],
)
def test_release_against_the_time_it_is_needed(needed_by, status, margin):
    order = work_order(parts=utc(2027, 1, 20, 11, 40))
    result = estimate_release("A6-BLA", [order], [E1], [shift("E1", utc(2027, 1, 20, 10))], AT, needed_by=needed_by)
    finding = result.findings[-1]
    assert (finding.status, finding.margin_minutes, finding.binding) == (status, margin, False)


def test_schedule_respects_the_not_before_time():
    task = schedule_work_order(
        work_order(parts=utc(2027, 1, 20, 11), labour=1),
        [E1],
        [shift("E1", utc(2027, 1, 20, 10))],
        utc(2027, 1, 20, 14),
    )
    assert task.start == utc(2027, 1, 20, 14) and task.end == utc(2027, 1, 20, 15)


def test_real_ey123_hydraulic_aog_release_from_the_roster(ops):
    flight = ops.flight("EY123", date(2027, 1, 20))
    orders = ops.work_orders(flight.aircraft_registration)
    result = estimate_release(
        flight.aircraft_registration,
        orders,
        ops.engineers,
        ops.shifts,
        flight.scheduled_departure,
        needed_by=flight.scheduled_departure,
    )
    (aog,) = [o for o in orders if o.aog]
    (task,) = result.tasks
    assert task.work_order_id == aog.work_order_id and task.start == aog.parts_available_at
    assert result.release_at == aog.parts_available_at + timedelta(hours=aog.estimated_labour_hours)
    assert result.release_at == utc(2027, 1, 20, 17, 10)
    on = {e.staff_id for e in ops.engineers if aog.required_authorisation in e.authorisations}
    assert set(task.segments[0].staff_ids) <= on
    assert result.findings[-1].status == "illegal" and result.findings[-1].margin_minutes == -405


def test_real_ey123_exactly_one_of_the_two_b789_spares_can_take_it(ops):
    flight = ops.flight("EY123", date(2027, 1, 20))
    spares = [d for d in ops.aircraft_days(flight.flight_date) if d.status == "SPARE" and d.aircraft_type == "B789"]
    assert len(spares) == 2
    results = {
        d.aircraft_registration: tail_swap_eligibility(
            d,
            ops.work_orders(d.aircraft_registration),
            ops.rotation(d.aircraft_registration),
            flight,
            flight.scheduled_departure - timedelta(hours=1),
        )
        for d in spares
    }
    eligible = [r for r in results.values() if r.eligible]
    refused = [r for r in results.values() if not r.eligible]
    assert len(eligible) == 1 and len(refused) == 1
    assert [r.code for r in refused[0].refusals] == ["NOT_AIRWORTHY"]
    expired = [f for f in refused[0].findings if f.rule == "mnt.mel_interval"]
    assert expired and expired[0].status == "illegal" and expired[0].details["category"] == "B"
    assert eligible[0].cabin_plan.fits and eligible[0].station == "AUH"
