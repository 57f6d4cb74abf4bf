"""CloudWatch alarms of the workflow, each notifying the duty managers' alert topic (infra/alerts.py).

- executions that failed or timed out (Step Functions' own metrics);
- escalations, one alarm per escalation code (the Learn step's Powertools metric `Escalation<Code>`; the
  APPROVAL_TIMEOUT one is the approval-timeout alarm);
- the Trigger's dead-letter queue holding a message (an event that never started a run);
- each workflow Lambda's errors and throttles;
- Bedrock fallbacks (agents' and arbitrator's `BedrockFallback`, summed over their services): a model that
  keeps failing, so the rules' text stands in — a few in five minutes, not one throttle;
- an alert that could not be published (`AlertPublishFailed`);
- an executed plan's messages not all published to the message bus (`MessagesPublishFailed`);
- an inbound message parked in the quarantine (`RecordsQuarantined`).

Metric names and dimensions come from workflow/deployment.py, the module the handlers emit them with.
"""

from __future__ import annotations

from aws_cdk import Duration
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from skymarshal.workflow.deployment import (
    ALERT_FAILED_METRIC,
    BEDROCK_FALLBACK_METRIC,
    ESCALATION_REASONS,
    MESSAGES_FAILED_METRIC,
    METRICS_NAMESPACE,
    RECORDS_QUARANTINED_METRIC,
    WORKFLOW_SERVICE,
    escalation_metric,
)

PERIOD = Duration.minutes(5)
BEDROCK_FALLBACK_THRESHOLD = 3  # in five minutes: one throttled call is noise, a failing model is not


class WorkflowAlarms(Construct):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        topic: sns.ITopic,
        state_machine: sfn.StateMachine,
        functions: dict[str, lambda_.IFunction],
        trigger_dlq: sqs.IQueue,
        model_services: list[str],
    ) -> None:
        super().__init__(scope, construct_id)
        self.action = actions.SnsAction(topic)
        self.alarms: dict[str, cloudwatch.Alarm] = {}
        self._alarm(
            "ExecutionsFailed",
            state_machine.metric_failed(period=PERIOD, statistic="Sum"),
            "a disruption run failed (an input the workflow refused, a plan rolled back, a step that crashed)",
        )
        self._alarm(
            "ExecutionsTimedOut",
            state_machine.metric_timed_out(period=PERIOD, statistic="Sum"),
            "a disruption run hit the state machine's six-hour timeout",
        )
        for reason in ESCALATION_REASONS:
            self._alarm(
                escalation_metric(reason),
                self._metric(escalation_metric(reason), WORKFLOW_SERVICE),
                f"a run escalated to a duty manager: {reason}"
                + (" (no decision within the approval window)" if reason == "APPROVAL_TIMEOUT" else ""),
            )
        self._alarm(
            "TriggerDeadLetters",
            trigger_dlq.metric_approximate_number_of_messages_visible(period=PERIOD, statistic="Maximum"),
            "a disruption event could not be delivered to the Trigger and waits in its dead-letter queue",
        )
        for name, fn in functions.items():
            self._alarm(f"{name}Errors", fn.metric_errors(period=PERIOD, statistic="Sum"), f"the {name} Lambda failed")
            self._alarm(
                f"{name}Throttles", fn.metric_throttles(period=PERIOD, statistic="Sum"), f"the {name} Lambda throttled"
            )
        fallbacks = {f"m{i}": self._metric(BEDROCK_FALLBACK_METRIC, s) for i, s in enumerate(model_services)}
        self._alarm(
            "BedrockFallbacks",
            cloudwatch.MathExpression(
                expression=" + ".join(f"FILL({m}, 0)" for m in fallbacks),
                using_metrics=fallbacks,
                period=PERIOD,
                label="Bedrock fallbacks (agents and arbitrator)",
            ),
            "model calls keep failing (throttled, refused, timed out): the rules' own text stands in",
            threshold=BEDROCK_FALLBACK_THRESHOLD,
        )
        self._alarm(
            "AlertPublishFailed",
            self._metric(ALERT_FAILED_METRIC, WORKFLOW_SERVICE),
            "an escalation's alert could not be published to the alert topic (it is recorded: `skymarshal alerts`)",
        )
        self._alarm(
            "MessagesPublishFailed",
            self._metric(MESSAGES_FAILED_METRIC, WORKFLOW_SERVICE),
            "an executed plan's messages were not all published to the message bus (they are in the run's "
            "messages artifact and its audit record, with what failed)",
        )
        self._alarm(
            "RecordsQuarantined",
            self._metric(RECORDS_QUARANTINED_METRIC, WORKFLOW_SERVICE),
            "an inbound movement message was parked in the quarantine with its reason (an unknown flight, a tail or "
            "station not the flight's): `skymarshal quarantine` lists it",
        )

    @staticmethod
    def _metric(name: str, service: str) -> cloudwatch.Metric:
        return cloudwatch.Metric(
            namespace=METRICS_NAMESPACE,
            metric_name=name,
            dimensions_map={"service": service},  # Powertools Metrics' default dimension
            period=PERIOD,
            statistic="Sum",
        )

    def _alarm(self, name: str, metric: cloudwatch.IMetric, description: str, threshold: float = 1) -> None:
        alarm = cloudwatch.Alarm(
            self,
            name,
            metric=metric,
            threshold=threshold,
            evaluation_periods=1,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,  # no datapoint: nothing happened
            alarm_description=f"SkyMarshal: {description}",
        )
        alarm.add_alarm_action(self.action)
        self.alarms[name] = alarm
