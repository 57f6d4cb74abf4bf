"""The runs the operation board shows: the open ones as markers (waiting for a decision or still running), every
run's airport window as a band, and the tails executed plans swapped — read from the workflow (the runs list, each
run's validated request and, for an executed run, the plan the duty manager chose), never from a guess."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..arbitration.actions import SwapAircraft
from ..arbitration.models import ArbitratorOutput
from ..models.disruption import Disruption
from .run_list import RunLine, run_record

OPEN_OUTCOMES = frozenset({"awaiting_decision", "running"})
RUNS_READ = 50  # the newest runs the board looks at (the runs list's default)


@dataclass(frozen=True)
class RunOnBoard:
    line: RunLine
    disruption: Disruption | None  # None: the report was refused before it became a disruption
    flight_id: str | None = None  # a flight-scope report's flight
    swaps: dict[str, str] = field(default_factory=dict)  # an executed plan's swaps: flight id → the tail it left

    @property
    def open(self) -> bool:
        return self.line.outcome in OPEN_OUTCOMES


def executed_swaps(output: ArbitratorOutput, scenario_id: str | None) -> dict[str, str]:
    """The swaps of the plan the duty manager chose (rank 1 when the answer named none): flight id → the tail it was
    on. A network plan's swaps are its per-flight table's tail_swap rows."""
    chosen = scenario_id or next((r.scenario.scenario_id for r in output.ranked if r.rank == 1), None)
    out: dict[str, str] = {}
    for ranked in output.ranked:
        if ranked.scenario.scenario_id == chosen:
            out |= {a.flight_id: a.from_registration for a in ranked.scenario.actions if isinstance(a, SwapAircraft)}
    for validated in output.network.plans if output.network else ():
        if validated.plan.plan_id == chosen:
            out |= {a.flight_id: a.registration for a in validated.plan.actions if a.action == "tail_swap"}
    return out


def runs_on_board(wf: Any, limit: int = RUNS_READ) -> list[RunOnBoard]:
    """The newest runs with what the board needs of each (Step Functions and the artifacts, not DynamoDB scans)."""
    out = []
    for execution in wf.executions(limit=limit):
        line, validated = run_record(wf, execution)
        if line.outcome == "refused":
            continue
        disruption = Disruption.model_validate(validated["disruption"]) if validated.get("disruption") else None
        swaps: dict[str, str] = {}
        if line.outcome == "executed":
            decided = wf.decided(line.disruption_id) or {}
            output = wf.decision(line.disruption_id)
            if output:
                swaps = executed_swaps(ArbitratorOutput.model_validate(output), decided.get("scenario_id"))
        out.append(RunOnBoard(line, disruption, validated.get("flight_id"), swaps))
    return out
