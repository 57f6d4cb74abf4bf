"""The blind corpora's loader: a malformed line is one problem line naming file and line, never a crash, and the
rest of the file still loads; the brief's worked examples load as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bench.reading.blind.load import DEFAULT_REPORTED_AT, known_flights, load

HERE = Path(__file__).resolve().parents[2] / "bench" / "reading" / "blind"
SOUND = {
    "report_id": "t-1",
    "style": "terse",
    "text": "EY12 18JAN LHR: catering late, DLA 30",
    "truth": {
        "family": "aircraft_ramp_handling",
        "code": 37,
        "scope": "flight",
        "scope_kind": "flight",
        "flights": ["EY12-20270118"],
    },
}


def write(tmp_path: Path, lines: list[str]) -> Path:
    (tmp_path / "airline.csv").write_text("flight_id\nEY12-20270118\n")
    path = tmp_path / "corpus-t.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_malformed_lines_are_one_line_each_and_the_rest_loads(tmp_path: Path) -> None:
    bad_family = {**SOUND, "report_id": "t-2", "truth": {**SOUND["truth"], "family": "cargo"}}
    unknown = {**SOUND, "report_id": "t-3", "truth": {**SOUND["truth"], "flights": ["EY99-20270118"]}}
    path = write(
        tmp_path,
        [json.dumps(SOUND), "{not json", json.dumps(bad_family), json.dumps(unknown), json.dumps(SOUND), "[1]"],
    )
    corpus = load(path)
    assert [r.report_id for r in corpus.reports] == ["t-1"]
    assert corpus.reports[0].reported_at == DEFAULT_REPORTED_AT
    assert len(corpus.problems) == 5
    assert all("\n" not in p and re.match(r"corpus-t\.jsonl:\d+: ", p) for p in corpus.problems)
    assert [int(p.split(":")[1]) for p in corpus.problems] == [2, 3, 4, 5, 6]
    assert "EY99-20270118" in corpus.problems[2] and "repeated" in corpus.problems[3]


def test_a_contradiction_may_name_a_flight_the_list_lacks(tmp_path: Path) -> None:
    odd = {**SOUND, "truth": {**SOUND["truth"], "flights": ["EY99-20270118"], "refuse": "route_not_flown"}}
    assert load(write(tmp_path, [json.dumps(odd)])).problems == []


def test_the_briefs_worked_examples_load() -> None:
    text = (HERE / "FORMAT.md").read_text()
    examples = [line for line in text.splitlines() if line.startswith('{"report_id": "x-')]
    assert len(examples) == 3
    known = known_flights(HERE)
    from bench.reading.blind.load import parse_line

    for line in examples:
        assert not isinstance(parse_line(line, known), str), line


def test_a_missing_file_and_a_line_not_utf8_are_problem_lines(tmp_path: Path) -> None:
    missing = load(tmp_path / "corpus-gone.jsonl", known=set())
    assert missing.reports == [] and len(missing.problems) == 1 and "cannot be read" in missing.problems[0]
    path = write(tmp_path, [json.dumps(SOUND)])
    path.write_bytes(b"\xff\xfe{}\n" + path.read_bytes())
    corpus = load(path)
    assert [r.report_id for r in corpus.reports] == ["t-1"]
    assert corpus.problems == ["corpus-t.jsonl:1: not UTF-8 (invalid start byte at byte 0)"]
