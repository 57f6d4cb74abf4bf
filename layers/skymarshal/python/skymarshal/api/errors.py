"""The API's refusals as answers: each known error a status and its one line, anything else a logged 500 without a
traceback (installed on the resolver by api/app.py)."""

from __future__ import annotations

import json
import logging
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import ServiceError
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from botocore.exceptions import ClientError

from ..workflow.approvals import ApprovalError, NoPendingApproval, UnknownScenario
from ..workflow.runs.client import RunNotFound
from ..workflow.runs.retry import NotRetryable
from ..workflow.settings import SettingsConflict

log = logging.getLogger("skymarshal.api")


def install_error_handlers(app: APIGatewayRestResolver) -> None:
    """Register the refusals on `app`."""

    @app.exception_handler(RequestValidationError)
    def _invalid_request(exc: RequestValidationError):
        first = exc.errors()[0]
        loc = [str(p) for p in first.get("loc", ())]
        if loc[:1] == ["response"]:  # our answer broke its own schema: a bug, not the caller's fault
            log.error(
                "response failed its schema on %s %s: %s",
                app.current_event.http_method,
                app.current_event.path,
                exc.errors()[:3],
            )
            return _error(500, "the API produced an invalid response; it has been logged")
        if first.get("type") == "json_invalid":
            return _error(400, "body: not valid JSON; send a JSON object")
        where = ".".join(p for p in loc if p != "body") or "body"
        return _error(400, f"{where}: {first.get('msg', 'invalid')}")

    @app.exception_handler(SettingsConflict)
    def _stale_settings(exc: SettingsConflict) -> Response:
        return _error(409, str(exc))

    @app.exception_handler(RunNotFound)
    def _unknown_run(exc: RunNotFound) -> Response:
        return _error(404, str(exc))

    @app.exception_handler(NotRetryable)
    def _not_retryable(exc: NotRetryable) -> Response:
        return _error(409, str(exc))

    @app.exception_handler(ApprovalError)
    def _refused(exc: ApprovalError) -> Response:
        status = 400 if isinstance(exc, UnknownScenario) else 409
        if isinstance(exc, NoPendingApproval):
            exc = NoPendingApproval(f"{exc}: the run is not waiting for a decision")
        return _error(status, str(exc))

    @app.exception_handler(ServiceError)
    def _refusal(exc: ServiceError) -> Response:  # 400/401/403/404 raised by the routes and the role check
        return _error(exc.status_code, exc.msg)

    @app.exception_handler(ClientError)
    def _aws_refused(exc: ClientError) -> Response:
        """Step Functions refusing a new run (its execution limit in AWS, the local AWS short of memory): 503 with its
        line, the caller may retry later. Any other AWS error is ours to fix."""
        error = exc.response.get("Error", {})
        if error.get("Code") == "ExecutionLimitExceeded":
            return _error(503, error.get("Message") or "no new run can start now: retry later")
        return _unexpected(exc)

    @app.exception_handler(Exception)
    def _unexpected(exc: Exception) -> Response:
        """Anything else is ours to fix: logged with its traceback, never shown to the caller."""
        log.exception("unhandled error on %s %s", app.current_event.http_method, app.current_event.path)
        return _error(500, f"internal error ({type(exc).__name__}); it has been logged — retry, or see the API's logs")


def _error(status: int, message: str | dict[str, Any]) -> Response:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps({"statusCode": status, "message": message}),
    )
