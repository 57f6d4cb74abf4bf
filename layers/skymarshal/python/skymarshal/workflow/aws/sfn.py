"""Step Functions: the TaskTokens port (an approval resumes the waiting task) and the client the run client and
the trigger use."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ...data import aws as clients
from .errors import service_error


def client() -> Any:
    """A Step Functions client with the default credentials."""
    return clients.client("stepfunctions")


class SfnTaskTokens:
    """TaskTokens over a Step Functions client (the default credentials' unless one is given)."""

    def __init__(self, sfn: Any = None):
        self._sfn = sfn

    @property
    def sfn(self) -> Any:
        self._sfn = self._sfn or client()
        return self._sfn

    def succeed(self, token: str, output: str) -> None:
        try:
            self.sfn.send_task_success(taskToken=token, output=output)
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc
