"""What the Trigger calls on Step Functions, with no AWS: exactly the two operations its role grants
(tests/infra/test_infra_workflow_functions.py asserts the grant), and a redelivered event starts nothing new."""

from __future__ import annotations

from botocore.exceptions import ClientError

from skymarshal.workflow.aws.sfn import SfnExecutions
from skymarshal.workflow.models import DisruptionRequest
from skymarshal.workflow.runs.trigger import start

GRANTED = {"describe_execution": "states:DescribeExecution", "start_execution": "states:StartExecution"}
MACHINE = "arn:aws:states:eu-west-1:123456789012:stateMachine:SkyMarshal-dev-disruptions"


class _StrictSfn:
    """Only the granted operations exist; any other call fails the test as AccessDenied would in AWS."""

    def __init__(self, existing: set[str]) -> None:
        self.existing, self.calls = existing, []

    def __getattr__(self, name):
        raise AssertionError(f"the Trigger called {name}, which its role does not grant")

    def describe_execution(self, executionArn: str):
        self.calls.append("describe_execution")
        assert executionArn.startswith(MACHINE.replace(":stateMachine:", ":execution:") + ":")
        if executionArn.rsplit(":", 1)[1] not in self.existing:
            raise ClientError({"Error": {"Code": "ExecutionDoesNotExist", "Message": "no"}}, "DescribeExecution")
        return {"status": "RUNNING"}

    def start_execution(self, stateMachineArn: str, name: str, input: str):
        self.calls.append("start_execution")
        self.existing.add(name)
        return {"executionArn": f"{MACHINE.replace(':stateMachine:', ':execution:')}:{name}"}


def _request() -> DisruptionRequest:
    return DisruptionRequest(
        disruption_id="evt-1", prompt="Flight EY123 on 20 Jan had a mechanical failure", source="eventbridge"
    )


def test_the_trigger_calls_only_what_its_role_grants_and_starts_once() -> None:
    sfn = _StrictSfn(set())
    first = start(_request(), executions=SfnExecutions(sfn), state_machine_arn=MACHINE)
    again = start(_request(), executions=SfnExecutions(sfn), state_machine_arn=MACHINE)
    assert first["started"] is True and again["started"] is False
    assert set(sfn.calls) <= set(GRANTED) and sfn.calls.count("start_execution") == 1
