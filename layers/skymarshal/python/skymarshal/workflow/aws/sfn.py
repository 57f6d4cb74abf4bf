"""Step Functions: the TaskTokens port (an approval resumes the waiting task) and the Executions port (the Trigger
and the run client start runs), and the client the run client follows runs with."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ...data import aws as clients
from .errors import service_error


def client() -> Any:
    """A Step Functions client with the default credentials."""
    return clients.client("stepfunctions")


class SfnExecutions:
    """Executions over a Step Functions client (the default credentials' unless one is given)."""

    def __init__(self, sfn: Any = None):
        self._sfn = sfn

    @property
    def sfn(self) -> Any:
        self._sfn = self._sfn or client()
        return self._sfn

    def status(self, execution_arn: str) -> str | None:
        try:
            return str(self.sfn.describe_execution(executionArn=execution_arn)["status"])
        except ClientError as exc:
            if exc.response["Error"]["Code"] == "ExecutionDoesNotExist":
                return None
            raise service_error(exc) from exc
        except BotoCoreError as exc:
            raise service_error(exc) from exc

    def start(self, state_machine_arn: str, name: str, input: str) -> str | None:
        try:
            return str(
                self.sfn.start_execution(stateMachineArn=state_machine_arn, name=name, input=input)["executionArn"]
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] == "ExecutionAlreadyExists":
                return None
            raise service_error(exc) from exc
        except BotoCoreError as exc:
            raise service_error(exc) from exc


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
