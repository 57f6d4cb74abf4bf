"""CDK assertions on the message bus (infra/messages.py): a bus of its own, Execute the only function that may put
events on it and only on it, its name in Execute's environment, an alarm on messages not published, and one on
inbound messages parked in the quarantine (workflow/quarantine.py)."""

from __future__ import annotations

import pytest
from workflow_stack_helpers import resources_of

from skymarshal.workflow.deployment import (
    MESSAGE_BUS_ENV,
    MESSAGES_FAILED_METRIC,
    METRICS_NAMESPACE,
    RECORDS_QUARANTINED_METRIC,
    WORKFLOW_SERVICE,
)


def _bus(template) -> str:
    [logical] = [k for k, r in resources_of(template, "AWS::Events::EventBus").items() if "Messages" in k]
    return logical


def test_a_bus_of_its_own_beside_the_disruption_bus(workflow_template_json):
    buses = {r["Properties"]["Name"] for r in resources_of(workflow_template_json, "AWS::Events::EventBus").values()}
    assert len(buses) == 2 and any(name.endswith("-messages") for name in buses)


def test_only_execute_may_put_events_and_only_on_the_message_bus(workflow_template_json, functions, statements):
    bus = _bus(workflow_template_json)
    publishers = {}
    for name, logical in functions.items():
        role = workflow_template_json["Resources"][logical]["Properties"]["Role"]["Fn::GetAtt"][0]
        for actions, resources in statements(role):
            if any(a.startswith("events:") for a in actions):
                publishers[name] = (actions, resources)
    assert publishers == {"execution": ({"events:PutEvents"}, {f"<{bus}.Arn>"})}
    env = workflow_template_json["Resources"][functions["execution"]]["Properties"]["Environment"]["Variables"]
    assert env[MESSAGE_BUS_ENV] == {"Ref": bus}


@pytest.mark.parametrize("metric", [MESSAGES_FAILED_METRIC, RECORDS_QUARANTINED_METRIC])
def test_an_alarm_on_messages_not_published_and_on_messages_parked(workflow_template_json, metric):
    alarms = [a["Properties"] for a in resources_of(workflow_template_json, "AWS::CloudWatch::Alarm").values()]
    [alarm] = [a for a in alarms if a.get("MetricName") == metric]
    assert alarm["Namespace"] == METRICS_NAMESPACE
    assert alarm["Dimensions"] == [{"Name": "service", "Value": WORKFLOW_SERVICE}]
