"""Passengers affected, vulnerable and premium; journey-based EU261/UK261 liability; duty-of-care cost."""

from __future__ import annotations

from datetime import date, timedelta

from ops_rows import booking, flight, profile, utc

from skymarshal.rules.guest import (
    affected_passengers,
    assess_guest_impact,
    compensation_liability,
    duty_of_care,
    overnight_necessary,
    passenger_misconnections,
)
from skymarshal.rules.guest_models import GuestConfig

LHR_AUH = flight(number="EY18", origin="LHR", destination="AUH", dep=utc(2027, 1, 20, 10), block=420, distance_km=5517)
AUH_FRA = flight(number="EY123", origin="AUH", destination="FRA", dep=utc(2027, 1, 20, 10, 25), block=380)
ATH_AUH = flight(number="EY90", origin="ATH", destination="AUH", dep=utc(2027, 1, 20, 8), block=300, distance_km=3263)


def pax(f, n, **kw):
    return [booking(f"{f.flight_number}-{i}", f.flight_id, final=f.destination, **kw) for i in range(n)]


def test_affected_passengers_by_cabin_tier_premium_and_vulnerable():
    rows = [
        booking("A", AUH_FRA.flight_id, cabin="J"),
        booking("B", AUH_FRA.flight_id, tier="GOLD"),
        booking("C", AUH_FRA.flight_id, ssr=["UMNR"]),
        booking("D", AUH_FRA.flight_id, ssr=["WCHR", "MEDA"]),
        booking("E", AUH_FRA.flight_id, ssr=["INFT"], tier="PLATINUM", inbound="EY18-20270120"),
        booking("F", AUH_FRA.flight_id, status="CANCELLED"),
        booking("G", "EY9-20270120", cabin="J"),
    ]
    impact = affected_passengers(AUH_FRA, rows)
    assert impact.total == 5 and impact.by_cabin == {"J": 1, "Y": 4}
    assert impact.by_tier == {"GOLD": 1, "NONE": 3, "PLATINUM": 1}
    assert impact.premium_booking_ids == ("A", "B", "E")
    assert impact.vulnerable == {"INFT": ("E",), "MEDA": ("D",), "UMNR": ("C",), "WCHR": ("D",)}
    assert impact.connecting_in_booking_ids == ("E",) and impact.connecting_out_booking_ids == ()
    assert [f.details["ssr"] for f in impact.findings] == ["INFT", "MEDA", "UMNR", "WCHR"]
    assert all(f.status == "at_risk" for f in impact.findings)


def test_uk261_delay_at_the_sturgeon_threshold():
    rows = pax(LHR_AUH, 3)
    owed = compensation_liability(LHR_AUH, rows, "delay", arrival_delay_minutes=180, cause="technical")
    assert owed.totals == {"GBP": 1560.0} and owed.passengers_owed == 3  # 3 × 520, category (c)
    assert {p.basis for p in owed.passengers} == {"flight"} and owed.findings[0].unit == "GBP"
    assert compensation_liability(LHR_AUH, rows, "delay", arrival_delay_minutes=179, cause="technical").totals == {}
    assert compensation_liability(LHR_AUH, rows, "delay", arrival_delay_minutes=400, cause="weather").totals == {}


def test_a_flight_from_outside_the_eu_on_a_non_eu_carrier_owes_nothing_but_a_journey_from_london_does():
    local = booking("L1", AUH_FRA.flight_id, final="FRA")
    journey = booking("J1", AUH_FRA.flight_id, final="FRA", inbound=LHR_AUH.flight_id)
    liability = compensation_liability(
        AUH_FRA, [local, journey], "delay", arrival_delay_minutes=200, cause="technical", inbound_flights=[LHR_AUH]
    )
    by_id = {p.booking_id: p for p in liability.passengers}
    assert not by_id["L1"].owed and by_id["L1"].regime is None and by_id["L1"].basis == "flight"
    assert by_id["J1"].owed and by_id["J1"].regime == "UK261" and by_id["J1"].amount == 220  # LHR-FRA 653 km
    assert (by_id["J1"].journey_origin, by_id["J1"].basis) == ("LHR", "journey")
    assert liability.totals == {"GBP": 220.0}
    # without the inbound flight the journey start is unknown: assessed from this flight's origin
    assert compensation_liability(AUH_FRA, [journey], "delay", arrival_delay_minutes=200).totals == {}


def test_an_onward_booking_is_assessed_to_its_final_destination():
    to_hub = booking("H1", ATH_AUH.flight_id, final="AUH")
    onward = booking("O1", ATH_AUH.flight_id, final="BKK", onward="EY406-20270120")
    liability = compensation_liability(ATH_AUH, [to_hub, onward], "delay", arrival_delay_minutes=190)
    by_id = {p.booking_id: p for p in liability.passengers}
    assert by_id["H1"].amount == 400 and by_id["H1"].basis == "flight"  # ATH-AUH 3,263 km, category (b)
    assert by_id["O1"].amount == 600 and by_id["O1"].basis == "journey"  # ATH-BKK 7,930 km, category (c)
    assert liability.totals == {"EUR": 1000.0}


def test_a_per_booking_final_delay_overrides_the_flight_delay():
    rows = pax(ATH_AUH, 2)
    liability = compensation_liability(
        ATH_AUH, rows, "delay", arrival_delay_minutes=60, arrival_delay_by_booking={rows[0].booking_id: 300}
    )
    assert [p.owed for p in liability.passengers] == [True, False] and liability.totals == {"EUR": 400.0}


