"""The day objective (`recovery.objectives.day_config`, issue 47 item 2): the recovery cost in the day scorecard's terms
— every passenger-minute at one price, a passenger left without a way home as the next day's flight and a night,
no credit for a cancelled flight's operating cost — so a plan that strands passengers to save flying costs more
than one that flies them late."""

from __future__ import annotations

from skymarshal.recovery.cost import evaluate
from skymarshal.recovery.objectives import day_config
from skymarshal.rules.finance import DEFAULT_FINANCE, OVERNIGHT_HOURS, PASSENGER_MINUTE_USD, STRANDED_MINUTES

from .tiny import FILES, delay, itinerary_line, planned_solution, replace_flight, replace_itinerary, tiny_instance


def _both(tmp_path):
    roadef = tiny_instance(tmp_path, **{"alt_flights.csv": "#"})
    cfg = roadef.config
    return roadef, roadef.model_copy(update={"config": day_config(cfg.window_start, cfg.window_end)})


def test_cancelling_saves_no_operating_cost_in_the_day_objective(tmp_path):
    roadef, day = _both(tmp_path)
    # 104 (CCC-AAA, 15:30) books nobody: cancelling it only saves its flying
    solution = replace_flight(planned_solution(roadef), 104, aircraft=None)
    assert evaluate(roadef, solution).operating_cost_decrease > 0
    assert evaluate(day, solution).operating_cost_decrease == 0


def test_a_stranded_passenger_costs_a_day_and_a_night_at_the_passenger_minute_price(tmp_path):
    _, day = _both(tmp_path)
    stranded = (STRANDED_MINUTES + OVERNIGHT_HOURS * 60) * PASSENGER_MINUTE_USD
    assert all(v >= stranded for v in day.config.outbound_cancellation.values())
    assert set(day.config.delay_per_minute.values()) == {PASSENGER_MINUTE_USD}


def test_flying_a_full_flight_two_hours_late_beats_cancelling_it(tmp_path):
    """204 (AAA-BBB, P2's last) with 50 passengers: two hours late costs their minutes and the flight's delay minutes
    (rules.finance.delay_cost), cancelling it strands all fifty for a day and a night."""
    itineraries = FILES["itineraries.csv"].replace("3 A 80.0 10 204", "3 A 80.0 50 204")
    roadef = tiny_instance(tmp_path, **{"alt_flights.csv": "#", "itineraries.csv": itineraries})
    cfg = roadef.config
    day = roadef.model_copy(update={"config": day_config(cfg.window_start, cfg.window_end)})
    on_time = planned_solution(day)
    late = delay(on_time, 204, 120)
    cancelled = replace_itinerary(replace_flight(on_time, 204, aircraft=None), 3, itinerary_line(3, "A", 80.0, 50))
    late_cost, cancel_cost = evaluate(day, late), evaluate(day, cancelled)
    assert late_cost.flight_delay_cost == 120 * DEFAULT_FINANCE.delay_cost_per_minute_usd
    assert late_cost.passenger_delay == 50 * 120 * PASSENGER_MINUTE_USD
    assert late_cost.total < cancel_cost.total
