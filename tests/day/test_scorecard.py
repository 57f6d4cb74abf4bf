"""The day's scorecard on a small hand-built table state: an AOG holding a tail, the knock-on through its
rotation, a connection missed at the hub, and the baselines' own tables."""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest
from day_rows import F1, F2, F7, booking, flight, state, utc
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.day.baselines import cancel, run_baseline
from skymarshal.day.realize import realize
from skymarshal.day.scorecard import score
from skymarshal.day.stream import StreamEvent
from skymarshal.rules import finance
from skymarshal.rules.finance import STRANDED_MINUTES

DAY = date(2027, 1, 20)


def aog(until_hour: int = 12, minute: int = 0) -> StreamEvent:
    return StreamEvent(
        event_id="E1",
        at=utc(2027, 1, 20, 8),
        holds="tail",
        family="technical",
        code=41,
        cause="technical",
        history_type="mechanical",
        flight_id="F1",
        flight_number="EY21",
        flight_date=DAY,
        registration="A6-BLA",
        start=utc(2027, 1, 20, 8),
        end=utc(2027, 1, 20, until_hour, minute),
        report="EY21 AOG hydraulics",
    )


def test_a_quiet_day_is_all_on_time():
    card = score("none", state(), [], [DAY])
    assert (card.d15, card.a15, card.cancellations, card.passenger_delay_minutes, card.misconnections) == (
        1.0,
        1.0,
        0,
        0,
        0,
    )


def test_the_aog_delays_its_flight_and_the_tails_next_one_and_breaks_a_connection():
    card = score("delay", state(), [aog()], [DAY])
    timings = realize(state(), [aog()])
    assert timings["F1"].delay(F1) == 120  # released at 12:00
    assert timings["F2"].delay(F2) == 105  # F1 lands 18:00, + the B789's 75-minute turn
    assert (card.flights, card.d15, card.a15, card.cancellations) == (2, 0.0, 0.0, 0)
    assert card.misconnections == 1  # F2 lands 01:15, F6 left at 00:45: the next AUH-BOM is F7 at 10:00
    assert card.passenger_delay_minutes == 120 + 555
    assert card.passengers_disrupted == 2
    assert card.compensation_usd == 648.0  # EUR 600 (journey FRA-BOM, 9 h late, departing the EU) at 1.08
    assert card.rotation_breaks == 0


def test_cancel_first_cancels_the_rotation_and_strands_its_passengers():
    card = run_baseline("cancel-first", state(), [aog()], [DAY])
    assert card.cancellations == 2
    assert card.rotation_breaks == 0
    assert card.stranded_overnight == 2  # no later flight of either route in the data
    assert card.d15 == 1.0  # no operated flight of the day left: a cancellation is not a late departure


def test_greedy_takes_the_cheaper_of_waiting_and_cancelling():
    greedy = run_baseline("greedy", state(), [aog()], [DAY])
    wait, cancel = score("delay", state(), [aog()], [DAY]), run_baseline("cancel-first", state(), [aog()], [DAY])
    cost = {c.policy: c.operating_cost_usd + c.compensation_usd + c.care_usd for c in (greedy, wait, cancel)}
    assert cost["greedy"] == min(cost["delay"], cost["cancel-first"])


@given(minutes=st.integers(1, 900), longer_by=st.integers(0, 300))
@settings(max_examples=40, deadline=None)
def test_a_longer_hold_never_improves_the_day(minutes, longer_by):
    event = aog().model_copy(update={"end": utc(2027, 1, 20, 8) + timedelta(minutes=minutes)})
    longer = event.model_copy(update={"end": event.end + timedelta(minutes=longer_by)})
    a, b = score("delay", state(), [event], [DAY]), score("delay", state(), [longer], [DAY])
    assert b.passenger_delay_minutes >= a.passenger_delay_minutes
    assert b.d15 <= a.d15 and b.a15 <= a.a15
    assert b.misconnections >= a.misconnections


def test_a_passenger_rebooked_to_the_next_day_counts_the_day_and_the_night():
    tables = state()
    tables.flights["F1"] = F1.model_copy(update={"status": "CANCELLED"})
    tables.flights["F8"] = flight("F8", "EY21", "AUH", "FRA", utc(2027, 1, 21, 10), 360, "A6-BLE")
    tables.bookings[0] = tables.bookings[0].model_copy(update={"flight_id": "F8", "rebooked_from": "F1"})
    card = score("rebooked", tables, [], [DAY])
    assert card.cancellations == 1
    assert card.passenger_delay_minutes == 24 * 60  # P-001 arrives a day late; P-002's F2 leaves on time
    assert card.stranded_overnight == 1 and card.passengers_disrupted == 1


