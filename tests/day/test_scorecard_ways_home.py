"""The scorecard's journey walk takes a cancelled or misconnected passenger home the earliest way the network
offers (rules.reaccommodation, the cancellation plan's own search): through the hub the same day before the same
route the next day, seats checked over the whole day (issue 46 item 2)."""

from __future__ import annotations

from datetime import date

from day_rows import booking, flight, state, utc

from skymarshal.day.scorecard import score

DAY = date(2027, 1, 20)


def _day(free_via_hub: int):
    """AMM-FRA EY31 cancelled at 06:00 (two passengers to FRA); the same flight the next day; AMM-AUH at 09:00 with
    `free_via_hub` free seats and AUH-FRA at 14:00 the same day."""
    tables = state()
    tables.bookings[:] = [booking("A1", "D1", "P-101", "FRA"), booking("A2", "D1", "P-102", "FRA")]
    direct = flight("D1", "EY31", "AMM", "FRA", utc(2027, 1, 20, 6), 300, "A6-BLE")
    tables.flights.update(
        {
            "D1": direct.model_copy(update={"status": "CANCELLED"}),
            "D2": flight("D2", "EY31", "AMM", "FRA", utc(2027, 1, 21, 6), 300, "A6-BLE"),
            "H1": flight("H1", "EY513", "AMM", "AUH", utc(2027, 1, 20, 9), 180, "A6-BLF").model_copy(
                update={"capacity": {"Y": 100}, "booked": {"Y": 100 - free_via_hub}}
            ),
            "H2": flight("H2", "EY23", "AUH", "FRA", utc(2027, 1, 20, 14), 360, "A6-BLG"),
        }
    )
    return tables


def test_a_hub_connection_the_same_day_beats_the_same_flight_the_next_day():
    card = score("cancelled", _day(free_via_hub=2), [], [DAY])
    # both via AUH: H2 lands 20:00 against 11:00 due, 9 h each; the old walk (the next AMM-FRA) counted 24 h each
    assert card.passenger_delay_minutes == 2 * 9 * 60
    assert card.stranded_overnight == 0 and card.cancellations == 1


def test_seats_are_checked_the_second_passenger_waits_for_the_next_day():
    card = score("cancelled", _day(free_via_hub=1), [], [DAY])
    assert card.passenger_delay_minutes == 9 * 60 + 24 * 60  # one seat through the hub; the other on D2
    assert card.stranded_overnight == 1
