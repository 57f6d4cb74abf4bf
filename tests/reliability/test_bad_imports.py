"""Imports are all or nothing: every row of every file is checked before the first write (NaN, Infinity, empty
keys, duplicate keys, bytes that are not UTF-8), and a write that fails half way restores every table.

Each test reads the tables it touches by key before and after (never a Scan in the library; the tests compare
every row the import names, plus the row counts the test planted)."""

from __future__ import annotations

import json

import pytest

from skymarshal.cli import main
from skymarshal.data import schema as s
from skymarshal.data.import_write import ImportFailed
from skymarshal.data.loader import upsert
from skymarshal.data.transfer import import_folder, write_generated


def _items(account, table: str) -> list[dict]:
    # A whole-table read is a test-only Scan: it proves nothing else changed.
    table_ = account.resource().Table(account.naming(table))
    return sorted(table_.scan()["Items"], key=lambda item: json.dumps(item, sort_keys=True, default=str))


def _folder(tmp_path, airline, flights: int = 40, crew: int = 30):
    write_generated(
        tmp_path,
        {
            s.FLIGHTS: airline.tables[s.FLIGHTS][:flights],
            s.CREW_MEMBERS: airline.tables[s.CREW_MEMBERS][:crew],
            s.WEATHER: airline.tables[s.WEATHER][:20],
        },
    )
    return tmp_path


def _edit(path, number: int, **changes) -> None:
    """Change line `number` (1-based) of a .jsonl file; raw text values are written as they are."""
    lines = path.read_text().split("\n")
    row = json.loads(lines[number - 1])
    text = json.dumps({**row, **{k: v for k, v in changes.items() if not isinstance(v, _Raw)}})
    for key, value in changes.items():
        if isinstance(value, _Raw):
            text = text[:-1] + f', "{key}": {value.text}}}'
    lines[number - 1] = text
    path.write_text("\n".join(lines))


class _Raw:
    def __init__(self, text: str):
        self.text = text


@pytest.fixture
def planted(blank_account, airline):
    """Ten flights already in the table: a refused import must leave exactly these."""
    upsert(blank_account.resource(), blank_account.naming, s.FLIGHTS, airline.tables[s.FLIGHTS][:10])
    return {t: _items(blank_account, t) for t in (s.FLIGHTS, s.CREW_MEMBERS, s.WEATHER)}


def _unchanged(account, planted) -> bool:
    return all(_items(account, table) == rows for table, rows in planted.items())


@pytest.mark.parametrize(
    "value,problem",
    [
        (_Raw("NaN"), "(row): NaN is not a number a table can hold"),
        (_Raw("Infinity"), "(row): Infinity is not a number a table can hold"),
        (_Raw("-Infinity"), "(row): -Infinity is not a number a table can hold"),
        (_Raw("1e999"), "(row): 1e999 is out of range (not a finite number)"),
        ("NaN", "temperature_c: not a finite number"),  # a string the model reads as a float
    ],
)
def test_a_non_finite_number_refuses_the_whole_import(blank_account, airline, tmp_path, planted, value, problem):
    folder = _folder(tmp_path, airline)
    _edit(folder / f"{s.WEATHER}.jsonl", 17, temperature_c=value)
    report = import_folder(folder, blank_account.resource(), blank_account.naming)
    assert report.errors == [f"{s.WEATHER}.jsonl:17: {problem}"]
    assert report.written == {} and _unchanged(blank_account, planted)


def test_an_empty_key_is_refused_before_any_write(blank_account, airline, tmp_path, planted):
    folder = _folder(tmp_path, airline)
    _edit(folder / "flights.jsonl", 31, flight_id="")
    _edit(folder / f"{s.CREW_MEMBERS}.jsonl", 2, crew_id="")
    report = import_folder(folder, blank_account.resource(), blank_account.naming)
    assert report.errors == [
        f"{s.CREW_MEMBERS}.jsonl:2: crew_id: the table's key is empty",
        "flights.jsonl:31: flight_id: the table's key is empty",
    ]
    assert _unchanged(blank_account, planted)