def test_a_later_days_flight_the_day_cancelled_counts_its_passengers_and_costs():
    tables = state()
    tables.bookings.append(booking("B4", "F7", "P-004", "BOM"))
    quiet = score("none", tables, [], [DAY])
    # a crew's next duty, the 21st, cancelled by a decision (a flight cancelled before the day is not the day's)
    tables.flights["F7"] = F7.model_copy(update={"status": "CANCELLED", "updated_by_execution": "run-1"})
    card = score("next duty cancelled", tables, [], [DAY])
    assert (quiet.later_flights_moved, quiet.passengers) == (0, 2)  # an untouched later flight is not the day's
    assert (card.cancellations, card.later_flights_moved, card.later_cancellations) == (0, 1, 1)
    assert (card.flights, card.d15) == (quiet.flights, quiet.d15)  # punctuality stays the day's flights'
    assert card.passengers == 3 and card.stranded_overnight == 1  # no later AUH-BOM in the data
    assert card.passenger_delay_minutes == STRANDED_MINUTES
    assert card.operating_cost_usd > quiet.operating_cost_usd and card.care_usd > quiet.care_usd


def test_an_evening_aog_late_into_the_next_morning_counts_the_morning_flight():
    late = aog(until_hour=23)  # F1 leaves at 23:00, lands 05:00; F2 follows at 06:15 on the 21st
    card = score("delay", state(), [late], [DAY])
    assert realize(state(), [late])["F2"].delay(F2) > 0
    assert card.later_flights_moved == 0  # F2 is the 20th's flight, late: counted in the day already
    tables = state()
    tables.flights["F7"] = F7.model_copy(update={"aircraft_registration": "A6-BLA"})  # F2's tail flies F7 next
    assert score("delay", tables, [late], [DAY]).later_flights_moved == 1
    assert score("none", tables, [], [DAY]).later_flights_moved == 0  # on time when nothing holds the 20th


def test_a_later_flight_late_only_as_the_tables_held_it_is_not_the_days():
    """F7 (the 21st) already estimated 3 h late before the day, no decision on it: no policy answers for it."""
    from day_rows import late as late_in_tables

    tables = state()
    tables.flights["F7"] = late_in_tables(F7, 180)
    assert realize(tables, [])["F7"].delay(F7) == 180
    assert score("none", tables, [], [DAY]).later_flights_moved == 0
    cancelled = state()
    cancelled.flights["F7"] = F7.model_copy(update={"status": "CANCELLED"})  # cancelled before the day
    assert score("none", cancelled, [], [DAY]).later_flights_moved == 0


def cut(start_hour: int, end_hour: int) -> StreamEvent:
    return StreamEvent(
        event_id="W1", at=utc(2027, 1, 20, 7), holds="station", family="weather", cause="weather",
        history_type="weather", station="AUH", start=utc(2027, 1, 20, start_hour), end=utc(2027, 1, 20, end_hour),
        report="Fog at AUH: rates cut by half",
    )  # fmt: skip


def test_a_capacity_cut_queues_movements_only_beyond_half_the_busiest_hour():
    tables = state()
    assert realize(tables, [cut(9, 12)])["F1"].delay(F1) == 0  # one departure an hour: half of it still serves it
    for fid, minute, tail in (("X1", 0, "A6-BLE"), ("X2", 10, "A6-BLF")):
        tables.flights[fid] = flight(fid, f"EY9{minute}", "AUH", "MCT", utc(2027, 1, 20, 10, minute), 60, tail)
    # 3 departures in the 10:00 hour: half of it floored, one an hour in the cut, each in the first clock hour with
    # a slot left (as the network planner's hold plan gives them: restriction_of's share, network.hold.Slots)
    timings = realize(tables, [cut(10, 13)])
    delays = {fid: timings[fid].delay(tables.flights[fid]) for fid in ("F1", "X1", "X2")}
    assert delays == {"F1": 0, "X1": 60, "X2": 110}


