"""A run's history for the console: its checkpointed rounds and threads, and "continue from here" (a new execution
reusing the rounds up to the chosen one). Observers read it; only a duty manager continues a run, with a reason."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import BadRequestError
from aws_lambda_powertools.event_handler.openapi.params import Body
from pydantic import BaseModel, ConfigDict, Field

from ..views.run_history import RunHistory, run_history
from ..workflow.runs.client import WorkflowClient
from ..workflow.runs.reuse import CheckpointRefused
from . import models as m
from .roles import Caller

log = logging.getLogger("skymarshal.api")


class ContinueRun(BaseModel):
    model_config = ConfigDict(extra="forbid")

    from_round: Literal["initial", "revision"] = Field(
        description="the checkpointed round to continue from: it and the rounds before it are reused"
    )
    reason: str = Field(min_length=1, max_length=2000, description="why the run is continued (mandatory)")


def history_router(
    *,
    read: list[Callable],
    decide: list[Callable],
    security: list[dict[str, list[str]]],
    client: Callable[[], WorkflowClient],
    signed_in: Callable[[], Caller],
) -> Router:
    """The routes, with app.py's role checks and client passed in (app.py includes the router)."""
    router = Router()
    READ, DECIDE, SECURITY = read, decide, security

    @router.get(
        "/disruptions/<disruption_id>/history",
        middlewares=READ,
        security=SECURITY,
        summary="The run's checkpointed rounds and every thread's ordered records (agent, phase, confidence)",
    )
    def get_history(disruption_id: str) -> RunHistory:
        return run_history(client(), disruption_id)

    @router.post(
        "/disruptions/<disruption_id>/continue",
        middlewares=DECIDE,
        security=SECURITY,
        summary="Continue from a checkpointed round: a new run reuses it and the rounds before, the rest runs again",
        responses={202: {"description": "started", "content": {"application/json": {"model": m.Started}}}},
    )
    def continue_run(disruption_id: str, body: Annotated[ContinueRun, Body()]) -> Response[m.Started]:
        who = signed_in()
        try:
            started = client().continue_from(disruption_id, body.from_round, requested_by=who.name)
        except (ValueError, CheckpointRefused) as exc:
            raise BadRequestError(str(exc)) from None
        log.info(
            "%s continued %s from its %s round (%s): %s",
            who.name,
            disruption_id,
            body.from_round,
            body.reason,
            started["execution_name"],
        )
        payload = m.Started(
            disruption_id=started["disruption_id"], execution_name=started["execution_name"], started=started["started"]
        )
        return Response(status_code=202, content_type=content_types.APPLICATION_JSON, body=payload)

    return router
