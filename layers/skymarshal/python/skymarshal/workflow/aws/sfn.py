"""Step Functions: the TaskTokens port (an approval resumes the waiting task) and the Executions port (the Trigger
and the run client start runs; a flight claim's sweep asks whether its holder still runs)."""

from __future__ import annotations

from .errors import Adapter, call


class SfnExecutions(Adapter):
    """Executions over a Step Functions client."""

    service = "stepfunctions"

    def status(self, execution_arn: str) -> str | None:
        described = call(
            lambda: self.client.describe_execution(executionArn=execution_arn), {"ExecutionDoesNotExist": None}
        )
        return None if described is None else str(described["status"])

    def start(self, state_machine_arn: str, name: str, input: str) -> str | None:
        started = call(
            lambda: self.client.start_execution(stateMachineArn=state_machine_arn, name=name, input=input),
            {"ExecutionAlreadyExists": None},
        )
        return None if started is None else str(started["executionArn"])


class SfnTaskTokens(Adapter):
    """TaskTokens over a Step Functions client."""

    service = "stepfunctions"

    def succeed(self, token: str, output: str) -> None:
        call(lambda: self.client.send_task_success(taskToken=token, output=output))
