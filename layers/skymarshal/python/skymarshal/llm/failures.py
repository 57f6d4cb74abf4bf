"""A model call that failed, as a typed reason and one structured log record (Powertools Logger).

Whoever catches a model failure falls back to the rules' own text and says so in its output
(`llm: "offline (fallback: <reason>)"`); this module is where the failure itself is recorded, with the
model, the agent and the stage, so an operator can tell a throttled account from a refused model id.
"""

from __future__ import annotations

import contextvars
import sys
import threading
from logging import StreamHandler
from typing import Literal

from aws_lambda_powertools import Logger

Reason = Literal[
    "model_id_refused",
    "access_denied",
    "throttled",
    "timeout",
    "service_error",
    "malformed_reply",
    "oversized_reply",
    "deadline",
    "other",
]

# stderr: the CLI prints its answers (and --json documents) on stdout; in Lambda both reach CloudWatch.
logger = Logger(service="skymarshal-llm", logger_handler=StreamHandler(sys.stderr))


class ModelDeadline(TimeoutError):
    """The model did not answer within the caller's deadline (the caller stopped waiting)."""


class OversizedReply(ValueError):
    """The model's reply is larger than the caller accepts."""


def classify(exc: BaseException) -> Reason:
    """The typed reason of a model failure, from botocore's error code or the exception's type."""
    from botocore.exceptions import ClientError, ConnectTimeoutError, EndpointConnectionError, ReadTimeoutError

    from .profiles import ModelConfigError

    if isinstance(exc, ModelConfigError):
        return "model_id_refused"
    if isinstance(exc, ModelDeadline):
        return "deadline"
    if isinstance(exc, OversizedReply):
        return "oversized_reply"
    if isinstance(exc, (ReadTimeoutError, ConnectTimeoutError, TimeoutError)):
        return "timeout"
    if isinstance(exc, ClientError):
        code = exc.response.get("Error", {}).get("Code", "")
        message = str(exc.response.get("Error", {}).get("Message", "")).lower()
        if code == "ThrottlingException" or code == "TooManyRequestsException":
            return "throttled"
        if code == "AccessDeniedException":
            return "access_denied"
        if code in ("ValidationException", "ResourceNotFoundException") and (
            "model" in message or "profile" in message
        ):
            return "model_id_refused"
        if code in ("ModelTimeoutException",):
            return "timeout"
        return "service_error"
    if isinstance(exc, EndpointConnectionError):
        return "service_error"
    name = type(exc).__name__
    if name in ("OutputParserException", "ValidationError", "JSONDecodeError", "KeyError", "TypeError", "ValueError"):
        return "malformed_reply"
    return "other"


def record(exc: BaseException, *, model: str, agent: str, stage: str) -> Reason:
    """Log one model failure (reason, model, agent, stage, error) and return its reason."""
    reason = classify(exc)
    detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    logger.warning(
        "model call failed; the rules' text stands",
        extra={"reason": reason, "model": model, "agent": agent, "stage": stage, "error": detail},
    )
    return reason


def is_fallback(llm: str | None) -> bool:
    """An output's `llm` field saying a model failed and the rules' own text stands."""
    return bool(llm) and "(fallback" in str(llm) and str(llm).startswith("offline")


def model_name(llm) -> str:
    return str(getattr(llm, "model_id", None) or type(llm).__name__)


def call_with_deadline(call, seconds: float, name: str = "model-call"):
    """`call()` in a daemon thread; ModelDeadline if it has not returned in `seconds`. The thread is never
    joined: a stuck call must hold neither the caller nor the process's exit (it ends on its own botocore
    timeouts, or with the process)."""
    box: dict = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:
            box["error"] = exc

    # The caller's context goes along (the local runner's record of which function makes each AWS call).
    worker = threading.Thread(target=contextvars.copy_context().run, args=(run,), daemon=True, name=name)
    worker.start()
    worker.join(max(0.0, seconds))
    if worker.is_alive():
        raise ModelDeadline(f"no answer within {seconds:.1f} s")
    if "error" in box:
        raise box["error"]
    return box["value"]
