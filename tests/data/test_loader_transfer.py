"""Loading is idempotent; import validates everything first and writes nothing on a bad row; export
round-trips without a Scan."""

from __future__ import annotations

import json

from skymarshal.data import schema as s
from skymarshal.data.loader import upsert
from skymarshal.data.transfer import export_folder, import_folder, write_generated
from skymarshal.local.emulator import BUCKET


def _count(account, table: str) -> int:
    # Counting a whole table is a test-only Scan; the library never scans.
    return account.client("dynamodb").scan(TableName=account.naming(table), Select="COUNT")["Count"]


def test_loading_the_same_rows_twice_duplicates_nothing(blank_account, airline):
    rows = airline.tables[s.FLIGHTS][:300]
    resource = blank_account.resource()
    assert upsert(resource, blank_account.naming, s.FLIGHTS, rows) == 300
    upsert(resource, blank_account.naming, s.FLIGHTS, rows)
    assert _count(blank_account, s.FLIGHTS) == 300


def test_import_refuses_everything_on_a_bad_row_and_names_each_problem(blank_account, airline, tmp_path):
    write_generated(
        tmp_path, {s.FLIGHTS: airline.tables[s.FLIGHTS][:5], s.CREW_MEMBERS: airline.tables[s.CREW_MEMBERS][:3]}
    )
    lines = (tmp_path / "flights.jsonl").read_text().splitlines()
    broken = json.loads(lines[2])
    broken["origin"] = "auh!"
    del broken["block_minutes"]
    lines[2] = json.dumps(broken)
    lines.append("{not json")
    (tmp_path / "flights.jsonl").write_text("\n".join(lines) + "\n")
    report = import_folder(tmp_path, blank_account.resource(), blank_account.naming)
    assert not report.ok and report.written == {}
    assert "flights.jsonl:3: origin: String should match pattern '^[A-Z]{3}$'" in report.errors
    assert "flights.jsonl:3: block_minutes: Field required" in report.errors
    assert any(e.startswith("flights.jsonl:6: (row): not valid JSON") for e in report.errors)
    assert _count(blank_account, s.FLIGHTS) == 0 and _count(blank_account, s.CREW_MEMBERS) == 0


def test_import_refuses_an_unknown_table_file(blank_account, tmp_path):
    (tmp_path / "flight.jsonl").write_text("{}\n")
    report = import_folder(tmp_path, blank_account.resource(), blank_account.naming)
    assert report.errors and report.errors[0].startswith("flight.jsonl: not an operational table")


def test_import_is_an_idempotent_upsert_and_export_round_trips(blank_account, airline, tmp_path):
    source = tmp_path / "in"
    tables = {
        s.FLIGHTS: airline.tables[s.FLIGHTS][:40],
        s.CREW_ROSTER: airline.tables[s.CREW_ROSTER][:60],
        s.AIRPORTS: airline.tables[s.AIRPORTS],
    }
    write_generated(source, tables)
    for _ in range(2):
        report = import_folder(source, blank_account.resource(), blank_account.naming)
        assert report.ok and report.written[s.FLIGHTS] == 40
    assert _count(blank_account, s.FLIGHTS) == 40
    out = tmp_path / "out"
    counts = export_folder(
        out,
        blank_account.client("dynamodb"),
        blank_account.client("s3"),
        BUCKET,
        blank_account.naming,
        tables=tuple(tables),
    )
    assert counts == {name: len(rows) for name, rows in tables.items()}
    for name in tables:
        assert sorted((out / f"{name}.jsonl").read_text().splitlines()) == sorted(
            (source / f"{name}.jsonl").read_text().splitlines()
        )


def test_a_what_if_import_changes_only_the_rows_it_holds(blank_account, airline, tmp_path):
    flights = airline.tables[s.FLIGHTS][:10]
    upsert(blank_account.resource(), blank_account.naming, s.FLIGHTS, flights)
    changed = flights[3].model_copy(update={"status": "CANCELLED"})
    write_generated(tmp_path, {s.FLIGHTS: [changed]})
    assert import_folder(tmp_path, blank_account.resource(), blank_account.naming).ok
    handle = blank_account.handle()
    assert handle.get(s.FLIGHTS, {"flight_id": changed.flight_id})["status"] == "CANCELLED"
    assert handle.get(s.FLIGHTS, {"flight_id": flights[4].flight_id})["status"] == flights[4].status
    assert _count(blank_account, s.FLIGHTS) == 10
