"""The duty manager's corrections of what a report was read as: `facts` beside a new report (POST /disruptions), and
a run analysed again with its facts corrected (POST /disruptions/{id}/correct, what the console's facts panel
sends). The values are checked here, one line per bad value (400); Validate checks them against the data."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import BadRequestError, ServiceError
from aws_lambda_powertools.event_handler.openapi.params import Body
from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..models.corrections import CORRECTION_KEYS, CorrectionRefused, checked_facts
from ..workflow.runs.client import WorkflowClient
from ..workflow.runs.correction import RunStillAnalysing, correct_run
from . import models as m
from .roles import Caller

log = logging.getLogger("skymarshal.api")
FACTS_HELP = (
    f"corrections of what the report is read as, KEY → VALUE; keys: {', '.join(CORRECTION_KEYS)} "
    "(e.g. {'code': '36', 'duration': '120'}); checked against the data like the report's own facts"
)


def _checked(value: object) -> object:
    if isinstance(value, dict):
        try:
            return checked_facts(value)
        except CorrectionRefused as exc:
            raise ValueError(str(exc)) from None
    return value


class StartWithFacts(m.StartDisruption):
    """A new report, with the facts the duty manager already knows it will be misread on."""

    facts: dict[str, str | int] = Field(default_factory=dict, max_length=len(CORRECTION_KEYS), description=FACTS_HELP)

    @field_validator("facts", mode="before")
    @classmethod
    def _checked_facts(cls, value: object) -> object:
        return _checked(value)


class CorrectFacts(BaseModel):
    model_config = ConfigDict(extra="forbid")

    facts: dict[str, str | int] = Field(min_length=1, max_length=len(CORRECTION_KEYS), description=FACTS_HELP)

    @field_validator("facts", mode="before")
    @classmethod
    def _checked_facts(cls, value: object) -> object:
        return _checked(value)


def corrections_router(
    *,
    decide: list[Callable],
    security: list[dict[str, list[str]]],
    client: Callable[[], WorkflowClient],
    signed_in: Callable[[], Caller],
) -> Router:
    """The correction route, with app.py's role checks and client passed in (app.py includes the router)."""
    router = Router()

    @router.post(
        "/disruptions/<disruption_id>/correct",
        middlewares=decide,
        security=security,
        summary="Correct the facts a report was read as: the run is analysed again with them (a waiting run is "
        "rejected first); each correction is in the audit with who made it and what had been read",
        responses={202: {"description": "started", "content": {"application/json": {"model": m.Started}}}},
    )
    def correct(disruption_id: str, body: Annotated[CorrectFacts, Body()]) -> Response[m.Started]:
        who = signed_in()
        try:
            started = correct_run(client(), disruption_id, {k: str(v) for k, v in body.facts.items()}, who.name)
        except CorrectionRefused as exc:
            raise BadRequestError(str(exc)) from None
        except RunStillAnalysing as exc:
            raise ServiceError(409, str(exc)) from None
        log.info("%s corrected %s (%s): %s", who.name, disruption_id, body.facts, started["execution_name"])
        payload = m.Started(
            disruption_id=started["disruption_id"], execution_name=started["execution_name"], started=started["started"]
        )
        return Response(status_code=202, content_type=content_types.APPLICATION_JSON, body=payload)

    return router
