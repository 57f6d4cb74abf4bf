"""CDK assertions on the duty managers' alerts (infra/alerts.py, infra/alarms.py): the encrypted topic, every alarm
and its metric, Learn and RequestApproval as the only publishers, the subscriptions from context, and cdk-nag with all of them on; and
the state machine's payloads for replay and retry (the disruption id from the input, the revision round's items)."""

from __future__ import annotations

from typing import Any

import aws_cdk as cdk
import pytest
from aws_cdk import aws_lambda as lambda_
from aws_cdk.assertions import Match, Template
from cdk_nag import AwsSolutionsChecks
from workflow_stack_helpers import ROUND_MAPS, resources_of, role_of

from infra import AppConfig, build_app
from infra.alerts import PUBLISH_KEY_ACTIONS, AlertTopic
from skymarshal.data.schema import AGENTS
from skymarshal.workflow.deployment import (
    ALERT_FAILED_METRIC,
    ALERT_TOPIC_ENV,
    BEDROCK_FALLBACK_METRIC,
    ESCALATION_REASONS,
    METRICS_NAMESPACE,
    WEBHOOK_PARAMETER_ENV,
    WORKFLOW_SERVICE,
    escalation_metric,
)


@pytest.fixture(scope="module")
def topic(workflow_template_json) -> str:
    [logical] = resources_of(workflow_template_json, "AWS::SNS::Topic")
    return logical


@pytest.fixture(scope="module")
def alarms(workflow_template_json) -> list[dict[str, Any]]:
    return [a["Properties"] for a in resources_of(workflow_template_json, "AWS::CloudWatch::Alarm").values()]


def _by_metric(alarms, name: str, namespace: str = METRICS_NAMESPACE) -> list[dict[str, Any]]:
    return [a for a in alarms if a.get("MetricName") == name and a.get("Namespace") == namespace]


def test_one_topic_encrypted_with_its_own_rotated_key_https_only(workflow_template, workflow_template_json, topic):
    props = workflow_template_json["Resources"][topic]["Properties"]
    key = props["KmsMasterKeyId"]["Fn::GetAtt"][0]
    assert workflow_template_json["Resources"][key]["Type"] == "AWS::KMS::Key"
    assert workflow_template_json["Resources"][key]["Properties"]["EnableKeyRotation"] is True
    workflow_template.has_resource_properties(
        "AWS::SNS::TopicPolicy",
        {
            "Topics": [{"Ref": topic}],
            "PolicyDocument": {
                "Statement": Match.array_with(
                    [Match.object_like({"Effect": "Deny", "Condition": {"Bool": {"aws:SecureTransport": "false"}}})]
                )
            },
        },
    )
    # CloudWatch may use the key (an alarm's notification to an encrypted topic), from this account only.
    statements = workflow_template_json["Resources"][key]["Properties"]["KeyPolicy"]["Statement"]
    cloudwatch = [s for s in statements if s.get("Principal") == {"Service": "cloudwatch.amazonaws.com"}]
    assert len(cloudwatch) == 1 and set(cloudwatch[0]["Action"]) == {"kms:GenerateDataKey*", "kms:Decrypt"}
    assert "aws:SourceAccount" in cloudwatch[0]["Condition"]["StringEquals"]
    workflow_template.resource_count_is("AWS::SNS::Subscription", 0)  # none without context


def test_every_alarm_notifies_the_topic_and_treats_no_data_as_fine(alarms, topic):
    assert alarms
    for alarm in alarms:
        assert alarm["AlarmActions"] == [{"Ref": topic}], alarm.get("AlarmDescription")
        assert alarm["TreatMissingData"] == "notBreaching" and alarm["EvaluationPeriods"] == 1


@pytest.mark.parametrize("reason", ESCALATION_REASONS)
def test_one_alarm_per_escalation_code(alarms, reason):
    [alarm] = _by_metric(alarms, escalation_metric(reason))
    assert alarm["Dimensions"] == [{"Name": "service", "Value": WORKFLOW_SERVICE}]
    assert (alarm["Threshold"], alarm["ComparisonOperator"]) == (1, "GreaterThanOrEqualToThreshold")
    assert alarm["Statistic"] == "Sum" and alarm["Period"] == 300 and reason in alarm["AlarmDescription"]


def test_failed_and_timed_out_executions_are_alarmed(alarms, workflow_template_json):
    [machine] = resources_of(workflow_template_json, "AWS::StepFunctions::StateMachine")
    for metric in ("ExecutionsFailed", "ExecutionsTimedOut"):
        [alarm] = _by_metric(alarms, metric, "AWS/States")
        assert alarm["Dimensions"] == [{"Name": "StateMachineArn", "Value": {"Ref": machine}}]


def test_the_trigger_dead_letter_queue_is_alarmed_at_one_message(alarms, workflow_template_json):
    [alarm] = _by_metric(alarms, "ApproximateNumberOfMessagesVisible", "AWS/SQS")
    queue = alarm["Dimensions"][0]["Value"]["Fn::GetAtt"][0]
    targets = [
        t
        for r in resources_of(workflow_template_json, "AWS::Events::Rule").values()
        for t in r["Properties"]["Targets"]
    ]
    assert [t["DeadLetterConfig"]["Arn"]["Fn::GetAtt"][0] for t in targets] == [queue]
    assert alarm["Threshold"] == 1


def test_every_workflow_lambda_has_an_errors_and_a_throttles_alarm(alarms, functions):
    for metric in ("Errors", "Throttles"):
        watched = {a["Dimensions"][0]["Value"]["Ref"] for a in _by_metric(alarms, metric, "AWS/Lambda")}
        assert watched == set(functions.values()), metric