def test_a_flight_a_decision_delayed_into_the_window_queues_for_its_slot_there():
    """A regulation's slots go to the flights by their last filed movement (the network planner's hold plan walks
    them so, network.hold): one an earlier decision moved from 08:00 into the cut takes its place in the queue at
    10:05 — it does not leave at its estimate past flights the window caught as scheduled, and pushes the later ones."""
    tables = state()
    for fid, minute, tail in (("X1", 0, "A6-BLE"), ("X2", 10, "A6-BLF")):
        tables.flights[fid] = flight(fid, f"EY9{minute}", "AUH", "MCT", utc(2027, 1, 20, 10, minute), 60, tail)
    y1 = flight("Y1", "EY97", "AUH", "BAH", utc(2027, 1, 20, 8), 60, "A6-BLG")
    tables.flights["Y1"] = y1.model_copy(
        update={"estimated_departure": utc(2027, 1, 20, 10, 5), "estimated_arrival": utc(2027, 1, 20, 11, 5)}
    )
    timings = realize(tables, [cut(10, 13)])
    departures = {fid: timings[fid].departure for fid in ("F1", "X1", "Y1", "X2")}
    assert departures == {  # one slot an hour (half of three, floored), in filed order
        "F1": utc(2027, 1, 20, 10),
        "X1": utc(2027, 1, 20, 11),
        "Y1": utc(2027, 1, 20, 12),
        "X2": utc(2027, 1, 20, 13),
    }
    assert realize(tables, [])["Y1"].departure == utc(2027, 1, 20, 10, 5)


def test_a_cut_at_an_airport_declaring_its_rate_queues_our_flights_with_everybody_elses():
    """LHR declares 44 departures an hour (rules.slots): halved to 22, with 80 % of 44 scheduled by every airline,
    our one departure an hour after the window opens waits for its ration-by-schedule slot — as the network planner
    plans it — and one after the window waits for the backlog to clear."""
    tables = state()
    at_lhr = cut(10, 13).model_copy(update={"station": "LHR"})
    for fid, hour, minute, tail in (("L1", 11, 0, "A6-BLE"), ("L2", 13, 30, "A6-BLF")):
        tables.flights[fid] = flight(fid, f"EY1{hour}", "LHR", "AUH", utc(2027, 1, 20, hour, minute), 420, tail)
    timings = realize(tables, [at_lhr])
    delays = {fid: timings[fid].delay(tables.flights[fid]) for fid in ("L1", "L2")}
    demand = 0.8 * 44  # movements scheduled an hour, ours among them
    assert delays == {
        "L1": math.ceil(60 * demand / 22 - 60),
        "L2": math.ceil(180 + 60 * (3.5 * demand - 66) / 44 - 210),
    }
    assert realize(tables, [])["L1"].delay(tables.flights["L1"]) == 0


def test_a_flight_moved_to_its_slot_by_a_decision_does_not_queue_again():
    tables = state()
    for fid, minute, tail in (("X1", 0, "A6-BLE"), ("X2", 10, "A6-BLF")):
        tables.flights[fid] = flight(fid, f"EY9{minute}", "AUH", "MCT", utc(2027, 1, 20, 10, minute), 60, tail)
    x2 = tables.flights["X2"]
    for moved_by, flown in ((110, 110), (130, 130), (20, 110)):  # at its slot, past it, short of it
        tables.flights["X2"] = x2.model_copy(
            update={
                "estimated_departure": x2.scheduled_departure + timedelta(minutes=moved_by),
                "estimated_arrival": x2.scheduled_arrival + timedelta(minutes=moved_by),
            }
        )
        assert realize(tables, [cut(10, 13)])["X2"].delay(x2) == flown, moved_by


def test_a_closed_hub_reopens_at_its_busiest_hour_not_all_in_the_reopening_minute():
    """The movements a closure held leave in scheduled order at our busiest scheduled hour there (three departures
    in the 10:00 hour), each in the first clock hour from the reopening with a slot left, as the network planner's
    hold plan meters them; a flight a decision already moved to its slot waits no more."""
    tables = state()
    for fid, hour, minute, tail in (("X1", 10, 0, "A6-BLE"), ("X2", 10, 10, "A6-BLF"), ("X3", 11, 0, "A6-BLG"),
                                    ("X4", 11, 30, "A6-BLH")):  # fmt: skip
        tables.flights[fid] = flight(fid, f"EY9{fid[1]}", "AUH", "MCT", utc(2027, 1, 20, hour, minute), 60, tail)
    closed = cut(9, 12).model_copy(update={"closes": True, "report": "AUH closed by fog"})
    timings = realize(tables, [closed])
    delays = {fid: timings[fid].delay(tables.flights[fid]) for fid in ("F1", "X1", "X2", "X3", "X4")}
    assert delays == {"F1": 120, "X1": 120, "X2": 110, "X3": 120, "X4": 90}  # three at 12:00, two at 13:00
    x4 = tables.flights["X4"]
    for moved_by, flown in ((90, 90), (30, 90)):  # at its slot, short of it
        tables.flights["X4"] = x4.model_copy(
            update={
                "estimated_departure": x4.scheduled_departure + timedelta(minutes=moved_by),
                "estimated_arrival": x4.scheduled_arrival + timedelta(minutes=moved_by),
            }
        )
        assert realize(tables, [closed])["X4"].delay(x4) == flown, moved_by


