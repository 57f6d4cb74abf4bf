"""SSIM Chapter 7 in and out: the synthetic airline's schedule round-trips through export and import unchanged
(every schedule field of every flight), any schedule does (a property), and a bad record refuses the whole file
with `line N: field: problem`, writing nothing."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.data import schema as s
from skymarshal.data.ssim import LEG_FIELDS
from skymarshal.data.ssim_file import read_ssim
from skymarshal.data.ssim_import import import_ssim, read_schedule, tails_path
from skymarshal.data.ssim_schedule import (
    IATA_TYPE,
    capacity_of,
    expand_dates,
    flights_from_ssim,
    read_tails,
    ssim_from_flights,
)
from skymarshal.models.airports import airport, great_circle_km
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.models.operational import Flight

SCHEDULE_FIELDS = (
    "flight_id",
    "flight_number",
    "carrier",
    "origin",
    "destination",
    "flight_date",
    "scheduled_departure",
    "scheduled_arrival",
    "aircraft_registration",
    "aircraft_type",
    "block_minutes",
    "distance_km",
    "capacity",
)


def schedule_of(flights) -> dict[str, dict]:
    return {f.flight_id: {k: getattr(f, k) for k in SCHEDULE_FIELDS} for f in flights}


def round_trip(flights):
    text, tails = ssim_from_flights(flights, created=date(2027, 1, 1))
    parsed, errors = read_ssim(text)
    assert errors == []
    assigned, errors = read_tails(tails)
    assert errors == []
    back, errors = flights_from_ssim(parsed, assigned)
    assert errors == []
    return text, back


def test_the_synthetic_airline_round_trips_through_ssim_unchanged(airline):
    flights = airline.tables[s.FLIGHTS]
    text, back = round_trip(flights)
    assert schedule_of(back) == schedule_of(flights)
    legs = sum(1 for line in text.splitlines() if line[0] == "3")
    assert legs < len(flights) / 3  # a daily flight is one record with its period and days, not one per date
    assert all(len(line) == 200 for line in text.splitlines())


ROUTES = [("AUH", "LHR"), ("AUH", "JFK"), ("LHR", "AUH"), ("AUH", "BOM"), ("SYD", "AUH"), ("AUH", "MEL")]


@st.composite
def schedules(draw):
    """Flights of a few numbers on random dates, times, types and tails, each keyed by its local date."""
    flights: dict[str, Flight] = {}
    for number in draw(st.lists(st.integers(1, 9999), min_size=1, max_size=4, unique=True)):
        origin, destination = draw(st.sampled_from(ROUTES))
        type_code = draw(st.sampled_from(sorted(IATA_TYPE)))
        for _ in range(draw(st.integers(1, 10))):
            day = date(2027, 3, 20) + timedelta(days=draw(st.integers(0, 20)))  # across Europe's clock change
            dep = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(minutes=5 * draw(st.integers(0, 287)))
            block = 5 * draw(st.integers(12, 200))
            local = dep.astimezone(ZoneInfo(airport(origin).tz)).date()
            flight_id = f"EY{number}-{local:%Y%m%d}"
            flights[flight_id] = Flight(
                flight_id=flight_id,
                flight_number=f"EY{number}",
                carrier="EY",
                origin=origin,
                destination=destination,
                flight_date=local,
                scheduled_departure=dep,
                scheduled_arrival=dep + timedelta(minutes=block),
                aircraft_registration=draw(st.sampled_from(["A6-BLA", "A6-BLB", "A6-EIA"])),
                aircraft_type=type_code,
                block_minutes=block,
                distance_km=round(great_circle_km(origin, destination)),
                capacity=draw(st.sampled_from([dict(AIRCRAFT_TYPES[type_code].capacity), {"F": 4, "J": 20, "Y": 300}])),
            )
    return list(flights.values())


@pytest.mark.unit
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(schedules())
def test_any_schedule_round_trips_through_ssim(flights):
    _, back = round_trip(flights)
    assert schedule_of(back) == schedule_of(flights)


@given(
    st.dates(date(2027, 1, 1), date(2028, 12, 31)),
    st.integers(0, 60),
    st.sets(st.integers(1, 7), min_size=1),
    st.integers(1, 2),
)
def test_a_period_expands_to_its_weekdays_only_inside_it(start, span, weekdays, every):
    days = expand_dates(start, start + timedelta(days=span), weekdays, every)
    assert all(start <= d <= start + timedelta(days=span) and d.isoweekday() in weekdays for d in days)
    assert len(days) <= len(expand_dates(start, start + timedelta(days=span), weekdays, 1))


def test_an_aircraft_configuration_gives_the_seats_and_refuses_an_unknown_class():
    assert capacity_of("J28Y262", "B789") == {"J": 28, "Y": 262}
    assert capacity_of("C28W20Y242", "B789") == {"J": 28, "Y": 262}
    assert capacity_of("", "A320") == dict(AIRCRAFT_TYPES["A320"].capacity)
    with pytest.raises(ValueError, match="class 'P'"):
        capacity_of("P4J20", "B789")


def _sample(airline, count=30):
    return [f for f in airline.tables[s.FLIGHTS] if f.flight_number in {"EY123", "EY124", "EY19"}][:count]


def _replace(line: str, name: str, text: str) -> str:
    start, end = LEG_FIELDS[name]
    return line[: start - 1] + text.ljust(end - start + 1) + line[end:]


def test_a_bad_record_refuses_the_file_naming_line_and_field(airline, tmp_path):
    text, tails = ssim_from_flights(_sample(airline), created=date(2027, 1, 1))
    lines = text.splitlines()
    legs = [i for i, line in enumerate(lines) if line[0] == "3"]
    lines[legs[0]] = _replace(lines[legs[0]], "aircraft_std", "2475")
    lines[legs[1]] = _replace(lines[legs[1]], "aircraft_type", "744")
    lines[legs[2]] = lines[legs[2]][:150]
    path = tmp_path / "bad.ssim"
    path.write_text("\n".join(lines) + "\n")
    tails_path(path).write_text(tails)
    flights, errors, _ = read_schedule(path, tails_path(path))
    assert flights == []
    assert f"line {legs[0] + 1}: aircraft_std: '2475' is not a time HHMM from 0000 to 2359" in errors
    assert f"line {legs[2] + 1}: (record): 150 characters; an SSIM record is 200" in errors
    # the type is checked once the layout is sound: fix the others and it is what remains
    lines[legs[0]] = text.splitlines()[legs[0]]
    lines[legs[2]] = text.splitlines()[legs[2]]
    path.write_text("\n".join(lines) + "\n")
    flights, errors, _ = read_schedule(path, tails_path(path))
    assert len(errors) == 1 and errors[0].startswith(f"line {legs[1] + 1}: aircraft_type: '744' is not a type")
    lines[legs[0]] = _replace(lines[legs[0]], "passenger_sta", "2599")  # not kept (the aircraft's is), still checked
    path.write_text("\n".join(lines) + "\n")
    _, errors, _ = read_schedule(path, tails_path(path))
    assert f"line {legs[0] + 1}: passenger_sta: '2599' is not a time HHMM from 0000 to 2359" in errors


def test_an_arrival_before_the_departure_and_a_missing_tail_are_refused(airline, tmp_path):
    text, tails = ssim_from_flights(_sample(airline), created=date(2027, 1, 1))
    lines = text.splitlines()
    leg = next(i for i, line in enumerate(lines) if line[0] == "3")
    dep = lines[leg][43:47]
    lines[leg] = _replace(_replace(lines[leg], "aircraft_sta", dep), "arrival_date_variation", "0")
    path = tmp_path / "s.ssim"
    path.write_text("\n".join(lines) + "\n")
    tails_path(path).write_text(tails)
    _, errors, _ = read_schedule(path, tails_path(path))
    assert len(errors) == 1 and errors[0].startswith(f"line {leg + 1}: aircraft_sta: arrives")
    path.write_text(text)
    tails_path(path).write_text("\n".join(tails.splitlines()[:-1]) + "\n")  # the last flight has no tail
    _, errors, _ = read_schedule(path, tails_path(path))
    assert len(errors) == 1 and ": registration: no tail for 1 dated flight(s)" in errors[0]
    _, errors, _ = read_schedule(path, None)
    assert errors == ["s.ssim: registration: SSIM carries no tails; pass the tail file (flight_id,registration)"]


def test_record_order_and_serial_numbers_are_checked(airline):
    text, _ = ssim_from_flights(_sample(airline, 5), created=date(2027, 1, 1))
    lines = text.splitlines()
    swapped = [lines[0], lines[2], lines[1], *lines[3:]]
    _, errors = read_ssim("\n".join(swapped))
    assert "line 2: record_type: a type 3 record outside a carrier (no type 2 before it)" in errors
    _, errors = read_ssim("\n".join(lines[1:]))
    assert errors[0] == "line 1: record_type: '2' before the header record (type 1 comes first)"
    _, errors = read_ssim("\n".join(lines[:-1]))
    assert errors[-1].endswith("the file ends without the carrier's trailer (5)")
    assert read_ssim("\n".join([lines[0], "0" * 200, *lines[1:]]))[1] == []  # a padding line is skipped


def test_the_exported_schedule_imports_into_an_empty_account_and_reimports_as_a_no_op(blank_account, airline, tmp_path):
    flights = airline.tables[s.FLIGHTS]
    path = tmp_path / "ey.ssim"
    text, tails = ssim_from_flights(flights, created=date(2027, 1, 1))
    path.write_text(text)
    tails_path(path).write_text(tails)
    table = blank_account.resource().Table(blank_account.naming(s.FLIGHTS))
    for _ in range(2):
        report = import_ssim(path, blank_account.resource(), blank_account.naming, tails_path=tails_path(path))
        assert report.ok and report.written == {s.FLIGHTS: len(flights)}
    stored = [Flight.model_validate(table.get_item(Key={"flight_id": f.flight_id})["Item"]) for f in flights[::25]]
    assert schedule_of(stored) == schedule_of(flights[::25])
    # a re-import keeps what the schedule does not say (the booked seats, the day's status) and a recovery's tail
    table.update_item(
        Key={"flight_id": flights[0].flight_id},
        UpdateExpression="SET booked = :b, #s = :s, updated_by_execution = :x, aircraft_registration = :r",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":b": {"J": 3, "Y": 99}, ":s": "DELAYED", ":x": "run-1", ":r": "A6-ZZZ"},
    )
    first_day = flights[0].flight_date
    report = import_ssim(
        path,
        blank_account.resource(),
        blank_account.naming,
        tails_path=tails_path(path),
        start=first_day,
        end=first_day,
    )
    assert report.ok and 0 < report.written[s.FLIGHTS] < len(flights)
    kept = Flight.model_validate(table.get_item(Key={"flight_id": flights[0].flight_id})["Item"])
    assert kept.booked == {"J": 3, "Y": 99} and kept.status == "DELAYED" and kept.aircraft_registration == "A6-ZZZ"


def test_a_refused_file_writes_nothing(blank_account, airline, tmp_path):
    text, tails = ssim_from_flights(_sample(airline), created=date(2027, 1, 1))
    path = tmp_path / "s.ssim"
    path.write_text(text.replace("AUH", "A1H", 1))
    tails_path(path).write_text(tails)
    report = import_ssim(path, blank_account.resource(), blank_account.naming, tails_path=tails_path(path))
    assert not report.ok and report.written == {}
    table = blank_account.resource().Table(blank_account.naming(s.FLIGHTS))
    assert all("Item" not in table.get_item(Key={"flight_id": f.flight_id}) for f in _sample(airline))


def test_the_cli_exports_the_synthetic_airline_and_refuses_a_bad_file_line_by_line(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "ey.ssim"
    cli = [sys.executable, "-m", "skymarshal.cli", "data"]
    done = subprocess.run([*cli, "export-ssim", str(path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and '"flights": 1190' in done.stdout and tails_path(path).exists()
    lines = path.read_text().splitlines()
    lines[5] = _replace(lines[5], "period_from", "31FEB27")
    path.write_text("\n".join(lines) + "\n")
    # refused before any write: the endpoint is never reached
    done = subprocess.run(
        [*cli, "import-ssim", str(path), "--endpoint", "http://127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1
    assert done.stdout.strip() == "line 6: period_from: '31FEB27' is not a day of the calendar"
    assert done.stderr.strip() == f"skymarshal: nothing imported: 1 problem(s) in {path}"


def test_quarantine_parks_a_bad_leg_with_its_reason_and_imports_the_rest(blank_account, airline, tmp_path):
    import os
    import subprocess
    import sys

    sample = _sample(airline)
    text, tails = ssim_from_flights(sample, created=date(2027, 1, 1))
    lines = text.splitlines()
    leg = next(i for i, line in enumerate(lines) if line[0] == "3")
    lines[leg] = _replace(lines[leg], "aircraft_type", "744")
    path = tmp_path / "s.ssim"
    path.write_text("\n".join(lines) + "\n")
    tails_path(path).write_text(tails)
    flights, errors, held = read_schedule(path, tails_path(path), quarantine=True)
    assert errors == [] and [(p.line, p.record) for p in held] == [(leg + 1, lines[leg])]
    assert held[0].reason.startswith("aircraft_type: '744' is not a type of the fleet")
    assert 0 < len(flights) < len(sample)
    # a broken file is still refused whole: quarantine takes bad legs, not a bad structure
    broken = tmp_path / "broken.ssim"
    broken.write_text("\n".join(lines[1:]) + "\n")
    tails_path(broken).write_text(tails)
    _, errors, held = read_schedule(broken, tails_path(broken), quarantine=True)
    assert errors and held == []
    home = tmp_path / "home"
    report = import_ssim(
        path, blank_account.resource(), blank_account.naming, tails_path=tails_path(path), park_in=home / "quarantine"
    )
    assert report.ok and report.written == {s.FLIGHTS: len(flights)} and len(report.parked) == 1
    listed = subprocess.run(
        [sys.executable, "-m", "skymarshal.cli", "quarantine"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SKYMARSHAL_HOME": str(home)},
    )
    assert listed.returncode == 0 and f"ssim {path} line {leg + 1}: aircraft_type: '744'" in listed.stdout
