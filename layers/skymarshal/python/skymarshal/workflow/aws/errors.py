"""botocore's errors, named once: what the workflow's DynamoDB and Step Functions calls raise, and their
translation into the ports' `ServiceError`."""

from __future__ import annotations

from botocore.exceptions import BotoCoreError, ClientError

from ..ports import ServiceError

AWS_ERRORS = (ClientError, BotoCoreError)  # every error a boto3 call raises


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


__all__ = ["AWS_ERRORS", "BotoCoreError", "ClientError", "error_code", "service_error"]
