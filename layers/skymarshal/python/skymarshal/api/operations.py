"""GET /operations?day=: the operation board (issue 50), the console's landing view. Anyone signed in may read it.

The board is assembled in the library (views.board) from rows read through the GSIs (views.board_data) and the
runs (views.board_runs); its header is the day replay's scorecard over the day as the tables hold it now.
`start` and `end` page it by time window (the header stays the whole day's).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Query

from ..data import queries as q
from ..data.access import DataHandle
from ..data.loader import bulk_allocation
from ..intake.when import configured_ops_date
from ..views.board import assemble
from ..views.board_data import live_day, read_board_rows
from ..views.board_models import OperationBoard
from ..views.board_runs import runs_on_board
from ..workflow.runs.client import WorkflowClient

LONGEST_WINDOW = timedelta(hours=48)


def _utc(t: datetime) -> datetime:
    return t.astimezone(UTC) if t.tzinfo else t.replace(tzinfo=UTC)  # a time without a zone is UTC, as on the board


def board_window(day: date, start: datetime | None, end: datetime | None) -> tuple[datetime, datetime]:
    """The window drawn: the UTC day unless `start`/`end` page it; ValueError, in one line, for a bad one."""
    start = _utc(start) if start else datetime.combine(day, time(0), UTC)
    end = _utc(end) if end else start + timedelta(days=1)
    if end <= start:
        raise ValueError(f"end {end:%Y-%m-%dT%H:%MZ} is not after start {start:%Y-%m-%dT%H:%MZ}")
    if end - start > LONGEST_WINDOW:
        raise ValueError(f"a window is at most {LONGEST_WINDOW.total_seconds() / 3600:.0f} hours: page it")
    return start, end


def default_day(handle: DataHandle, today: date | None = None) -> date:
    """The day the board opens on: the configured operating day, else today — or the data's first day where it
    starts later (a generated airline run locally), as a report's "today" is read."""
    today = today or datetime.now(UTC).date()
    configured = configured_ops_date()
    if configured is not None:
        return configured
    first = q.first_day(handle)
    return first if first is not None and today < first else today


def operation_board(wf: WorkflowClient, day: date, start: datetime, end: datetime) -> OperationBoard:
    handle = DataHandle(naming=wf.tables.naming, resource=wf.tables.resource)
    # a day's thousands of rows make no cycles; the collector walking them took about 0.15 s of a 1 s board
    with bulk_allocation():
        rows = read_board_rows(handle, day, start, end)
        runs = runs_on_board(wf)
        original_tails = {fid: tail for run in runs for fid, tail in run.swaps.items()}
        live = live_day(handle, rows, original_tails)
        return assemble(rows, runs, live)


def operations_router(
    *, read: list[Callable], security: list[dict[str, list[str]]], client: Callable[[], WorkflowClient]
) -> Router:
    """The route, with app.py's role checks and client passed in (app.py includes the router)."""
    router = Router()

    @router.get(
        "/operations",
        middlewares=read,
        security=security,
        summary="The operation board of a day: every tail with its flights, blocks and crew shortfalls, the open "
        "disruptions, closures and capacity cuts, and the day's live figures (the replay's scorecard)",
    )
    def get_operations(
        day: Annotated[
            date | None,
            Query(
                description="the operating day, YYYY-MM-DD (UTC); default SKYMARSHAL_OPS_DATE, else today, or "
                "the data's first day where it starts later"
            ),
        ] = None,
        start: Annotated[
            datetime | None, Query(description="page: the window's start (default the day's 00:00Z)")
        ] = None,
        end: Annotated[datetime | None, Query(description="page: the window's end (default 24 h after start)")] = None,
    ) -> OperationBoard:
        wf = client()
        day = day or default_day(DataHandle(naming=wf.tables.naming, resource=wf.tables.resource))
        try:
            window = board_window(day, start, end)
        except ValueError as exc:
            raise BadRequestError(f"start/end: {exc}") from None
        return operation_board(wf, day, *window)

    return router
