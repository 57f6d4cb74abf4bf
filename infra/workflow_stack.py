"""The workflow stack: the disruption state machine, its Lambdas, and the EventBridge bus that starts it.

Validate → Initial round (Map over the seven agents) → Collate → Revision round (Map, with the full
collation) → Collate → Safety gate → (debate rounds while a conflict stays open, infra/workflow_rounds.py) → Arbitrate → Await duty manager approval (task token) → the duty
manager's decision → Execute plan (back to Arbitrate when the operation changed under the approved plan) → Learn and
record outcome. Written in JSONPath (moto's interpreter,
which runs this same definition locally, cannot evaluate JSONata). State names are what the console shows.
"""

from __future__ import annotations

from typing import Any

from aws_cdk import ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from constructs import Construct

from skymarshal.workflow.deployment import DETAIL_TYPES, SOURCE, STATE_MACHINE_ENV, TRIGGER_DLQ_ENV

from .alerts import workflow_alerts
from .config import AppConfig
from .data_stack import DataStack
from .messages import MessageBus
from .nag import acknowledge, cfn_resource, default_policy, iam5, references
from .workflow_failures import catch_failures, failure_path
from .workflow_functions import WorkflowFunctionsConstruct
from .workflow_rounds import TRANSIENT, agent_item, agent_round, debate_loop, retry_transient, round_items


