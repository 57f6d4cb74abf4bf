"""The API's two Lambdas (infra/api_stack.py): the API function (reads runs, answers approvals, appends to and
verifies the audit trail) and the streaming function behind the web adapter (live progress, the assistant), with
exactly the reads and grants each needs."""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from skymarshal.data.schema import (
    AIRCRAFT_AVAILABILITY,
    AIRPORTS,
    BOOKINGS,
    CHECKPOINTS,
    CREW_MEMBERS,
    CREW_ROSTER,
    FLIGHTS,
    MAINTENANCE_WORK_ORDERS,
)
from skymarshal.workflow.deployment import AUDIT_KEY_ENV, STATE_MACHINE_ENV

from .config import AppConfig
from .data_stack import DataStack
from .functions import FUNCTIONS_DIR, FunctionsBase
from .workflow_stack import WorkflowStack

WEB_ADAPTER_ACCOUNT = "753240598075"  # awslabs/aws-lambda-web-adapter's published layers


@dataclass
class ApiFunctions:
    api: lambda_.Function
    stream: lambda_.Function
    stream_url: lambda_.FunctionUrl


class ApiFunctionsConstruct(FunctionsBase):
    """The API Lambda (reads runs, answers approvals, appends to and verifies the audit trail) and the
    streaming function (reads runs; the assistant)."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: AppConfig,
        data: DataStack,
        workflow: WorkflowStack,
        pool: cognito.UserPool,
        client: cognito.UserPoolClient,
    ) -> None:
        super().__init__(scope, construct_id, config=config, data=data)
        machine = workflow.state_machine
        self.environment.update(
            {STATE_MACHINE_ENV: machine.state_machine_arn, AUDIT_KEY_ENV: workflow.audit_key.key_arn}
        )
        api = self.function("Api", FUNCTIONS_DIR / "api", "handler.handler", "skymarshal-api", timeout_s=29)
        adapter = lambda_.LayerVersion.from_layer_version_arn(
            self,
            "WebAdapter",
            (
                f"arn:{self.stack.partition}:lambda:{self.stack.region}:{WEB_ADAPTER_ACCOUNT}:layer:"
                f"LambdaAdapterLayerX86:{config.web_adapter_layer_version}"
            ),
        )
        stream = self.function(
            "Stream",
            FUNCTIONS_DIR / "stream",
            "run.sh",
            "skymarshal-stream",
            timeout_s=900,
            memory=1024,
            extra_layers=[adapter],
            extra_env={
                "AWS_LAMBDA_EXEC_WRAPPER": "/opt/bootstrap",
                "AWS_LWA_INVOKE_MODE": "response_stream",
                "PORT": "8080",
                "SKYMARSHAL_USER_POOL_ID": pool.user_pool_id,
                "SKYMARSHAL_USER_POOL_CLIENT_ID": client.user_pool_client_id,
                "SKYMARSHAL_ASSISTANT_CHECKPOINTER": "memory",
            },
        )
        # StateMachine.grantRead's reads, with the executions named from the machine's literal name (its ARN
        # split across stacks is an intrinsic cfn-lint cannot type).
        executions = (
            f"arn:{self.stack.partition}:states:{self.stack.region}:{self.stack.account}:execution:"
            f"{workflow.state_machine_name}:*"
        )
        for fn in (api, stream):
            fn.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["states:ListExecutions", "states:DescribeStateMachine"],
                    resources=[machine.state_machine_arn],
                )
            )
            fn.add_to_role_policy(
                iam.PolicyStatement(
                    actions=["states:DescribeExecution", "states:GetExecutionHistory"], resources=[executions]
                )
            )
            self._finding(
                fn,
                f"Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:"
                f"{workflow.state_machine_name}:*",
                "the executions of the disruption workflow (one per run, named by run): read only",
            )
            self._read_artifacts(fn)
        self._checkpoints(api)  # claims the approval, moves the thread; reads execution events
        # The decision's Gantt: the tails' rotations, the crews' duties, the connections and the curfews; the operation
        # board: every tail's availability and work orders, and the crew members the live scorecard checks (read only).
        self._read(
            api,
            (FLIGHTS, CREW_ROSTER, BOOKINGS, AIRPORTS, AIRCRAFT_AVAILABILITY, MAINTENANCE_WORK_ORDERS, CREW_MEMBERS),
        )
        self._read(stream, (CHECKPOINTS,))  # approvals and execution events, read only
        machine.grant_start_execution(api)
        machine.grant_task_response(api)  # the duty manager's answer to the waiting approval step
        self.grant_audit(api, workflow.audit_key, "kms:Sign", "kms:Verify")
        self.grant_anchor_read(api)  # `audit verify` reads the anchors outside the chain (GET …/audit/verify)
        self.grant_bedrock(stream, assistant_model_ids(), "assistant.json")
        # Auth is the app's: it verifies the Cognito ID token itself (CloudFront forwards Authorization).
        url = stream.add_function_url(
            auth_type=lambda_.FunctionUrlAuthType.NONE, invoke_mode=lambda_.InvokeMode.RESPONSE_STREAM
        )
        self._acknowledge_findings()
        self.functions = ApiFunctions(api=api, stream=stream, stream_url=url)


def assistant_model_ids() -> list[str]:
    from skymarshal.assistant.config import load_behaviour

    behaviour = load_behaviour()
    ids = {behaviour.planner.model_id, behaviour.formatter.model_id, behaviour.comparison_formatter.model_id}
    if None in ids:
        raise ValueError("assistant.json: every role needs a model_id for the deployed assistant's Bedrock grant")
    return sorted(i for i in ids if i is not None)
