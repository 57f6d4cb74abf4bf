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
    with open(path, newline="") as f:
        return {row["flight_id"] for row in csv.DictReader(f)}


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
    known = known_flights(path.parent) if known is None else known
    corpus = Corpus(path.stem.removeprefix("corpus-"))
    seen: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
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
