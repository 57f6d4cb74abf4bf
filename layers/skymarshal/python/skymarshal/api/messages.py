"""What a run's decision sends (issue 36): before approval, what each of the top three plans would send (its ASM and
MVT messages and its contact list, from the tables now, as Execute will read them); once executed, what was sent
(the run's messages artifact). Anyone signed in may read it."""

from __future__ import annotations

import json
from collections.abc import Callable

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from pydantic import BaseModel, Field

from ..data.access import DataHandle
from ..messages.models import PlanMessages
from ..workflow.execution.outbox import ARTIFACT, preview
from ..workflow.payloads import run_key
from ..workflow.runs.client import WorkflowClient


class MessagesView(BaseModel):
    disruption_id: str
    sent: PlanMessages | None = Field(None, description="what Execute sent for the approved plan, once executed")
    plans: list[PlanMessages] = Field(
        default_factory=list, description="before execution: what each of the top three plans would send, best first"
    )


def messages_view(wf: WorkflowClient, name: str) -> MessagesView:
    request = json.loads(wf.describe(name).get("input") or "{}")  # an unknown run is a 404
    disruption_id = request.get("disruption_id", name)
    sent = wf.store.get(run_key(disruption_id, name, ARTIFACT))
    if sent is not None:  # the tables have moved on: what was sent is the answer
        return MessagesView(disruption_id=name, sent=PlanMessages.model_validate(sent))
    output = wf.decision(name)
    if output is None:
        raise NotFoundError(f"run {name!r} has no decision yet: see GET /disruptions/{name}")
    handle = DataHandle(naming=wf.tables.naming, resource=wf.tables.resource)
    return MessagesView(disruption_id=name, plans=preview(output, handle))


def messages_router(
    *, read: list[Callable], security: list[dict[str, list[str]]], client: Callable[[], WorkflowClient]
) -> Router:
    """The route, with app.py's role checks and client passed in (app.py includes the router)."""
    router = Router()

    @router.get(
        "/disruptions/<disruption_id>/messages",
        middlewares=read,
        security=security,
        summary="What the decision sends: each top plan's ASM/MVT messages and contact list, or what was sent",
    )
    def get_messages(disruption_id: str) -> MessagesView:
        return messages_view(client(), disruption_id)

    return router
