"""The API Lambda: API Gateway (REST, Cognito authorizer) → the duty manager API's resolver (skymarshal.api.app).

Thin: Powertools Logger with the API Gateway request id as correlation id, and Tracer; the routes, roles,
validation and errors are the resolver's.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger, Tracer
from aws_lambda_powertools.logging import correlation_paths

from ..api.app import handle
from ..api.body_limit import max_body_bytes

# A bad SKYMARSHAL_MAX_BODY_BYTES fails the function's start with its one line in the log (as it stops `serve`),
# rather than every request later.
max_body_bytes()

SERVICE = "skymarshal-api"
logger = Logger(service=SERVICE)
tracer = Tracer(service=SERVICE)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_REST, log_event=False)
@tracer.capture_lambda_handler
def handler(event: dict, context: Any) -> dict:
    return handle(event, context)