def test_a_plan_delaying_a_flight_beyond_its_crews_duty_counts_against_the_plan():
    from day_rows import crew as crew_row

    from skymarshal.models.operational import CrewMember

    tables = state()
    tables.members = {"C1": CrewMember(crew_id="C1", name="A Pilot", rank="CPT", base="AUH", type_ratings=["B787"])}
    tables.rosters = {"C1": [crew_row("C1", F1)]}
    late = F1.model_copy(
        update={
            "estimated_departure": utc(2027, 1, 21, 2),
            "estimated_arrival": utc(2027, 1, 21, 8),
            "updated_by_execution": "run-1",
        }
    )  # 16 h late: the duty's FDP runs far past any limit
    tables.flights["F1"] = late
    card = score("late plan", tables, [], [DAY])
    assert card.crew_violations_decided == 1 and card.crew_violations >= 1
    on_time_plan = score("on time", state(), [aog(9)], [DAY])  # the cause's 60 min, no plan written
    assert on_time_plan.crew_violations_decided == 0


def test_cancelling_two_caught_flights_of_one_rotation_cancels_it_once():
    """A station window catching both legs of a there-and-back (AUH-FRA, FRA-AUH): the first leg's rotation takes
    the second with it, and the second, already cancelled, is not looked for among the tail's flying legs."""
    out = cancel(state(), [F1, F2], utc(2027, 1, 20, 8))
    assert {fid: out.flights[fid].status for fid in ("F1", "F2")} == {"F1": "CANCELLED", "F2": "CANCELLED"}


def test_a_tail_flying_from_where_it_is_not_is_a_rotation_break_named_in_one_line():
    broken = state()  # F1 AUH-FRA moved onto A6-BLD: its F7 then leaves AUH while the tail is at FRA
    broken.flights["F1"] = broken.flights["F1"].model_copy(update={"aircraft_registration": "A6-BLD"})
    card = score("none", broken, [], [DAY])
    assert card.rotation_breaks == len(card.rotation_break_notes) >= 1
    assert any("F7" in note and "A6-BLD" in note for note in card.rotation_break_notes), card.rotation_break_notes


def test_a_cancelled_flight_is_left_out_of_d15_and_counted_late_in_d15_of_the_scheduled_flights():
    held = [aog(12)]  # A6-BLA on the ground until 12:00: F1 (10:00) two hours late, F2 after it
    waited = score("wait", state(), held, [DAY])
    assert waited.d15_scheduled == waited.d15 < 1  # nothing cancelled: the two agree
    tables = state()
    tables.flights["F1"] = F1.model_copy(update={"status": "CANCELLED"})
    cancelled = score("cancel", tables, held, [DAY])
    assert (cancelled.d15, cancelled.d15_scheduled) == (1.0, 0.5)  # F2 on time; F1 gone, or late


def test_a_leg_a_decision_added_is_costed_by_its_block_minutes_and_is_no_scheduled_flight():
    """A rescue aircraft's ferry (an empty leg execution writes as a row of its own) costs the airline its block
    minutes; it carries nobody and was never scheduled, so the flight counts and D15 do not see it."""
    base = score("none", state(), [], [DAY])
    tables = state()
    ferry = flight("F1-FERRY", "EY21F", "MCT", "AUH", utc(2027, 1, 20, 5), 95, "A6-BLS")
    tables.flights[ferry.flight_id] = ferry
    tables.added_legs = frozenset({ferry.flight_id})
    rescued = score("rescue", tables, [], [DAY])
    assert (rescued.flights, rescued.d15, rescued.passengers) == (base.flights, base.d15, base.passengers)
    assert rescued.operating_cost_usd == pytest.approx(base.operating_cost_usd + finance.ferry_cost(95).amount_usd)
    assert finance.ferry_cost(95).amount_usd > 0
