"""Finding: the one typed result every rule returns, and the constraint text built from it.

A finding says what was checked (``rule``), under which clause, about whom (``subject``), whether it is
``legal``, ``at_risk`` (legal, but the margin is under the caller's threshold) or ``illegal``, and how far
from the limit it is. Illegal safety findings are ``binding``: the arbitrator rejects any plan that
violates one, whatever an LLM argues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Status = Literal["legal", "at_risk", "illegal"]
DEFAULT_AT_RISK_MINUTES = 60  # a legal result with less margin than this is reported as at_risk
_SEVERITY: dict[str, int] = {"legal": 0, "at_risk": 1, "illegal": 2}


class Finding(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str  # short id, e.g. "crew.max_fdp"
    clause: str  # the regulation / source actually applied, e.g. "ORO.FTL.205(b)(1)"
    status: Status
    binding: bool = False  # an illegal safety finding: a hard constraint on every plan
    subject: str  # crew id, registration, airport, flight id
    margin_minutes: int | None = None  # limit minus actual, in minutes (negative: over the limit)
    limit: float | None = None
    actual: float | None = None
    unit: str | None = None  # unit of limit and actual: "minutes", "kt", "m", "ft", "landings", ...
    message: str  # one human sentence
    details: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _binding_only_when_illegal(self) -> Finding:
        if self.binding and self.status != "illegal":
            raise ValueError("only an illegal finding can be binding")
        if (self.limit is not None or self.actual is not None) and self.unit is None:
            raise ValueError("limit/actual need a unit")
        return self

    @property
    def is_legal(self) -> bool:
        """Legal or at_risk: nothing forbids it."""
        return self.status != "illegal"


def status_for_margin(margin_minutes: float, at_risk_minutes: float = DEFAULT_AT_RISK_MINUTES) -> Status:
    """``illegal`` below zero, ``at_risk`` under the threshold, else ``legal``."""
    if margin_minutes < 0:
        return "illegal"
    if margin_minutes < at_risk_minutes:
        return "at_risk"
    return "legal"


def measured(
    *,
    rule: str,
    clause: str,
    subject: str,
    limit: int,
    actual: int,
    bound: str,
    message: Callable[[int], str],
    details: dict[str, Any] | None = None,
    at_risk_minutes: float = DEFAULT_AT_RISK_MINUTES,
) -> Finding:
    """A finding from a limit in minutes and the measured value: ``bound`` "max" (actual must not exceed the
    limit, e.g. an FDP) or "min" (actual must reach it, e.g. rest). ``message(margin)`` words the result."""
    margin = limit - actual if bound == "max" else actual - limit
    status = status_for_margin(margin, at_risk_minutes)
    return Finding(
        rule=rule,
        clause=clause,
        status=status,
        binding=status == "illegal",
        subject=subject,
        margin_minutes=margin,
        limit=limit,
        actual=actual,
        unit="minutes",
        message=message(margin),
        details=details or {},
    )


def worst_status(findings: Iterable[Finding]) -> Status:
    return max((f.status for f in findings), key=_SEVERITY.__getitem__, default="legal")


def binding_constraints(findings: Iterable[Finding]) -> list[Finding]:
    return [f for f in findings if f.binding]


def constraint_text(finding: Finding) -> str:
    """One line an arbitrator (or a prompt) can carry: rule, clause, subject, the numbers, the sentence.

    Raises ValueError for a finding that is not illegal: only illegal findings constrain a plan.
    """
    if finding.status != "illegal":
        raise ValueError(f"{finding.rule} for {finding.subject} is {finding.status}, not a constraint")
    kind = "BINDING" if finding.binding else "ADVISORY"
    numbers = ""
    if finding.limit is not None and finding.actual is not None:
        numbers = f" (limit {_num(finding.limit)} {finding.unit}, actual {_num(finding.actual)} {finding.unit})"
    over = f", over by {-finding.margin_minutes} min" if finding.margin_minutes is not None else ""
    return f"{kind} {finding.rule} [{finding.clause}] {finding.subject}: {finding.message}{numbers}{over}"


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
