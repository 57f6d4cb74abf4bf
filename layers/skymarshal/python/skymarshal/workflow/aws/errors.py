"""botocore's errors, named once: what the workflow's DynamoDB and Step Functions calls raise, their translation
into the ports' `ServiceError`, and the base of the adapters (a client built on first use)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from botocore.exceptions import BotoCoreError, ClientError

from ...data import aws as clients
from ..ports import ServiceError

AWS_ERRORS = (ClientError, BotoCoreError)  # every error a boto3 call raises
T = TypeVar("T")


def error_code(exc: BaseException) -> str:
    """The service's error code (``ConditionalCheckFailedException`` …), else the exception's class name."""
    if isinstance(exc, ClientError):
        return str(exc.response.get("Error", {}).get("Code", ""))
    if isinstance(exc, ServiceError):
        return exc.code
    return type(exc).__name__


def service_error(exc: BaseException) -> ServiceError:
    """A boto3 call's failure as the ports' ServiceError (raise it `from` the original)."""
    return ServiceError(error_code(exc), str(exc))


def call(operation: Callable[[], T], answers: Mapping[str, Any] | None = None) -> Any:
    """`operation()`; an error whose code `answers` names is that answer (a missing object: None), any other
    failure a ServiceError."""
    try:
        return operation()
    except AWS_ERRORS as exc:
        code = error_code(exc)
        if answers is not None and code in answers:
            return answers[code]
        raise service_error(exc) from exc


class Adapter:
    """A port's adapter over one service's client: the one given (the emulated account's), else one built on
    first use with the library's retry configuration (data/aws.py)."""

    service: ClassVar[str]

    def __init__(self, client: Any = None):
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = clients.client(self.service)
        return self._client


__all__ = ["AWS_ERRORS", "Adapter", "BotoCoreError", "ClientError", "call", "error_code", "service_error"]
