"""Properties of the synthetic airline: referential integrity, continuous rotations, legality inputs."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from skymarshal.data import schema as s
from skymarshal.data.generator import GeneratorConfig, generate
from skymarshal.data.generator.crew import build_roster
from skymarshal.data.generator.network import HUB, HUB_MIN_CONNECTION_MINUTES, frequencies
from skymarshal.data.generator.schedule import build_schedule
from skymarshal.models.fleet import AIRCRAFT_TYPES


def test_size_of_the_airline(airline):
    flights = airline.tables[s.FLIGHTS]
    tails = {f.aircraft_registration for f in flights} | {
        a.aircraft_registration for a in airline.tables[s.AIRCRAFT_AVAILABILITY]
    }
    assert len(tails) >= 40
    assert len({f.aircraft_type for f in flights}) >= 4
    assert len({f.destination for f in flights} - {HUB}) >= 30
    per_day = Counter(f.flight_date for f in flights)
    config = airline.config
    for offset in range(config.days):
        assert per_day[config.start + timedelta(days=offset)] >= 150
    assert {f.carrier for f in flights} == {"EY"}


def test_flight_ids_and_numbers_are_unique_per_day(airline):
    flights = airline.tables[s.FLIGHTS]
    assert len({f.flight_id for f in flights}) == len(flights)
    assert len({(f.flight_number, f.flight_date) for f in flights}) == len(flights)


def test_every_tail_rotation_is_continuous_in_time_and_place(airline):
    by_tail = defaultdict(list)
    for f in airline.tables[s.FLIGHTS]:
        by_tail[f.aircraft_registration].append(f)
    for legs in by_tail.values():
        legs.sort(key=lambda f: f.scheduled_departure)
        assert legs[0].origin == HUB
        for before, after in itertools.pairwise(legs):
            assert after.origin == before.destination
            turn = (after.scheduled_departure - before.scheduled_arrival).total_seconds() / 60
            assert turn >= AIRCRAFT_TYPES[before.aircraft_type].min_turn_minutes
            assert after.aircraft_type == before.aircraft_type


def test_every_booking_flight_and_passenger_exists(airline):
    flights = {f.flight_id: f for f in airline.tables[s.FLIGHTS]}
    passengers = {p.passenger_id for p in airline.tables[s.PASSENGERS]}
    for booking in airline.tables[s.BOOKINGS]:
        assert booking.flight_id in flights
        assert booking.passenger_id in passengers


def test_connections_respect_the_hub_minimum_connection_time(airline):
    flights = {f.flight_id: f for f in airline.tables[s.FLIGHTS]}
    connecting = [b for b in airline.tables[s.BOOKINGS] if b.onward_flight_id]
    assert len(connecting) > 1000
    for booking in connecting:
        inbound, onward = flights[booking.flight_id], flights[booking.onward_flight_id]
        assert inbound.destination == onward.origin == HUB
        gap = (onward.scheduled_departure - inbound.scheduled_arrival).total_seconds() / 60
        assert gap >= HUB_MIN_CONNECTION_MINUTES


def test_bookings_do_not_exceed_capacity_and_match_flight_counts(airline):
    booked = Counter((b.flight_id, b.cabin) for b in airline.tables[s.BOOKINGS])
    for f in airline.tables[s.FLIGHTS]:
        for cabin, capacity in f.capacity.items():
            assert booked[(f.flight_id, cabin)] <= capacity
            assert f.booked.get(cabin, 0) == booked[(f.flight_id, cabin)]


def test_passenger_mix_has_tiers_and_special_service_requests(airline):
    bookings = airline.tables[s.BOOKINGS]
    assert {b.loyalty_tier for b in bookings} >= {"NONE", "SILVER", "GOLD", "PLATINUM"}
    needs = Counter(code for b in bookings for code in b.ssr)
    assert needs["UMNR"] > 0 and needs["WCHR"] > 0 and needs["MEDA"] > 0


def test_every_bag_belongs_to_a_booking_that_lists_it(airline):
    tags = {tag for b in airline.tables[s.BOOKINGS] for tag in b.bag_tags}
    bags = airline.tables[s.BAGGAGE]
    assert bags and {bag.bag_tag for bag in bags} == tags


def test_every_roster_row_has_its_crew_member_and_a_rated_type(airline):
    members = {m.crew_id: m for m in airline.tables[s.CREW_MEMBERS]}
    flights = {f.flight_id for f in airline.tables[s.FLIGHTS]}
    for row in airline.tables[s.CREW_ROSTER]:
        member = members[row.crew_id]
        if row.kind == "FLIGHT":
            assert row.flight_id in flights
            assert AIRCRAFT_TYPES[row.aircraft_type].rating_group in member.type_ratings
    assert any(m.reserve for m in members.values())
    assert any(r.kind == "STANDBY" for r in airline.tables[s.CREW_ROSTER])
    assert any(r.kind == "HISTORY" for r in airline.tables[s.CREW_ROSTER])


def test_every_flight_is_crewed_with_pilots_and_cabin(airline):
    positions = defaultdict(Counter)
    for row in airline.tables[s.CREW_ROSTER]:
        if row.kind == "FLIGHT":
            positions[row.flight_id][row.position] += 1
    for f in airline.tables[s.FLIGHTS]:
        crew = positions[f.flight_id]
        assert crew["CPT"] >= 1 and crew["CPT"] + crew["FO"] >= 2 and crew["CD"] == 1
        assert crew["CD"] + crew["CA"] == AIRCRAFT_TYPES[f.aircraft_type].cabin_crew


def test_cargo_codes_maintenance_and_weather_are_present(airline):
    codes = {c for sh in airline.tables[s.CARGO_SHIPMENTS] for c in sh.handling_codes}
    assert codes >= {"PER", "COL", "PIL", "AVI", "DGR"}
    shipments = {sh.shipment_id for sh in airline.tables[s.CARGO_SHIPMENTS]}
    assert all(a.shipment_id in shipments for a in airline.tables[s.CARGO_FLIGHT_ASSIGNMENTS])
    mel = [w for w in airline.tables[s.MAINTENANCE_WORK_ORDERS] if w.mel]
    assert {w.mel.category for w in mel} >= {"B", "C"}
    hours = Counter(w.airport for w in airline.tables[s.WEATHER])
    assert hours[HUB] >= 24 * airline.config.days


def test_the_three_demo_situations_are_in_the_data(airline):
    flights = {(f.flight_number, f.flight_date): f for f in airline.tables[s.FLIGHTS]}
    mechanical, crew, weather = airline.situations
    ey123 = flights[(mechanical.flight_number, mechanical.flight_date)]
    assert any(
        w.aog and w.aircraft_registration == ey123.aircraft_registration and w.status == "OPEN"
        for w in airline.tables[s.MAINTENANCE_WORK_ORDERS]
    )
    spares = [
        a
        for a in airline.tables[s.AIRCRAFT_AVAILABILITY]
        if a.status == "SPARE" and a.aircraft_type == ey123.aircraft_type and a.date == mechanical.flight_date
    ]
    assert len(spares) == 2 and all(a.station == HUB for a in spares)
    ey101 = flights[(crew.flight_number, crew.flight_date)]
    assert ey101.status == "DELAYED" and ey101.delay_minutes >= 240
    ey11 = flights[(weather.flight_number, weather.flight_date)]
    storm = [
        w
        for w in airline.tables[s.WEATHER]
        if w.airport == ey11.destination and abs((w.forecast_time - ey11.scheduled_arrival).total_seconds()) <= 3600
    ]
    assert storm and all((w.gust_kt or 0) > AIRCRAFT_TYPES[ey11.aircraft_type].max_crosswind_kt for w in storm)


@pytest.mark.integration  # three airlines generated
def test_same_seed_same_airline_and_another_seed_another():
    small = dict(load_factor=0.05)
    first, second = generate(GeneratorConfig(seed=7, **small)), generate(GeneratorConfig(seed=7, **small))
    assert first.tables.keys() == second.tables.keys()
    for table in first.tables:  # the rows' models compared field by field (their items: 30 s more, the same test)
        assert first.tables[table] == second.tables[table], table
    other = generate(GeneratorConfig(seed=8, **small))
    assert [p.name for p in other.tables[s.PASSENGERS][:50]] != [p.name for p in first.tables[s.PASSENGERS][:50]]


@pytest.mark.parametrize(
    "settings_, field",
    [({"days": 3}, "days"), ({"scale": 9}, "scale"), ({"seed": -1}, "seed"), ({"load_factor": 1.5}, "load_factor")],
)
def test_invalid_configuration_is_refused_naming_the_field(settings_, field):
    with pytest.raises(ValidationError) as error:
        GeneratorConfig(**settings_)
    assert error.value.errors()[0]["loc"] == (field,)


@pytest.mark.parametrize("scale", [1, 2, 3, 4])
def test_flight_numbers_never_collide_at_any_scale(scale):
    numbers = [n for f in frequencies(scale) for n in (f.outbound_number, f.inbound_number)]
    assert len(numbers) == len(set(numbers)) and max(numbers) <= 9999


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_roster_for_any_seed_crews_every_flight_without_overlapping_duties(seed):
    import random

    config = GeneratorConfig(seed=seed, load_factor=0.05)
    flights, _ = build_schedule(config)
    _, rows = build_roster(config, flights, random.Random(seed))
    crewed = {r.flight_id for r in rows if r.kind == "FLIGHT"}
    assert crewed == {f.flight_id for f in flights}
    duties = defaultdict(set)
    for r in rows:
        if r.kind in ("FLIGHT", "STANDBY", "HISTORY"):
            duties[r.crew_id].add((r.duty_start, r.duty_end))
    for spans in duties.values():
        ordered = sorted(spans)
        for (_start_a, end_a), (start_b, _) in itertools.pairwise(ordered):
            assert start_b >= end_a, "a crew member is rostered on two duties at once"


def test_primary_keys_are_unique_in_every_table(airline):
    for table, rows in airline.tables.items():
        keys = s.TABLES_BY_NAME[table].key_names
        assert len({tuple(r.to_item()[k] for k in keys) for r in rows}) == len(rows), table


def test_no_aircraft_is_grounded_by_the_generator_except_the_demo_cases(airline):
    from skymarshal.rules.mel import aircraft_airworthiness

    flights = airline.tables[s.FLIGHTS]
    orders = defaultdict(list)
    for order in airline.tables[s.MAINTENANCE_WORK_ORDERS]:
        orders[order.aircraft_registration].append(order)
    end = max(f.scheduled_arrival for f in flights)
    grounded = sorted(
        reg
        for reg in {a.aircraft_registration for a in airline.tables[s.AIRCRAFT_AVAILABILITY]}
        if not aircraft_airworthiness(orders[reg], end).airworthy
    )
    mechanical = airline.situations[0]
    ey123 = next(
        f for f in flights if f.flight_number == mechanical.flight_number and f.flight_date == mechanical.flight_date
    )
    expired_spare = [
        w.aircraft_registration for w in airline.tables[s.MAINTENANCE_WORK_ORDERS] if w.work_order_id.endswith("D0002")
    ]
    assert grounded == sorted([ey123.aircraft_registration, *expired_spare])


@pytest.mark.integration  # a second airline generated
def test_an_airline_without_its_demo_situations_holds_no_grounded_tail_nor_planted_delay(airline):
    """A day replay's airline (bench.day): what only the tables would say — EY123's AOG, EY101's late crew, EY11's
    storm — is not there for the workflow alone to read; every other flight, tail and crew is the same."""
    from skymarshal.rules.mel import aircraft_airworthiness

    plain = generate(airline.config.model_copy(update={"demo_situations": False}))
    assert plain.situations == []
    flights = {(f.flight_number, f.flight_date): f for f in plain.tables[s.FLIGHTS]}
    mechanical, crew, _ = airline.situations
    assert flights[(mechanical.flight_number, mechanical.flight_date)].status == "SCHEDULED"
    assert flights[(crew.flight_number, crew.flight_date)].delay_minutes == 0
    orders = defaultdict(list)
    for order in plain.tables[s.MAINTENANCE_WORK_ORDERS]:
        orders[order.aircraft_registration].append(order)
    end = max(f.scheduled_arrival for f in plain.tables[s.FLIGHTS])
    tails = {a.aircraft_registration for a in plain.tables[s.AIRCRAFT_AVAILABILITY]}
    assert [t for t in tails if not aircraft_airworthiness(orders[t], end).airworthy] == []
    assert not any(w.aog and w.status == "OPEN" for w in plain.tables[s.MAINTENANCE_WORK_ORDERS])
    schedule = [(f.flight_id, f.aircraft_registration, f.scheduled_departure) for f in airline.tables[s.FLIGHTS]]
    assert [(f.flight_id, f.aircraft_registration, f.scheduled_departure) for f in plain.tables[s.FLIGHTS]] == schedule


@pytest.mark.integration  # a second airline generated
def test_a_passenger_slice_books_only_its_days_and_leaves_every_other_table_as_the_whole_airline(airline):
    first = airline.config.demo_day(3)
    sliced = generate(airline.config.model_copy(update={"passenger_days": (first, first + timedelta(days=1))}))
    low = datetime.combine(first, time(0), ZoneInfo("Asia/Dubai"))
    high = low + timedelta(days=2)
    departures = {f.flight_id: f.scheduled_departure for f in sliced.tables[s.FLIGHTS]}
    booked_flights = {b.flight_id for b in sliced.tables[s.BOOKINGS]}
    assert booked_flights and all(low <= departures[f] < high for f in booked_flights)
    assert {b.flight_id for b in sliced.tables[s.BAGGAGE]} <= booked_flights
    assert all(not f.booked for f in sliced.tables[s.FLIGHTS] if f.flight_id not in booked_flights)
    passenger_tables = {s.PASSENGERS, s.BOOKINGS, s.BAGGAGE, s.FLIGHTS}  # flights carry their booked counts
    for table in set(airline.tables) - passenger_tables:
        assert [r.to_item() for r in sliced.tables[table]] == [r.to_item() for r in airline.tables[table]], table
    whole = [f.model_copy(update={"booked": {}}).to_item() for f in airline.tables[s.FLIGHTS]]
    assert [f.model_copy(update={"booked": {}}).to_item() for f in sliced.tables[s.FLIGHTS]] == whole
