"""The hindsight bound on the small hand-built day: the recovery optimizer over the whole day with every event
known, its plan applied to the tables and scored like any policy."""

from __future__ import annotations

from datetime import date, timedelta

from day_rows import F1, flight, state, utc
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.day.hindsight import BY, hand_over, hindsight_plan, run_hindsight, snapshot
from skymarshal.day.realize import DayState
from skymarshal.day.stream import StreamEvent
from skymarshal.recovery.adapter import to_instance

DAY = date(2027, 1, 20)


def aog(start_hour: int, hours: int) -> StreamEvent:
    start = utc(2027, 1, 20, start_hour)
    return StreamEvent(
        event_id="E1",
        at=start,
        holds="tail",
        family="technical",
        code=41,
        cause="technical",
        history_type="mechanical",
        flight_id="F1",
        flight_number="EY21",
        flight_date=DAY,
        registration="A6-BLA",
        start=start,
        end=start + timedelta(hours=hours),
        report="EY21 AOG hydraulics",
    )


def test_the_day_in_the_models_terms_grounds_the_tail_and_keeps_the_carriers_connection_time():
    instance = to_instance(snapshot(state(), [aog(8, 4)], DAY)).instance
    assert [(u.aircraft, u.start, u.end) for u in instance.unavailabilities] == [("A6-BLA", 8 * 60, 12 * 60)]
    assert instance.min_connection == 60  # the carrier's MCT, not the 2009 challenge's 30 minutes
    assert len(instance.flights) == 2  # the UTC day of the stream: F1 and F2 (F6, F7 leave on the 21st)


@given(start_hour=st.integers(0, 16), hours=st.integers(1, 10))
@settings(max_examples=12, deadline=None)
def test_the_plan_keeps_every_rotation_whole_and_never_leaves_early(start_hour, hours):
    events = [aog(start_hour, hours)]
    planned = hindsight_plan(state(), events, DAY, time_limit_s=0.2)
    card = run_hindsight(state(), events, DAY, time_limit_s=0.2)
    assert card.rotation_breaks == 0, card.rotation_break_notes
    assert card.policy == "hindsight" and card.decisions == 1
    for f in planned.flights.values():
        assert f.departure >= f.scheduled_departure
        assert f == state().flights[f.flight_id] or f.updated_by_execution == BY


def test_a_tail_ending_the_day_where_another_was_wanted_takes_that_tails_next_flights():
    """The plan flew A6-BLA to LHR and A6-BLB to FRA; tomorrow's FRA-AUH goes with A6-BLB, LHR-AUH with A6-BLA."""
    fra = flight("A1", "EY21", "AUH", "FRA", utc(2027, 1, 20, 10), 360, "A6-BLA")
    lhr = flight("B1", "EY11", "AUH", "LHR", utc(2027, 1, 20, 11), 420, "A6-BLB")
    fra_back = flight("A2", "EY22", "FRA", "AUH", utc(2027, 1, 21, 9), 360, "A6-BLA")
    lhr_back = flight("B2", "EY12", "LHR", "AUH", utc(2027, 1, 21, 9), 420, "A6-BLB")
    flights = {f.flight_id: f for f in (fra, lhr, fra_back, lhr_back)}
    planned = DayState(flights, [], {}, {}, {}, {k: f.aircraft_registration for k, f in flights.items()}, {})
    out = planned.copy()
    out.flights["A1"] = fra.model_copy(update={"aircraft_registration": "A6-BLB"})
    out.flights["B1"] = lhr.model_copy(update={"aircraft_registration": "A6-BLA"})
    hand_over(out, planned, DAY)
    assert out.flights["A2"].aircraft_registration == "A6-BLB"
    assert out.flights["B2"].aircraft_registration == "A6-BLA"


def test_a_tail_kept_on_its_own_flights_keeps_its_next_ones():
    out = state()
    hand_over(out, state(), DAY)
    assert {k: f.aircraft_registration for k, f in out.flights.items()} == state().original_tails
    assert out.flights["F1"] == F1


