"""The hindsight's plan written into the day (day/hindsight_apply.py): each change as execution writes it, save a
delay the day's events impose anyway — left to the events, so its crews are judged as waiting's are."""

from __future__ import annotations

from datetime import date, timedelta

from day_rows import state
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hindsight import aog

from skymarshal.day.hindsight import snapshot
from skymarshal.day.hindsight_apply import BY, plan_day
from skymarshal.day.realize import realize
from skymarshal.recovery.adapter import to_instance
from skymarshal.recovery.model import Solution, SolutionFlight

DAY = date(2027, 1, 20)


def _plan(adapted, late: dict[str, int]) -> Solution:
    """Every flight of the model on its planned tail, `late` minutes after its schedule (by SkyMarshal flight id)."""
    flights = []
    for ref, tail in adapted.instance.rotations:
        template = adapted.instance.flights[ref.number]
        departure = ref.day * 1440 + template.departure + late.get(adapted.flight_ids[ref.number], 0)
        flights.append(
            SolutionFlight(
                number=ref.number,
                origin=template.origin,
                destination=template.destination,
                departure=departure,
                arrival=departure + template.duration,
                previous=template.previous,
                day=ref.day,
                aircraft=tail,
            )
        )
    return Solution(flights=tuple(flights), itineraries=())


@settings(max_examples=15, deadline=None)
@given(hours=st.integers(1, 8), extra=st.integers(-60, 90))
def test_a_delay_the_events_impose_is_left_to_them_and_the_plans_time_is_kept(hours, extra):
    """F1 (10:00) waits for A6-BLA, grounded from 08:00 for `hours`: the plan flying it `extra` minutes from the
    events' own delay writes it only where it is longer; either way the day flies F1 when the plan said or later."""
    events = [aog(8, hours)]
    taken = snapshot(state(), events, DAY)
    adapted = to_instance(taken)
    natural = realize(state(), events)["F1"].delay(state().flights["F1"])
    planned = max(0, natural + extra)
    out = plan_day(state(), events, adapted, _plan(adapted, {"F1": planned}))
    written = out.flights["F1"]
    assert (written.updated_by_execution == BY) == (planned > natural)
    assert realize(out, events)["F1"].delay(written) >= planned
    if planned <= natural:
        assert written == state().flights["F1"]


def test_a_cancellation_and_a_longer_hold_are_written():
    events = [aog(8, 2)]
    adapted = to_instance(snapshot(state(), events, DAY))
    solution = _plan(adapted, {"F1": 0})
    cancelled = solution.model_copy(
        update={"flights": tuple(f.model_copy(update={"aircraft": None}) for f in solution.flights)}
    )
    out = plan_day(state(), events, adapted, cancelled)
    assert {out.flights[fid].status for fid in ("F1", "F2")} == {"CANCELLED"}
    held = plan_day(state(), events, adapted, _plan(adapted, {"F1": 300}))
    assert held.flights["F1"].estimated_departure == state().flights["F1"].scheduled_departure + timedelta(minutes=300)


def test_a_delay_left_to_the_events_is_written_where_the_plans_day_would_fly_it_sooner():
    """A6-BLA grounded until 14:00 makes F1 land at FRA at 20:00 and F2 (17:30 back) late by the knock-on. A plan
    flying F1 on the spare A6-BLS at its time and keeping F2 on A6-BLA at that natural delay: on the plan's day
    nothing makes F2 late any more, so its delay is written after all — the plan's time is kept."""
    from skymarshal.models.operational import AircraftDay

    spare = AircraftDay(
        aircraft_registration="A6-BLS", date=DAY, aircraft_type="B789", status="SPARE", station="AUH", capacity={}
    )
    events = [aog(8, 6)]
    adapted = to_instance(snapshot(state(), events, DAY, [spare]))
    natural = realize(state(), events)["F2"].delay(state().flights["F2"])
    assert natural > 0
    solution = _plan(adapted, {"F2": natural})
    number = {fid: n for n, fid in adapted.flight_ids.items()}
    flights = tuple(
        f.model_copy(update={"aircraft": "A6-BLS"}) if f.number == number["F1"] else f for f in solution.flights
    )
    out = plan_day(state(), events, adapted, solution.model_copy(update={"flights": flights}))
    assert out.flights["F1"].aircraft_registration == "A6-BLS"
    written = out.flights["F2"]
    assert written.updated_by_execution == BY
    assert written.estimated_departure == written.scheduled_departure + timedelta(minutes=natural)
    assert realize(out, events)["F2"].delay(written) >= natural
