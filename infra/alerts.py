"""The duty managers' alert topic: SNS, encrypted with a key of its own, HTTPS only; its subscriptions come from
CDK context (e-mail, SMS, a chat webhook through a small Lambda). The Learn step publishes an escalated run's
alert to it (workflow/alerts.py) and every CloudWatch alarm (infra/alarms.py) notifies it.

The key is the topic's own, not the data stack's: CloudWatch must be allowed to use it (an alarm's message is
encrypted like any other), and that grant should open nothing else. A publisher gets sns:Publish on this topic
and kms:GenerateDataKey/Decrypt on this key, the exact actions SNS's server-side encryption needs.
"""

from __future__ import annotations

from aws_cdk import RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from skymarshal.data.schema import AGENTS
from skymarshal.workflow.deployment import ALERT_TOPIC_ENV, CONSOLE_URL_ENV, WEBHOOK_PARAMETER_ENV, WORKFLOW_SERVICE

from .alarms import WorkflowAlarms
from .config import AppConfig
from .functions import FUNCTIONS_DIR
from .nag import default_policy, iam5
from .workflow_functions import WorkflowFunctionsConstruct

PUBLISH_KEY_ACTIONS = ("kms:GenerateDataKey", "kms:Decrypt")


class AlertTopic(Construct):
    def __init__(
        self, scope: Construct, construct_id: str, *, config: AppConfig, webhook: lambda_.Function | None = None
    ) -> None:
        super().__init__(scope, construct_id)
        self.config = config
        self.key = kms.Key(
            self,
            "Key",
            enable_key_rotation=True,
            description="SkyMarshal: encrypts the duty managers' alert topic",
            removal_policy=RemovalPolicy.DESTROY if config.destroy_on_delete else RemovalPolicy.RETAIN,
        )
        # CloudWatch publishes the alarms' notifications to the encrypted topic (the AWS managed SNS key would
        # refuse it): this key only, through SNS, from this account.
        self.key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["kms:GenerateDataKey*", "kms:Decrypt"],
                resources=["*"],  # in a key policy "*" is this key
                conditions={"StringEquals": {"aws:SourceAccount": Stack.of(self).account}},
            )
        )
        self.topic = sns.Topic(
            self,
            "Topic",
            topic_name=f"SkyMarshal-{config.stage}-alerts",
            display_name="SkyMarshal duty manager alerts",
            master_key=self.key,
            enforce_ssl=True,
        )
        for address in config.alert_emails:
            self.topic.add_subscription(subscriptions.EmailSubscription(address))
        for number in config.alert_sms:
            self.topic.add_subscription(subscriptions.SmsSubscription(number))
        if webhook is not None:
            self._webhook(webhook)

    def _webhook(self, fn: lambda_.Function) -> None:
        """The chat webhook's Lambda subscribes; it reads the URL from the SecureString parameter, and only it
        (the parameter is encrypted with the account's AWS managed SSM key, whose policy admits SSM's callers)."""
        name = self.config.alert_webhook_parameter
        stack = Stack.of(self)
        fn.add_environment(WEBHOOK_PARAMETER_ENV, name)
        fn.add_to_role_policy(
            iam.PolicyStatement(
                actions=["ssm:GetParameter"],
                # the ARN names "/a/b" as parameter/a/b and "flat" as parameter/flat
                resources=[f"arn:{stack.partition}:ssm:{stack.region}:{stack.account}:parameter/{name.lstrip('/')}"],
            )
        )
        self.topic.add_subscription(subscriptions.LambdaSubscription(fn))

    def grant_publish(self, fn: lambda_.Function) -> None:
        """sns:Publish on this topic and the key actions an encrypted publish needs; the function learns the
        topic and the console link from its environment."""
        fn.add_to_role_policy(iam.PolicyStatement(actions=["sns:Publish"], resources=[self.topic.topic_arn]))
        fn.add_to_role_policy(iam.PolicyStatement(actions=list(PUBLISH_KEY_ACTIONS), resources=[self.key.key_arn]))
        fn.add_environment(ALERT_TOPIC_ENV, self.topic.topic_arn)
        if self.config.console_url:
            fn.add_environment(CONSOLE_URL_ENV, self.config.console_url)


def workflow_alerts(
    scope: Construct,
    *,
    config: AppConfig,
    functions: WorkflowFunctionsConstruct,
    state_machine: sfn.StateMachine,
    trigger_dlq: sqs.IQueue,
) -> tuple[AlertTopic, WorkflowAlarms]:
    """The workflow stack's topic, its publishers (Learn, RequestApproval), the chat webhook's Lambda when
    configured, the alarms."""
    fns, webhook = functions.functions, None
    if config.alert_webhook_parameter:
        webhook = functions.function(
            "AlertWebhook", FUNCTIONS_DIR / "alerts", "handler.webhook", "skymarshal-alert-webhook"
        )
        iam5(
            default_policy(webhook.role),
            "Resource::*",
            "X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) support no resource-level "
            "permissions; IAM only accepts * for them",
        )
    alerts = AlertTopic(scope, "Alerts", config=config, webhook=webhook)
    alerts.grant_publish(fns.learn)  # Learn raises an escalated run's alert
    alerts.grant_publish(fns.request_approval)  # and a decision that waits for the duty manager with escalations
    watched = [*fns.agents.values(), fns.validate, fns.collate, fns.arbitrate, fns.request_approval, fns.execute]
    watched += [fns.learn, fns.trigger, *([webhook] if webhook else [])]
    alarms = WorkflowAlarms(
        scope,
        "Alarms",
        topic=alerts.topic,
        state_machine=state_machine,
        functions={fn.node.id.replace("-", ""): fn for fn in watched},
        trigger_dlq=trigger_dlq,
        model_services=[*(f"skymarshal-{agent}" for agent in AGENTS), WORKFLOW_SERVICE],
    )
    return alerts, alarms