def test_a_tail_the_plan_leaves_away_from_its_next_flights_has_them_cancelled_until_one_leaves_where_it_is():
    """The plan cancelled A6-BLA's way home (FRA-AUH, say its crew could not fly the hold) and no tail of its type
    ends at AUH: tomorrow's AUH-BOM-AUH-FRA legs cannot be flown by a tail at FRA and are cancelled; FRA-AUH, leaving
    where it is, flies. Before, they stayed on it: the scorecard counted the rotation break and flew them anyway."""
    out_leg = flight("A1", "EY21", "AUH", "FRA", utc(2027, 1, 20, 10), 360, "A6-BLA")
    home = flight("A2", "EY22", "FRA", "AUH", utc(2027, 1, 20, 17, 30), 360, "A6-BLA")
    later = [
        flight("A3", "EY204", "AUH", "BOM", utc(2027, 1, 21, 6), 180, "A6-BLA"),
        flight("A4", "EY205", "BOM", "AUH", utc(2027, 1, 21, 11), 180, "A6-BLA"),
        flight("A5", "EY23", "AUH", "FRA", utc(2027, 1, 21, 16), 360, "A6-BLA"),
        flight("A6", "EY24", "FRA", "AUH", utc(2027, 1, 22, 1), 360, "A6-BLA"),
    ]
    flights = {f.flight_id: f for f in (out_leg, home, *later)}
    planned = DayState(flights, [], {}, {}, {}, {k: f.aircraft_registration for k, f in flights.items()}, {})
    out = planned.copy()
    out.flights["A2"] = home.model_copy(update={"status": "CANCELLED", "updated_by_execution": BY})
    hand_over(out, planned, DAY)
    assert {k for k, f in out.flights.items() if f.status == "CANCELLED"} == {"A2", "A3", "A4", "A5"}
    assert all(out.flights[k].updated_by_execution == BY for k in ("A3", "A4", "A5"))

    kept = planned.copy()  # the control: the tail flown home keeps every later flight
    hand_over(kept, planned, DAY)
    assert not any(f.status == "CANCELLED" for f in kept.flights.values())


@given(start_hour=st.integers(0, 16), hours=st.integers(1, 10))
@settings(max_examples=8, deadline=None)
def test_the_model_gap_puts_a_lower_bound_under_the_optimizers_plan(start_hour, hours):
    """The LP bound on the hindsight model's objective (day/hindsight_gap.py) is below the plan the optimizer kept,
    whatever the AOG; the tail grounded over F1's departure costs its passengers at least a wait or a swap."""
    gaps = []
    hindsight_plan(state(), [aog(start_hour, hours)], DAY, time_limit_s=0.2, on_gap=gaps.append)
    [gap] = gaps
    assert gap.bound is not None and gap.bound <= gap.cost + 1e-6
    assert gap.gap is None or gap.gap >= 0.0


def test_a_model_the_bound_refuses_is_one_line_not_a_traceback():
    """Negative weights break the bound's argument (lower_bound raises): the gap says so and claims no bound."""
    from skymarshal.day.hindsight_gap import model_gap

    instance = to_instance(snapshot(state(), [aog(8, 4)], DAY)).instance
    negative = instance.model_copy(update={"config": instance.config.model_copy(update={"alpha": -1.0})})
    gap = model_gap(negative, 100.0)
    assert gap.bound is None and gap.gap is None
    assert gap.line().startswith("hindsight model: plan 100, no lower bound: ") and "\n" not in gap.line()


def test_a_days_legs_start_the_search_on_the_tails_that_fly_them():
    """The optimizer's first plans (`_as_flown`) put each leg on the tail the day flies it with — a foresight day's
    spare on F1 and F2 starts the search from the spare — and leave out a leg on a tail the model does not have."""
    from skymarshal.day.hindsight import _as_flown
    from skymarshal.models.operational import AircraftDay

    spare = AircraftDay(
        aircraft_registration="A6-BLS", date=DAY, aircraft_type="B789", status="SPARE", station="AUH", capacity={}
    )
    events = [aog(6, 2)]
    taken = snapshot(state(), events, DAY, [spare])
    adapted = to_instance(taken)
    number = {fid: n for n, fid in adapted.flight_ids.items()}
    as_planned = _as_flown(state(), events, adapted, taken)
    assert {tail: [leg[0] for leg in legs] for tail, legs in as_planned.items()} == {
        "A6-BLA": [number["F1"], number["F2"]]
    }
    day = state()
    for fid, tail in (("F1", "A6-BLS"), ("F2", "A6-ZZZ")):
        day.flights[fid] = day.flights[fid].model_copy(update={"aircraft_registration": tail})
    assert {tail: [leg[0] for leg in legs] for tail, legs in _as_flown(day, events, adapted, taken).items()} == {
        "A6-BLS": [number["F1"]]
    }
