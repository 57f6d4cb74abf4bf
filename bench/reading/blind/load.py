"""Blind corpora (bench/reading/blind/corpus-*.jsonl, written from FORMAT.md alone): each line a report with its
truth. A malformed line is one problem line naming the file, the line and what is wrong; the rest still load.
The flight list (airline.csv) checks that a sound report's flights exist, so a writer's slip is told apart from
a reader's misreading."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from ..truth import Report

HERE = Path(__file__).parent
DEFAULT_REPORTED_AT = datetime(2027, 1, 17, 6, tzinfo=UTC)  # the generated corpus's instant (corpus.reported_at_of)


@dataclass
class Corpus:
    name: str
    reports: list[Report] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # one line each: "corpus-x.jsonl:12: <what is wrong>"


def corpus_paths(folder: Path = HERE) -> list[Path]:
    return sorted(folder.glob("corpus-*.jsonl"))


def known_flights(folder: Path = HERE) -> set[str]:
    path = folder / "airline.csv"
    if not path.exists():
        return set()
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.DictReader(f)
        if "flight_id" not in (rows.fieldnames or []):
            raise ValueError(f"{path}: no flight_id column (FORMAT.md)")
        return {row["flight_id"] for row in rows}


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "line"
    return f"{where}: {err['msg']}"


def parse_line(line: str, known: set[str]) -> Report | str:
    """The report of one line, or why the line is no report (a string, one line)."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg} at column {exc.colno})"
    if not isinstance(raw, dict):
        return "not a JSON object"
    raw.setdefault("reported_at", DEFAULT_REPORTED_AT.isoformat())
    try:
        report = Report.model_validate(raw)
    except ValidationError as exc:
        return _first_error(exc)
    unknown = [f for f in report.truth.flights if known and f not in known]
    if unknown and report.truth.refuse is None:
        return f"flight ids not in airline.csv: {', '.join(unknown)}"
    return report


def load(path: Path, known: set[str] | None = None) -> Corpus:
    corpus = Corpus(path.stem.removeprefix("corpus-"))
    if known is None:
        try:
            known = known_flights(path.parent)
        except (OSError, ValueError, csv.Error) as exc:  # the flight list unreadable: said once, flights unchecked
            corpus.problems.append(f"airline.csv: {exc}")
            known = set()
    try:
        raw_lines = path.read_bytes().splitlines()
    except OSError as exc:
        corpus.problems.append(f"{path.name}: cannot be read ({exc.strerror or exc})")
        return corpus
    seen: set[str] = set()
    for n, raw_line in enumerate(raw_lines, start=1):
        try:
            line = raw_line.decode("utf-8")
        except UnicodeDecodeError as exc:
            corpus.problems.append(f"{path.name}:{n}: not UTF-8 ({exc.reason} at byte {exc.start})")
            continue
        if not line.strip():
            continue
        parsed = parse_line(line, known)
        if isinstance(parsed, str):
            corpus.problems.append(f"{path.name}:{n}: {parsed}")
        elif parsed.report_id in seen:
            corpus.problems.append(f"{path.name}:{n}: report_id {parsed.report_id} repeated")
        else:
            seen.add(parsed.report_id)
            corpus.reports.append(parsed)
    return corpus
