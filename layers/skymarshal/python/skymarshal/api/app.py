"""The duty manager API: Powertools' REST resolver with validation and an OpenAPI document.

The same resolver answers API Gateway in AWS (functions/api/handler.py) and `skymarshal serve` locally
(api/server.py turns each HTTP request into the REST proxy event API Gateway would send). Every route
but the OpenAPI document needs a caller; deciding needs the DutyManager group. Errors are JSON
`{"statusCode", "message"}`: 400 names the field, 401/403 say who may, 404 an unknown run, 409 a run that
is not (or no longer) waiting for a decision.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import (
    BadRequestError,
    ForbiddenError,
    NotFoundError,
    UnauthorizedError,
)
from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer, Server
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from ..views.gantt_data import NoFlight
from ..views.gantt_models import GanttView
from ..views.run_list import RunLine, run_lines
from ..workflow.alerts import Alert, latest_alerts
from ..workflow.models import ApprovalDecision
from ..workflow.runs.client import WorkflowClient
from ..workflow.settings import StoredSettings
from . import models as m
from .body_limit import max_body_bytes, too_large_message
from .corrections import StartWithFacts, corrections_router
from .errors import install_error_handlers
from .history import history_router
from .messages import messages_router
from .operations import operations_router
from .plans import gantt_view
from .replays import replays_router
from .roles import DECIDERS, READERS, Caller, Role, caller_from_claims
from .views import decision_view, exclusion_ids, run_progress

TITLE, VERSION = "SkyMarshal duty manager API", "1.0.0"
API_BASE = "/api"  # on the console's origin: `skymarshal serve` locally, CloudFront in AWS
SECURITY: list[dict[str, list[str]]] = [{"cognito": []}]
log = logging.getLogger("skymarshal.api")
# In AWS, CloudFront serves the API under /api on the console's own domain (no CORS), hence the prefix.
app = APIGatewayRestResolver(enable_validation=True, strip_prefixes=[API_BASE])
_client_factory: Callable[[], WorkflowClient] = WorkflowClient.from_env
_client: WorkflowClient | None = None


def configure(factory: Callable[[], WorkflowClient]) -> None:
    """Where the routes get their WorkflowClient (the local server and tests pass their account's)."""
    global _client_factory, _client
    _client_factory, _client = factory, None


def client() -> WorkflowClient:
    global _client
    _client = _client or _client_factory()
    return _client


def caller() -> Caller | None:
    claims = (app.current_event.get("requestContext") or {}).get("authorizer", {}) or {}
    return caller_from_claims(claims.get("claims"))


def signed_in() -> Caller:
    """The caller of a route behind ``require`` (which has already answered 401 when there is none)."""
    who = caller()
    if who is None:
        raise UnauthorizedError("sign in: the request carries no valid identity token")
    return who


def require(*roles: Role):
    """Route middleware: 401 without a caller, 403 unless the caller has one of the roles."""
    allowed = ", ".join(r.value for r in roles)

    def middleware(resolver: APIGatewayRestResolver, next_middleware) -> Response:
        who = caller()
        if who is None:
            raise UnauthorizedError("sign in: the request carries no valid identity token")
        if not who.roles & set(roles):
            held = ", ".join(sorted(r.value for r in who.roles)) or "no SkyMarshal group"
            raise ForbiddenError(f"{who.username} ({held}) may not do this: it needs {allowed}")
        return next_middleware(resolver)

    return middleware


READ, DECIDE, CONFIGURE = [require(*READERS)], [require(*DECIDERS)], [require(Role.ADMIN)]


install_error_handlers(app)


# ------------------------------------------------------------------------------------------- routes


@app.get("/openapi.json", include_in_schema=False)
def openapi():
    return Response(status_code=200, content_type=content_types.APPLICATION_JSON, body=openapi_document(API_BASE))


@app.post(
    "/disruptions",
    middlewares=DECIDE,
    security=SECURITY,
    summary="Report a disruption (starts a run)",
    responses={202: {"description": "started", "content": {"application/json": {"model": m.Started}}}},
)
def start_disruption(body: Annotated[StartWithFacts, Body()]) -> Response[m.Started]:
    started = client().start(
        body.prompt,
        disruption_id=body.disruption_id,
        requested_by=signed_in().name,
        source="api",
        ops_date=body.ops_date,
        facts={key: str(value) for key, value in body.facts.items()},
    )
    payload = m.Started(
        disruption_id=started["disruption_id"], execution_name=started["execution_name"], started=started["started"]
    )
    return Response(status_code=202, content_type=content_types.APPLICATION_JSON, body=payload)


@app.get(
    "/disruptions",
    middlewares=READ,
    security=SECURITY,
    summary="The latest runs by what happened (awaiting your decision first, then newest); by Step Functions status",
)
def list_disruptions(
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    status: Annotated[str | None, Query(pattern="^(RUNNING|SUCCEEDED|FAILED|TIMED_OUT|ABORTED)$")] = None,
) -> list[RunLine]:
    return run_lines(client(), limit=limit, status=status)


@app.get("/disruptions/<disruption_id>", middlewares=READ, security=SECURITY, summary="Status and phase progress")
def get_disruption(disruption_id: str) -> m.RunProgress:
    return run_progress(client(), disruption_id)


@app.get(
    "/disruptions/<disruption_id>/decision",
    middlewares=READ,
    security=SECURITY,
    summary="The arbitrator's decision: the top three plans with explanations",
)
def get_decision(disruption_id: str) -> m.DecisionView:
    wf = client()
    wf.describe(disruption_id)
    output = wf.decision(disruption_id)
    if output is None:
        raise NotFoundError(f"run {disruption_id!r} has no decision yet: see GET /disruptions/{disruption_id}")
    pending = wf.pending(disruption_id)
    attempt = json.loads(pending["decision"]).get("attempt") if pending else None
    view = decision_view(disruption_id, output, awaiting_approval=pending is not None, attempt=attempt)
    # the decision stays readable once taken, marked with what was chosen and by whom
    return view if pending else view.model_copy(update={"decided": wf.decided(disruption_id)})


@app.get(
    "/disruptions/<disruption_id>/gantt",
    middlewares=READ,
    security=SECURITY,
    summary="Before/after Gantt of each ranked plan (tails and crews), the constraining windows, the plans' figures",
)
def get_gantt(disruption_id: str) -> GanttView:
    wf = client()
    wf.describe(disruption_id)
    output = wf.decision(disruption_id)
    if output is None:
        raise NotFoundError(f"run {disruption_id!r} has no decision yet: see GET /disruptions/{disruption_id}")
    try:
        return gantt_view(wf, disruption_id, output)
    except NoFlight as exc:
        raise NotFoundError(f"run {disruption_id!r}: {exc}") from None


@app.post(
    "/disruptions/<disruption_id>/approve",
    middlewares=DECIDE,
    security=SECURITY,
    summary="Approve a ranked plan (rank 1 when no scenario_id)",
)
def approve(disruption_id: str, body: Annotated[m.Approve, Body()]) -> m.DecisionRecorded:
    return _decide(disruption_id, action="approve", scenario_id=body.scenario_id, comment=body.comment)


@app.post(
    "/disruptions/<disruption_id>/override",
    middlewares=DECIDE,
    security=SECURITY,
    summary="Select another plan, request alternatives, abort (a reason is mandatory), or exclude flights from a "
    "network decision (a reason for each)",
)
def override(disruption_id: str, body: Annotated[m.Override, Body()]) -> m.DecisionRecorded:
    action = {"select": "select", "alternatives": "alternatives", "abort": "reject", "exclude": "exclude"}[body.action]
    flights = _exclusions(disruption_id, body.excluded_flights) if action == "exclude" else {}
    return _decide(
        disruption_id,
        action=action,
        scenario_id=body.scenario_id,
        comment=body.reason,
        instruction=body.instruction,
        **({"excluded_flights": flights} if flights else {}),
    )


@app.post(
    "/disruptions/<disruption_id>/retry",
    middlewares=DECIDE,
    security=SECURITY,
    summary="Retry an escalated run: only the agents that failed run again, the others' answers are reused",
    responses={202: {"description": "started", "content": {"application/json": {"model": m.Started}}}},
)
def retry(disruption_id: str) -> Response[m.Started]:
    started = client().retry(disruption_id)  # NotRetryable → 409
    log.info("retry of %s started by %s: %s", disruption_id, signed_in().name, started["execution_name"])
    payload = m.Started(
        disruption_id=started["disruption_id"], execution_name=started["execution_name"], started=started["started"]
    )
    return Response(status_code=202, content_type=content_types.APPLICATION_JSON, body=payload)


@app.get(
    "/disruptions/<disruption_id>/audit",
    middlewares=READ,
    security=SECURITY,
    summary="The audit export: prompt, rounds, decisions, approvals, actions, hash chain and its verification",
)
def get_audit(disruption_id: str) -> dict[str, Any]:
    return json.loads(json.dumps(client().audit(disruption_id), default=str))


@app.get(
    "/disruptions/<disruption_id>/audit/verify",
    middlewares=READ,
    security=SECURITY,
    summary="Check the audit hash chain and its KMS-signed head",
)
def verify_audit(disruption_id: str) -> dict[str, Any]:
    return client().verify(disruption_id).model_dump(mode="json")


@app.get("/alerts", middlewares=READ, security=SECURITY, summary="Duty-manager alerts of escalated runs, newest first")
def list_alerts(limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[Alert]:
    return [served_here(a) for a in latest_alerts(tables=client().tables, limit=limit)]


LOCAL_CONSOLE = re.compile(r"^http://(127\.0\.0\.1|localhost)(:\d+)?/")


def served_here(alert: Alert) -> Alert:
    """A local run's link opens the console answering now (`serve --port N`), not the default port the run was
    raised with; a deployed console's link is left as it is."""
    host = (app.current_event.headers or {}).get("host")
    local = LOCAL_CONSOLE.match(alert.console_link)
    if not host or not local or not re.fullmatch(r"(127\.0\.0\.1|localhost)(:\d+)?", host):
        return alert
    return alert.model_copy(update={"console_link": f"http://{host}/{alert.console_link[local.end() :]}"})


@app.get("/settings", middlewares=READ, security=SECURITY, summary="Run settings (version 0: the deployment's)")
def get_settings() -> StoredSettings:
    from ..workflow.settings import load
    from ..workflow.steps.validate import environment_settings

    wf = client()
    return load(tables=wf.tables) or StoredSettings(**environment_settings().model_dump(), version=0)


@app.put(
    "/settings",
    middlewares=CONFIGURE,
    security=SECURITY,
    summary="Change the run settings (Admin); send the version you read, 409 if it moved on",
)
def put_settings(body: Annotated[m.SettingsChange, Body()]) -> StoredSettings:
    from ..workflow.settings import save

    wf = client()
    return save(body.settings(), expected_version=body.version, actor=signed_in().name, tables=wf.tables)


def _exclusions(disruption_id: str, wanted: dict[str, str]) -> dict[str, str]:
    """The exclusions keyed by flight id, checked against the pending decision's tables: a flight in none of them
    is a 400 here rather than a refusal one arbitration later."""
    wf = client()
    wf.describe(disruption_id)  # 404 before 400
    if wf.pending(disruption_id) is None:
        return wanted  # nothing waits for an answer: _decide says so (409)
    try:
        return exclusion_ids((wf.decision(disruption_id) or {}).get("network"), wanted)
    except ValueError as exc:
        raise BadRequestError(f"excluded_flights: {exc}") from None


def _decide(disruption_id: str, **answer: Any) -> m.DecisionRecorded:
    who = signed_in()
    wf = client()
    wf.describe(disruption_id)  # 404 before 409
    try:
        decision = ApprovalDecision(decided_by=who.name, **answer)
    except ValueError as exc:
        raise BadRequestError(str(exc)) from None
    recorded = wf.decide(disruption_id, decision)
    return m.DecisionRecorded(
        disruption_id=disruption_id,
        **{k: recorded.get(k) for k in ("action", "scenario_id", "decided_by", "decided_at", "comment", "instruction")},
        excluded_flights=recorded.get("excluded_flights") or {},
    )


# ------------------------------------------------------------------------------------------- views


def openapi_document(server_url: str | None = None) -> str:
    """The API's OpenAPI 3.1 document; `server_url` is where it is served."""
    return app.get_openapi_json_schema(
        title=TITLE,
        version=VERSION,
        servers=[Server(url=server_url)] if server_url else None,
        description="Approve or override SkyMarshal's recovery plans. Sign in with Cognito (groups DutyManager, "
        "Observer, Admin) and send the ID token as a Bearer token.",
        security_schemes={"cognito": HTTPBearer(bearerFormat="JWT")},
    )


app.include_router(corrections_router(decide=DECIDE, security=SECURITY, client=client, signed_in=signed_in))
app.include_router(history_router(read=READ, decide=DECIDE, security=SECURITY, client=client, signed_in=signed_in))
app.include_router(messages_router(read=READ, security=SECURITY, client=client))
app.include_router(replays_router(read=READ, security=SECURITY, client=client))
app.include_router(operations_router(read=READ, security=SECURITY, client=client))


def handle(event: dict, context: Any) -> dict:
    body = event.get("body") or ""
    limit = max_body_bytes()
    # API Gateway's own 413 at its 10 MB; a lower configured limit holds here (a character is at most 4 bytes)
    if len(body) * 4 > limit and len(body.encode("utf-8", errors="replace")) > limit:
        return {
            "statusCode": 413,
            "headers": {"Content-Type": content_types.APPLICATION_JSON},
            "body": json.dumps({"statusCode": 413, "message": too_large_message(limit)}),
            "isBase64Encoded": False,
        }
    return app.resolve(event, context)