class WorkflowStack(Stack):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: AppConfig,
        data: DataStack,
        knowledge_base_id: str | None = None,
        **kwargs,
    ) -> None:
        super().__init__(
            scope, construct_id, description="SkyMarshal workflow: state machine, agents, trigger", **kwargs
        )
        self.config = config
        self.state_machine_name = f"SkyMarshal-{config.stage}-disruptions"
        functions = WorkflowFunctionsConstruct(
            self, "Functions", config=config, data=data, knowledge_base_id=knowledge_base_id
        )
        self.fns, self.audit_key = functions.functions, functions.audit_key
        log_group = logs.LogGroup(
            self, "StateMachineLogs", retention=logs.RetentionDays.THREE_MONTHS, removal_policy=RemovalPolicy.DESTROY
        )
        self.state_machine = sfn.StateMachine(
            self,
            "DisruptionWorkflow",
            state_machine_type=sfn.StateMachineType.STANDARD,
            # Named, so other stacks (the API) can name its executions in IAM without splitting its ARN.
            state_machine_name=self.state_machine_name,
            definition_body=sfn.DefinitionBody.from_chainable(self._definition()),
            timeout=Duration.hours(6),
            tracing_enabled=True,
            logs=sfn.LogOptions(destination=log_group, level=sfn.LogLevel.ALL, include_execution_data=True),
            comment="SkyMarshal: a reported disruption to an approved, executed and recorded recovery plan",
        )
        self.fns.trigger.add_environment("SKYMARSHAL_STATE_MACHINE_ARN", self.state_machine.state_machine_arn)
        self.state_machine.grant_start_execution(self.fns.trigger)
        self._grant_describe_own_executions(self.fns.trigger)
        # Validate frees a claim whose run ended without releasing it (workflow/runs/flight_claims.py). The ARN from
        # the fixed name: a Ref would make Validate and the state machine that invokes it depend on each other.
        own = ArnFormat.COLON_RESOURCE_NAME
        own_arn = self.format_arn(
            service="states", resource="stateMachine", resource_name=self.state_machine_name, arn_format=own
        )
        self.fns.validate.add_environment(STATE_MACHINE_ENV, own_arn)
        self._grant_describe_own_executions(self.fns.validate)
        self._acknowledge_state_machine_findings()
        self.bus, self.rule = self._events()
        # The duty managers' topic (Learn publishes escalations to it) and the alarms that notify it.
        self.alerts, self.alarms = workflow_alerts(
            self, config=config, functions=functions, state_machine=self.state_machine, trigger_dlq=self.trigger_dlq
        )
        # Execute publishes the executed plan's messages for downstream systems (workflow/execution/publish.py).
        self.messages = MessageBus(self, "Messages", config=config)
        self.messages.grant_publish(self.fns.execute)
        CfnOutput(self, "AlertTopicArn", value=self.alerts.topic.topic_arn)
        CfnOutput(self, "MessageBusName", value=self.messages.bus.event_bus_name)
        CfnOutput(self, "StateMachineArn", value=self.state_machine.state_machine_arn)
        CfnOutput(self, "EventBusName", value=self.bus.event_bus_name)

    # ------------------------------------------------------------------------------------ definition

    def _invoke(self, name: str, fn: lambda_.IFunction, payload: dict, result_path: str | None) -> tasks.LambdaInvoke:
        task = tasks.LambdaInvoke(
            self,
            name,
            lambda_function=fn,
            payload=sfn.TaskInput.from_object(payload),
            payload_response_only=True,
            retry_on_service_exceptions=False,
            result_path=result_path,
        )
        retry_transient(task, max_attempts=4)
        return task

    def _round(self, phase: str, result_path: str) -> sfn.Map:
        selector: dict[str, Any] = {**agent_item(), "phase": phase}
        if phase == "revision":
            selector["others"] = sfn.JsonPath.object_at("$.phase1.collation")
        return agent_round(
            self,
            self.fns.agents,
            phase=phase,
            title="Initial round" if phase == "initial" else "Revision round",
            items_path=round_items(phase),
            selector=selector,
            result_path=result_path,
        )

    def _collate(self, phase: str, path: str) -> tasks.LambdaInvoke:
        title = "initial" if phase == "initial" else "revision"
        return self._invoke(
            f"Collate {title} round",
            self.fns.collate,
            {
                "phase": phase,
                "results": sfn.JsonPath.list_at(path),
                "disruption_id": sfn.JsonPath.string_at("$.request.disruption_id"),
                "execution_name": sfn.JsonPath.string_at("$$.Execution.Name"),
                "ran": sfn.JsonPath.list_at(round_items(phase)),
                # a retry keeps the answers of the agents it does not re-run from the run it retries
                "retries": sfn.JsonPath.string_at("$.request.resumes"),
                # the revision round's Collate asks the debate rule (workflow/steps/debate.py), which reads the report
                **({"request": sfn.JsonPath.object_at("$.request")} if phase == "revision" else {}),
            },
            path,
        )

    def _escalate(self, name: str, reason: str, message: str) -> sfn.Pass:
        return sfn.Pass(
            self,
            name,
            result=sfn.Result.from_object({"reason": reason, "message": message}),
            result_path="$.escalation",
        )

    def _definition(self) -> sfn.IChainable:
        state = {"state": sfn.JsonPath.entire_payload}
        validate = self._invoke(
            "Validate disruption",
            self.fns.validate,
            {"input": sfn.JsonPath.entire_payload, "execution_name": sfn.JsonPath.string_at("$$.Execution.Name")},
            None,
        )
        # Learn alerts the duty managers of an escalation, with a link to this execution.
        learn_payload = {**state, "execution_arn": sfn.JsonPath.string_at("$$.Execution.Id")}
        learn = self._invoke("Learn and record outcome", self.fns.learn, learn_payload, "$.outcome")
        # A step that fails past its retries ends the run through Learn, which frees its flight (infra/workflow_failures.py).
        run_failed, unrecorded = failure_path(self, self.fns.learn, self._invoke)
        learn.add_catch(unrecorded, errors=["States.ALL"], result_path="$.record_failure")
        arbitrate = self._invoke("Arbitrate", self.fns.arbitrate, state, "$.decision")
        # The arbitrator has its own deadline below its Lambda timeout; if it fails anyway (a crash, a timeout),
        # the run goes to a duty manager instead of ending in a failed execution.
        arbitrate.add_catch(
            self._escalate(
                "Escalate: arbitration failed",
                "ARBITRATION_FAILED",
                "the arbitrator did not finish; a duty manager decides",
            ).next(learn),
            errors=["States.ALL"],
            result_path="$.escalation",
        )
        approval = tasks.LambdaInvoke(
            self,
            "Await duty manager approval",
            lambda_function=self.fns.request_approval,
            integration_pattern=sfn.IntegrationPattern.WAIT_FOR_TASK_TOKEN,
            result_path="$.approval",
            payload=sfn.TaskInput.from_object(
                {
                    "task_token": sfn.JsonPath.task_token,
                    "execution_name": sfn.JsonPath.string_at("$$.Execution.Name"),
                    "disruption_id": sfn.JsonPath.string_at("$.request.disruption_id"),
                    "decision": sfn.JsonPath.object_at("$.decision"),
                    "timeout_seconds": sfn.JsonPath.number_at("$.request.approval_timeout_seconds"),
                }
            ),
            task_timeout=sfn.Timeout.at("$.request.approval_timeout_seconds"),
            retry_on_service_exceptions=False,
        )
        approval.add_retry(errors=TRANSIENT, interval=Duration.seconds(2), max_attempts=3, backoff_rate=2.0)
        approval.add_catch(
            self._escalate(
                "Escalate: approval timed out",
                "APPROVAL_TIMEOUT",
                "no duty manager decision within the approval window",
            ).next(learn),
            errors=["States.Timeout"],
            result_path="$.escalation",
        )
        execute = self._invoke("Execute plan", self.fns.execute, state, "$.execution")
        catch_failures([approval, execute], run_failed)  # after the Timeout catcher: Catches are tried in order

        outcome = (
            sfn.Choice(self, "Plan carried out?")
            .when(
                sfn.Condition.string_equals("$.outcome.status", "failed"),
                sfn.Fail(
                    self,
                    "Execution failed, data restored",
                    error="ExecutionRolledBack",
                    cause="a group of the plan failed; the groups applied before it were compensated",
                ),
            )
            .otherwise(sfn.Succeed(self, "Done"))
        )
        learn.next(outcome)
        # A plan refused because the operation changed since it was decided (another run took its spare) is decided
        # again on the tables as they now are and goes back to the duty manager (workflow/steps/attempts.py).
        execute.next(
            sfn.Choice(self, "Plan still fits the operation?")
            .when(sfn.Condition.boolean_equals("$.execution.redecide", True), arbitrate)
            .otherwise(learn)
        )
        decision = (
            sfn.Choice(self, "Duty manager's decision")
            .when(sfn.Condition.string_equals("$.approval.action", "reject"), learn)
            .when(sfn.Condition.string_equals("$.approval.action", "alternatives"), arbitrate)
            .when(sfn.Condition.string_equals("$.approval.action", "exclude"), arbitrate)
            .otherwise(execute)
        )
        approval.next(decision)
        plan = (
            sfn.Choice(self, "Any valid plan?")
            .when(
                sfn.Condition.string_equals("$.decision.status", "input_error"),
                sfn.Fail(
                    self,
                    "Disruption not understood",
                    error="InputError",
                    cause="the arbitrator could not identify the disrupted flight from the agents' results",
                ),
            )
            .when(
                sfn.Condition.and_(
                    sfn.Condition.string_equals("$.decision.scope", "network"),
                    sfn.Condition.boolean_equals("$.decision.has_plan", False),
                ),
                self._escalate(
                    "Escalate: network disruption",
                    "NETWORK_DISRUPTION",
                    "no legal network plan, or a report the planner cannot plan: a duty manager re-plans the flights",
                ).next(learn),
            )
            .when(
                sfn.Condition.boolean_equals("$.decision.has_plan", False),
                self._escalate(
                    "Escalate: no valid plan", "NO_VALID_PLAN", "every scenario breaks a binding safety constraint"
                ).next(learn),
            )
            .otherwise(approval)
        )
        arbitrate.next(plan)
        safety_failed = self._escalate(
            "Escalate: safety agent failed",
            "SAFETY_AGENT_FAILED",
            "a safety agent did not complete; a duty manager decides",
        ).next(learn)
        # After the safety gate, a conflict the arbitrator cannot settle goes to debate rounds (infra/workflow_rounds.py).
        debate = debate_loop(
            self,
            self.fns.agents,
            self.fns.collate,
            self._invoke,
            common=agent_item(),
            safety_escalation=safety_failed,
            arbitrate=arbitrate,
            on_failure=run_failed,
        )
        gate = (
            sfn.Choice(self, "Safety gate")
            .when(sfn.Condition.boolean_equals("$.phase2.safety_failed", True), safety_failed)
            .otherwise(debate)
        )
        rounds = [self._round("initial", "$.phase1"), self._round("revision", "$.phase2")]
        collates = [self._collate("initial", "$.phase1"), self._collate("revision", "$.phase2")]
        catch_failures([*rounds, *collates], run_failed)
        revision = rounds[1].next(collates[1]).next(gate)
        initial = rounds[0].next(collates[0])
        revision_done = (
            sfn.Choice(self, "Revision round done before?")
            .when(sfn.Condition.is_not_null("$.phase2"), gate)
            .otherwise(revision)
        )
        initial.next(revision_done)
        initial_done = (
            sfn.Choice(self, "Initial round done before?")
            .when(sfn.Condition.is_not_null("$.phase1"), revision_done)
            .otherwise(initial)
        )
        # An airport or airspace over a window touches many flights: the agents analyse every one of them in both
        # rounds (network/window_analysis.py) and Arbitrate runs the network planner (workflow/steps/network.py).
        return validate.next(initial_done)

    def _acknowledge_state_machine_findings(self) -> None:
        """The state machine role's policy, as aws-cdk-lib writes it for LambdaInvoke, X-Ray and logging."""
        policy = default_policy(self.state_machine.role)
        iam5(
            policy,
            "Resource::*",
            "X-Ray PutTraceSegments/GetSamplingRules and the CloudWatch Logs delivery actions "
            "(CreateLogDelivery, PutResourcePolicy, DescribeLogGroups...) that Step Functions logging needs "
            "support no resource-level permissions; IAM only accepts * for them",
        )
        functions = [
            *self.fns.agents.values(),
            self.fns.validate,
            self.fns.collate,
            self.fns.arbitrate,
            self.fns.request_approval,
            self.fns.execute,
            self.fns.learn,
        ]
        for fn in functions:
            for arn in references(self, cfn_resource(fn), "Arn"):  # same stack: one form
                iam5(
                    policy,
                    f"Resource::{arn}:*",
                    f"LambdaInvoke's grant on {fn.node.id}: lambda:InvokeFunction on this one function and its "
                    "versions/aliases (<arn>:*), which a qualified invocation needs; no other function",
                )

    def _grant_describe_own_executions(self, fn: lambda_.Function) -> None:
        """The Trigger looks its execution up before starting it (workflow/runs/trigger.py: a redelivered event
        must start nothing new): states:DescribeExecution on this state machine's executions only."""
        executions = f"arn:{self.partition}:states:{self.region}:{self.account}:execution:{self.state_machine_name}:*"
        fn.add_to_role_policy(iam.PolicyStatement(actions=["states:DescribeExecution"], resources=[executions]))
        policy = default_policy(fn.role)
        iam5(
            policy,
            f"Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:"
            f"{self.state_machine_name}:*",
            "an execution's name is the disruption id, unknown at deploy time; DescribeExecution only, and only "
            "on the executions of this one state machine",
        )

    # -------------------------------------------------------------------------------------- events

    def _events(self) -> tuple[events.EventBus, events.Rule]:
        bus = events.EventBus(self, "DisruptionBus", event_bus_name=f"SkyMarshal-{self.config.stage}-disruptions")
        dlq = sqs.Queue(
            self,
            "TriggerDeadLetters",
            enforce_ssl=True,
            encryption=sqs.QueueEncryption.SQS_MANAGED,
            retention_period=Duration.days(14),
        )
        # cdk-nag SQS3 only recognises a queue as a DLQ when an SQS redrive policy or a Lambda
        # DeadLetterConfig points at it, not an EventBridge target's DeadLetterConfig.
        acknowledge(
            cfn_resource(dlq),
            "AwsSolutions-SQS3",
            "this queue is itself a dead-letter queue: the DLQ of the DisruptionReported rule's Trigger "
            "target (EventBridge DeadLetterConfig); a DLQ of a DLQ would only move the same messages",
        )
        rule = events.Rule(
            self,
            "DisruptionReported",
            event_bus=bus,
            description="A flight disruption report or movement message starts one workflow execution per event id",
            # a report in words, or an IATA movement message (MVT, MVA, DIV): each starts one run per event id
            event_pattern=events.EventPattern(source=[SOURCE], detail_type=list(DETAIL_TYPES)),
        )
        rule.add_target(
            targets.LambdaFunction(
                self.fns.trigger, dead_letter_queue=dlq, retry_attempts=4, max_event_age=Duration.hours(2)
            )
        )
        # An event the Trigger refuses (not a disruption report) is sent here by the Trigger itself, with the
        # reason, instead of failing and being retried into the same queue without one.
        dlq.grant_send_messages(self.fns.trigger)
        self.fns.trigger.add_environment(TRIGGER_DLQ_ENV, dlq.queue_url)
        self.trigger_dlq = dlq
        return bus, rule
