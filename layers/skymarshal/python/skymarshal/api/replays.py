"""The latest day replayed on this account (issue 33): the scorecards `skymarshal replay` kept in the run
artifacts, for the console's Day replay panel. Anyone signed in may read it."""

from __future__ import annotations

from collections.abc import Callable

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError

from ..day.published import LATEST_KEY, ReplayedDay
from ..workflow.runs.client import WorkflowClient


def replays_router(
    *, read: list[Callable], security: list[dict[str, list[str]]], client: Callable[[], WorkflowClient]
) -> Router:
    """The route, with app.py's role checks and client passed in (app.py includes the router)."""
    router = Router()

    @router.get(
        "/replays/latest",
        middlewares=read,
        security=security,
        summary="The latest day replayed: its scorecards (SkyMarshal first) and through-the-day figures",
    )
    def get_latest_replay() -> ReplayedDay:
        kept = client().store.get(LATEST_KEY)
        if kept is None:
            raise NotFoundError("no day has been replayed on this account: run `skymarshal replay STREAM`")
        return ReplayedDay.model_validate(kept)

    return router
