"""The runs as a duty manager lists them: by what happened (executed, rejected, escalated, refused as input,
failed) and what waits for a decision first, each with its flight(s) or airport and the report's first line; the
Step Functions status stays as a detail. One function for `skymarshal history` and GET /disruptions."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..models.disruption import Disruption
from ..workflow.payloads import run_key

RunOutcome = Literal["awaiting_decision", "running", "executed", "rejected", "escalated", "refused", "failed"]
# The Lambda errors of a report the workflow refused to read as a disruption (Validate, or no flight identified).
REFUSED_ERRORS = frozenset({"InvalidDisruption", "InputError"})
OUTCOME_WORDS: dict[str, str] = {
    "awaiting_decision": "awaiting your decision",
    "running": "running",
    "executed": "executed",
    "rejected": "rejected",
    "escalated": "escalated",
    "refused": "refused as input",
    "failed": "failed",
}
REPORT_CHARS = 120


class RunLine(BaseModel):
    disruption_id: str = Field(description="the run (the execution's name)")
    outcome: RunOutcome = Field(description="what happened, or that it waits for a duty manager")
    outcome_text: str = Field(description="the outcome in words, e.g. 'awaiting your decision'")
    subject: str | None = Field(description="the flight(s), tail, crew member's flight or airport the report is about")
    report: str | None = Field(description="the report's first line")
    detail: str | None = Field(description="the outcome's one line, or why the report was refused")
    status: str = Field(description="the Step Functions execution status (a detail): RUNNING, SUCCEEDED, FAILED, ...")
    started_at: datetime
    stopped_at: datetime | None = None


def subject_of(disruption: Disruption | None, flight_number: str | None = None) -> str | None:
    """What the run is about in a few characters: 'EY123', 'AUH', 'A6-BLA', 'EY101 captain'."""
    if disruption is None:
        return flight_number
    scope = disruption.scope
    flights = ", ".join(scope.flight_numbers) or flight_number
    return {
        "flight": flights,
        "crew_member": f"{flights} {(scope.crew_position or 'crew').replace('_', ' ').lower()}" if flights else None,
        "tail": scope.registration,
        "airport": scope.airport,
        "airspace": scope.airspace or scope.airport,
    }.get(scope.kind, flights)


def _first_line(text: str | None) -> str | None:
    if not text:
        return None
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= REPORT_CHARS else line[: REPORT_CHARS - 1] + "…"


def _cause(cause: str | None) -> str | None:
    """A failed execution's cause in words: a Lambda error's message, not its JSON envelope."""
    try:
        said = json.loads(cause or "")
    except ValueError:
        return _first_line(cause)
    return _first_line(said.get("errorMessage") if isinstance(said, dict) else cause) or _first_line(cause)


def _validated(wf: Any, described: dict, output: dict | None) -> dict:
    if output and isinstance(output.get("request"), dict):
        return output["request"]
    request = json.loads(described.get("input") or "{}")
    if described.get("status") != "RUNNING" or not request.get("disruption_id"):
        return {}
    return wf.store.get(run_key(request["disruption_id"], described["name"], "request")) or {}


def run_line(wf: Any, execution: dict) -> RunLine:
    """One run's line, from its description (and, while it runs, its pending decision and validated request)."""
    return run_record(wf, execution)[0]


def run_record(wf: Any, execution: dict) -> tuple[RunLine, dict]:
    """One run's line and the validated request it was read from ({} before Validate or when it refused the
    report): the operation board pins a run by the request's disruption and flight."""
    name, status = execution["name"], execution["status"]
    described = wf.describe(name)
    described.setdefault("name", name)
    output = json.loads(described["output"]) if described.get("output") else None
    validated = _validated(wf, described, output)
    request = json.loads(described.get("input") or "{}")
    disruption = Disruption.model_validate(validated["disruption"]) if validated.get("disruption") else None
    detail: str | None = None
    if status == "RUNNING":
        outcome: RunOutcome = "awaiting_decision" if wf.pending(name) else "running"
    elif status == "SUCCEEDED":
        ended = (output or {}).get("outcome") or {}
        said = ended.get("status")
        outcome = said if said in ("executed", "rejected", "escalated", "failed") else "failed"
        detail = ended.get("message") or None
    elif described.get("error") in REFUSED_ERRORS:
        outcome, detail = "refused", _cause(described.get("cause"))
    else:
        outcome = "failed"
        detail = _cause(described.get("cause")) or described.get("error") or status.lower().replace("_", " ")
    line = RunLine(
        disruption_id=name,
        outcome=outcome,
        outcome_text=OUTCOME_WORDS[outcome],
        subject=subject_of(disruption, validated.get("flight_number")),
        report=_first_line(validated.get("prompt") or request.get("prompt")),
        detail=detail,
        status=status,
        started_at=execution["startDate"],
        stopped_at=execution.get("stopDate"),
    )
    return line, validated


def run_lines(wf: Any, *, limit: int = 50, status: str | None = None) -> list[RunLine]:
    """The newest runs, those awaiting a decision first, then newest first."""
    lines = [run_line(wf, e) for e in wf.executions(limit=limit, status=status)]
    return sorted(lines, key=lambda r: (r.outcome != "awaiting_decision", -r.started_at.timestamp()))