def test_the_flight_estimate_is_the_default_delay():
    late = LHR_AUH.model_copy(update={"estimated_arrival": LHR_AUH.scheduled_arrival + timedelta(minutes=200)})
    assert compensation_liability(late, pax(late, 1), "delay").totals == {"GBP": 520.0}


def test_meal_vouchers_by_band_and_interval():
    rows = pax(LHR_AUH, 10)
    assert duty_of_care(LHR_AUH, rows, "delay", departure_delay_minutes=239).total == 0  # category (c): from 4 h
    one = duty_of_care(LHR_AUH, rows, "delay", departure_delay_minutes=240)
    assert (one.meal_vouchers, one.meals, one.currency, one.covered_by) == (10, 150.0, "EUR", "UK261")
    two = duty_of_care(LHR_AUH, rows, "delay", departure_delay_minutes=480)
    assert two.meal_vouchers == 20 and two.hotel == 0
    short = flight(number="EY302", origin="BAH", destination="AUH", distance_km=452, block=80)
    assert duty_of_care(short, pax(short, 1), "delay", departure_delay_minutes=120).meal_vouchers == 1  # (a): 2 h


def test_hotel_when_the_wait_covers_the_night():
    evening = flight(
        number="EY20", origin="LHR", destination="AUH", dep=utc(2027, 1, 20, 21), block=420, distance_km=5517
    )
    rows = pax(evening, 4)
    care = duty_of_care(evening, rows, "delay", departure_delay_minutes=420)
    assert care.overnight and care.hotel_passengers == 4 and care.hotel == 480.0 and care.transport == 80.0
    assert care.total == care.meals + care.hotel + care.transport
    assert not duty_of_care(LHR_AUH, rows, "delay", departure_delay_minutes=420).overnight  # daytime wait


def test_overnight_rule_edges():
    night = utc(2027, 1, 20, 20)
    assert not overnight_necessary("Europe/London", night, night + timedelta(minutes=359))
    assert overnight_necessary("Europe/London", night, night + timedelta(minutes=360))
    assert not overnight_necessary("Europe/London", utc(2027, 1, 20, 6), utc(2027, 1, 20, 14))
    assert overnight_necessary("Asia/Dubai", utc(2027, 1, 20, 18), utc(2027, 1, 21, 1))  # 22:00-05:00 local


def test_care_outside_eu261_is_company_policy():
    rows = pax(AUH_FRA, 5)
    assert duty_of_care(AUH_FRA, rows, "delay", departure_delay_minutes=300).covered_by == "company policy"
    off = duty_of_care(
        AUH_FRA, rows, "delay", departure_delay_minutes=300, config=GuestConfig(care_outside_eu261=False)
    )
    assert off.covered_by == "none" and off.total == 0


def test_cancellation_care_is_due_at_once():
    rows = pax(LHR_AUH, 2)
    care = duty_of_care(LHR_AUH, rows, "cancellation", new_departure=LHR_AUH.scheduled_departure + timedelta(hours=20))
    assert care.meal_vouchers == 2 * (1 + (20 * 60) // 240) and care.overnight and care.hotel_passengers == 2


def test_misconnections_and_the_aggregate():
    onward = flight(
        number="EY454",
        origin="AUH",
        destination="SYD",
        dep=LHR_AUH.scheduled_arrival + timedelta(minutes=90),
        reg="A6-XWA",
        type_code="A35K",
        distance_km=12000,
    )
    rows = [
        booking("C1", LHR_AUH.flight_id, final="SYD", onward=onward.flight_id),
        booking("P1", LHR_AUH.flight_id, final="AUH"),
    ]
    hub = profile("AUH", 24.43, 54.65, tz="Asia/Dubai", country="AE", mct=60)
    assert passenger_misconnections(LHR_AUH, rows, [onward], LHR_AUH.scheduled_arrival, hub=hub).passengers == 0
    impact = assess_guest_impact(
        LHR_AUH,
        rows,
        "delay",
        delay_minutes=45,
        cause="technical",
        onward_flights=[onward],
        hub=hub,
        misconnected_arrival_delay_minutes=24 * 60,
    )
    assert impact.misconnections.booking_ids == ("C1",)
    by_id = {p.booking_id: p for p in impact.compensation.passengers}
    assert by_id["C1"].owed and by_id["C1"].amount == 520 and not by_id["P1"].owed
    assert impact.passengers.total == 2 and impact.care.total == 0


def test_real_ey123_guest_numbers_match_the_rows(ops):
    flight_row = ops.flight("EY123", date(2027, 1, 20))
    rows = ops.bookings_on(flight_row.flight_id)
    inbound = [ops.flights[b.inbound_flight_id] for b in rows if b.inbound_flight_id]
    impact = assess_guest_impact(
        flight_row, rows, "delay", delay_minutes=405, cause="technical", inbound_flights=inbound
    )
    assert impact.passengers.total == len(rows) == sum(flight_row.booked.values()) > 0
    assert impact.passengers.by_cabin == flight_row.booked
    owed = [p for p in impact.compensation.passengers if p.owed]
    assert owed and all(p.basis == "journey" for p in owed)  # AUH departures on EY are covered only as a journey
    for p in owed:
        origin = ops.flights[next(b for b in rows if b.booking_id == p.booking_id).inbound_flight_id].origin
        assert p.journey_origin == origin and p.regime in ("EU261", "UK261")
    assert sum(impact.compensation.totals.values()) == sum(p.amount for p in owed)
    assert impact.care.meal_vouchers == len(rows) and impact.care.covered_by == "company policy"
