"""A network plan's totals count what the day scorecard counts (issue 46 item 3): a cancelled flight's passengers at
the arrival of the flight that takes them (a day late with no seat), a delayed flight's at its own arrival delay,
stranded overnight only when the wait covers the local night, and Art. 9 care in the cost — so a cancellation can
never look cheap because its passengers' wait is uncounted. Pure: the airport reads are replaced by the flights given."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import row_builders

from skymarshal.models.network_plan import FlightAction
from skymarshal.models.operational import Flight
from skymarshal.network.continuity import flight_row
from skymarshal.network.totals import STRANDED_DELAY, PlanData, measure

T0 = datetime(2027, 1, 22, 10, tzinfo=UTC)  # 14:00 at AUH: a wait of a few hours covers no local night
BLOCK = timedelta(hours=7)


class Handle:
    def allowed(self, table: str) -> bool:
        return True


class Data(PlanData):
    """The airline's departures are the flights given; every airport's minimum connection time is an hour."""

    def departures(self, origin: str, start: datetime) -> list[Flight]:
        return [f for f in self.flights.values() if f.origin == origin]

    def mct(self, iata: str) -> int:
        return 60


def _flight(number: str, departs: datetime, seats: int, booked: int) -> Flight:
    return row_builders.flight(
        number,
        "AUH",
        "LHR",
        departs,
        int(BLOCK.total_seconds() // 60),
        f"A6-B{number[-2:]}",
        "B789",
        distance_km=5500,
        capacity={"Y": seats},
        booked={"Y": booked},
        flight_id=f"{number}-20270122",
    )


def _row(f: Flight, action: str, delay: int = 0) -> FlightAction:
    """The flight's row as a plan writes it (network.continuity.flight_row), `delay` minutes late."""
    if action == "cancel":
        return flight_row(f, action, "test")
    late = timedelta(minutes=delay)
    return flight_row(
        f,
        action,
        "test",
        new_departure=f.scheduled_departure + late,
        new_arrival=f.scheduled_arrival + late,
        delay_minutes=delay,
    )


def _data(*flights: Flight, passengers: int = 3) -> Data:
    first = flights[0]
    bookings = {
        first.flight_id: [
            row_builders.booking(f"B{i:03d}", first.flight_id, "LHR", pnr=f"PN{i:04d}") for i in range(passengers)
        ]
    }
    return Data(Handle(), {f.flight_id: f for f in flights}, bookings)  # type: ignore[arg-type]


def test_cancelled_passengers_count_at_the_arrival_of_the_flight_that_takes_them():
    cancelled, later = _flight("EY11", T0, 300, 3), _flight("EY13", T0 + timedelta(hours=4), 300, 100)
    rows, totals = measure([_row(cancelled, "cancel"), _row(later, "operate")], _data(cancelled, later))
    assert rows[0].rebooked_onto == {later.flight_id: 3}
    assert totals.passenger_minutes == 3 * 240
    assert totals.passengers_stranded_overnight == 0  # 14:00 to 18:00 local at AUH: no night
    assert totals.cost_by_component["care"] > 0  # Art. 9(1)(a) meals from two hours' wait


def test_no_seat_leaves_a_cancelled_passenger_a_day_late_and_overnight():
    cancelled, full = _flight("EY11", T0, 300, 3), _flight("EY13", T0 + timedelta(hours=4), 300, 300)
    _, totals = measure([_row(cancelled, "cancel"), _row(full, "operate")], _data(cancelled, full))
    assert totals.passenger_minutes == 3 * int(STRANDED_DELAY.total_seconds() // 60)
    assert totals.passengers_stranded_overnight == 3
    assert totals.cost_by_component["care"] > 0


def test_a_delayed_flights_passengers_count_at_its_arrival_delay_and_a_short_one_owes_no_care():
    delayed = _flight("EY11", T0, 300, 3)
    _, short = measure([_row(delayed, "retime", delay=45)], _data(delayed))
    assert short.passenger_minutes == 3 * 45 and short.cost_by_component["care"] == 0
    _, under = measure([_row(delayed, "retime", delay=200)], _data(delayed))
    assert under.cost_by_component["care"] == 0  # over 3,500 km care starts at four hours (Art. 6(1)(c))
    _, long = measure([_row(delayed, "retime", delay=260)], _data(delayed))
    assert long.passenger_minutes == 3 * 260 and long.cost_by_component["care"] > 0


def test_waiting_costs_less_than_cancelling_when_the_next_flight_is_a_day_away():
    """The shape the old proxies got wrong: four hours per re-accommodated passenger made a cancellation with no seat
    that day look cheaper than a 5-hour wait."""
    flight = _flight("EY11", T0, 300, 200)
    data = _data(flight, passengers=200)
    _, wait = measure([_row(flight, "retime", delay=300)], data)
    _, cancel = measure([_row(flight, "cancel")], data)
    assert wait.passenger_minutes < cancel.passenger_minutes