def test_bedrock_fallbacks_are_summed_over_the_agents_and_the_arbitrator(alarms):
    [alarm] = [a for a in alarms if "Metrics" in a]
    expression = next(m for m in alarm["Metrics"] if "Expression" in m)
    stats = [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m]
    assert {m["MetricName"] for m in stats} == {BEDROCK_FALLBACK_METRIC}
    assert {m["Dimensions"][0]["Value"] for m in stats} == {*(f"skymarshal-{a}" for a in AGENTS), WORKFLOW_SERVICE}
    assert expression["Expression"].count("FILL(") == len(AGENTS) + 1 and alarm["Threshold"] >= 1


def test_a_failed_alert_publish_is_alarmed(alarms):
    assert len(_by_metric(alarms, ALERT_FAILED_METRIC)) == 1


def test_only_learn_and_approval_publish_and_only_to_the_topic(workflow_template_json, functions, statements, topic):
    [key] = [k for k, r in resources_of(workflow_template_json, "AWS::KMS::Key").items() if "Alert" in k]
    publishers = {}
    for name, logical in functions.items():
        for actions, resources in statements(role_of(workflow_template_json, logical)):
            if any(a.startswith("sns:") for a in actions):
                publishers[name] = (actions, resources)
    # Learn: an escalated run; RequestApproval: a decision waiting for the duty manager with escalations
    assert publishers == {name: ({"sns:Publish"}, {f"<{topic}>"}) for name in ("learning", "approval")}
    for name in ("learning", "approval"):
        assert (set(PUBLISH_KEY_ACTIONS), {f"<{key}.Arn>"}) in statements(
            role_of(workflow_template_json, functions[name])
        )
        env = workflow_template_json["Resources"][functions[name]]["Properties"]["Environment"]["Variables"]
        assert env[ALERT_TOPIC_ENV] == {"Ref": topic}


def test_learn_gets_the_execution_arn_and_the_approval_the_disruption_id(definition):
    states = definition["States"]
    assert states["Learn and record outcome"]["Parameters"]["execution_arn.$"] == "$$.Execution.Id"
    approval = states["Await duty manager approval"]["Parameters"]["Payload"]
    assert approval["disruption_id.$"] == "$.request.disruption_id"


def test_a_retry_runs_only_the_listed_agents_and_collate_knows_which(definition):
    items = {phase: definition["States"][name]["ItemsPath"] for phase, name in ROUND_MAPS.items()}
    assert items == {"initial": "$.request.agents", "revision": "$.request.revision_agents"}
    for title, phase in (("initial", "initial"), ("revision", "revision")):
        payload = definition["States"][f"Collate {title} round"]["Parameters"]
        assert payload["ran.$"] == items[phase]


# -------------------------------------------------------------------------- subscriptions from context


def test_subscriptions_from_context_and_the_webhook_reads_only_its_parameter(make_app, tmp_path):
    config = AppConfig(
        alert_emails=("duty@example.com",), alert_sms=("+971500000001",), alert_webhook_parameter="/skymarshal/chat"
    )
    stack = cdk.Stack(
        make_app(tmp_path), "AlertsProbe", env=cdk.Environment(account="123456789012", region="eu-west-1")
    )
    webhook = lambda_.Function(
        stack, "Hook", runtime=lambda_.Runtime.PYTHON_3_12, handler="index.handler", code=lambda_.Code.from_inline("x")
    )
    AlertTopic(stack, "Alerts", config=config, webhook=webhook)
    template = Template.from_stack(stack)
    subscriptions = {
        (s["Properties"]["Protocol"], str(s["Properties"]["Endpoint"]))
        for s in template.to_json()["Resources"].values()
        if s["Type"] == "AWS::SNS::Subscription"
    }
    assert {(p, e) for p, e in subscriptions if p != "lambda"} == {
        ("email", "duty@example.com"),
        ("sms", "+971500000001"),
    }
    assert [p for p, _ in subscriptions].count("lambda") == 1
    template.has_resource_properties(
        "AWS::IAM::Policy",
        {
            "PolicyDocument": {
                "Statement": [
                    {
                        "Action": "ssm:GetParameter",
                        "Effect": "Allow",
                        "Resource": "arn:aws:ssm:eu-west-1:123456789012:parameter/skymarshal/chat",
                    }
                ]
            }
        },
    )
    template.has_resource_properties(
        "AWS::Lambda::Function", {"Environment": {"Variables": {WEBHOOK_PARAMETER_ENV: "/skymarshal/chat"}}}
    )


@pytest.mark.parametrize(
    "kwargs",
    [
        {"alert_emails": ("not-an-address",)},
        {"alert_sms": ("0500000001",)},
        {"alert_webhook_parameter": "bad name!"},
        {"console_url": "http://occ.example.com"},
    ],
)
def test_bad_alert_settings_are_refused(kwargs):
    with pytest.raises(ValueError):
        AppConfig(**kwargs)


def test_alert_context_lists_are_read_from_strings_and_stay_nag_clean(make_app, tmp_path):
    app = make_app(
        tmp_path,
        alertEmails="a@example.com, b@example.com",
        alertSms="+971500000001",
        alertWebhookParameter="/skymarshal/chat",
        consoleUrl="https://occ.example.com",
    )
    stacks = build_app(app)
    assert stacks.config.alert_emails == ("a@example.com", "b@example.com")
    assert stacks.workflow.alerts.topic is not None and "AlertWebhookErrors" in stacks.workflow.alarms.alarms
    report = AwsSolutionsChecks().validate_scope(app)
    assert report.success, [
        (v.rule_name, [r.resource_logical_id for r in v.violating_resources]) for v in report.violations
    ]
