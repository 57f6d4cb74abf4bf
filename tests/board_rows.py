"""The operation board tests' small world (tests/workflow/test_operation_board.py and the console's browser test): a
board assembled by the library from rows built with row_builders, a run as the runs list gives it, a quiet day's
scorecard. Imported as a plain module (the name is unique across tests/)."""

from __future__ import annotations

from datetime import date

from row_builders import flight_duty, utc

from skymarshal.day.realize import DayState
from skymarshal.day.scorecard import score
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.views.board import assemble
from skymarshal.views.board_data import BoardRows, LiveDay
from skymarshal.views.board_runs import RunOnBoard
from skymarshal.views.run_list import RunLine

DAY = date(2027, 1, 20)
START, END = utc(2027, 1, 20), utc(2027, 1, 21)


def full_crew(f, cabin: int | None = None):
    """Two pilots and the cabin crew the test's B789 needs (or `cabin` of them)."""
    n = AIRCRAFT_TYPES[f.aircraft_type].cabin_crew if cabin is None else cabin
    rows = [flight_duty(f"C{f.flight_id}P1", f, "CPT"), flight_duty(f"C{f.flight_id}P2", f, "FO")]
    return rows + [flight_duty(f"C{f.flight_id}K{i}", f, "CA") for i in range(n)]


def quiet_card(flights):
    state = DayState(
        flights={f.flight_id: f for f in flights},
        bookings=[],
        crew_on={},
        rosters={},
        members={},
        original_tails={f.flight_id: f.aircraft_registration for f in flights},
        min_connection_minutes={},
    )
    return score("live", state, [], [DAY])


def run(
    run_id: str, outcome: str = "awaiting_decision", disruption=None, flight_id=None, swaps=None, subject="EY123"
) -> RunOnBoard:
    line = RunLine(
        disruption_id=run_id,
        outcome=outcome,
        outcome_text=outcome.replace("_", " "),
        subject=subject,
        report="report",
        detail=None,
        status="RUNNING" if outcome in ("awaiting_decision", "running") else "SUCCEEDED",
        started_at=utc(2026, 12, 3, 9),
    )
    return RunOnBoard(line, disruption, flight_id, swaps or {})


def board(flights, runs=(), availability=(), orders=None, crew=None, illegal=None):
    crew = crew if crew is not None else {f.flight_id: full_crew(f) for f in flights}
    rows = BoardRows(
        DAY, START, END, list(flights), list(availability), orders or {}, crew, {f.flight_id: f for f in flights}
    )
    return assemble(rows, list(runs), LiveDay(card=quiet_card(flights), crew_illegal=illegal or {}))