def test_a_duplicate_key_in_one_file_names_both_lines(blank_account, airline, tmp_path, planted):
    folder = _folder(tmp_path, airline)
    lines = (folder / "flights.jsonl").read_text().split("\n")
    first = json.loads(lines[4])
    lines[25] = json.dumps({**first, "status": "CANCELLED"})  # line 26 repeats line 5's key, changed
    (folder / "flights.jsonl").write_text("\n".join(lines))
    report = import_folder(folder, blank_account.resource(), blank_account.naming)
    assert report.errors == [
        f"flights.jsonl:26: (row): duplicate key flight_id={first['flight_id']!r}: line 5 holds the same key"
    ]
    assert _unchanged(blank_account, planted)


def test_a_file_that_is_not_utf8_is_named_with_its_byte_offset(blank_account, airline, tmp_path, planted):
    folder = _folder(tmp_path, airline)
    raw = (folder / "flights.jsonl").read_bytes()
    third = raw.index(b"\n", raw.index(b"\n") + 1) + 1  # the start of line 3
    offset = third + 10
    (folder / "flights.jsonl").write_bytes(raw[:offset] + b"\xff" + raw[offset + 1 :])
    report = import_folder(folder, blank_account.resource(), blank_account.naming)
    assert report.errors == [
        f"flights.jsonl:3: (file): not UTF-8: byte 0xff at offset {offset}; save the file as UTF-8"
    ]
    assert _unchanged(blank_account, planted)


def test_a_write_failing_half_way_leaves_every_table_as_it_was(blank_account, airline, tmp_path, planted):
    """CrewMembers and Weather are written whole, then flights (10 of its 40 rows replace planted rows) fails
    after 25 rows: all three tables are restored."""
    folder = _folder(tmp_path, airline)
    seen: list[str] = []

    def failing(resource, naming, table, rows):
        seen.append(table)
        if table != s.FLIGHTS:
            return upsert(resource, naming, table, rows)
        upsert(resource, naming, table, list(rows)[:25])
        raise ConnectionError("injected: local AWS stopped answering")

    with pytest.raises(ImportFailed) as failed:
        import_folder(folder, blank_account.resource(), blank_account.naming, write=failing)
    assert seen == [s.CREW_MEMBERS, s.WEATHER, s.FLIGHTS]
    assert str(failed.value) == (
        "writing flights failed (ConnectionError: injected: local AWS stopped answering); "
        f"rolled back: {s.CREW_MEMBERS}, {s.WEATHER}, flights are as they were"
    )
    assert _unchanged(blank_account, planted)


def test_a_clean_import_still_writes_everything(blank_account, airline, tmp_path, planted):
    folder = _folder(tmp_path, airline)
    report = import_folder(folder, blank_account.resource(), blank_account.naming)
    assert report.ok and report.written == {s.CREW_MEMBERS: 30, s.FLIGHTS: 40, s.WEATHER: 20}
    assert len(_items(blank_account, s.FLIGHTS)) == 40


def test_the_cli_prints_each_problem_and_one_line_and_writes_nothing(
    blank_account, airline, tmp_path, planted, capsys, monkeypatch
):
    folder = _folder(tmp_path, airline)
    (folder / f"{s.WEATHER}.jsonl").write_bytes(b'{"airport": "AUH", "note": "\xe9t\xe9"}\n')
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    code = main(["data", "import", str(folder), "--aws", "--table-prefix", blank_account.naming.prefix])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.splitlines() == [
        f"{s.WEATHER}.jsonl:1: (file): not UTF-8: byte 0xe9 at offset 28; save the file as UTF-8"
    ]
    assert err == f"skymarshal: nothing imported: 1 problem(s) in {folder}\n"
    assert _unchanged(blank_account, planted)
