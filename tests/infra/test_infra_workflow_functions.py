"""CDK assertions on the synthesized workflow stack's functions: fourteen of them (one per agent and step), their
runtime, layers and tracing, each agent's IAM against the access matrix, Bedrock through the configured inference
profiles only, and the EventBridge bus, rule and trigger. The fixtures are in tests/infra/conftest.py.
"""

from __future__ import annotations

import pytest
from aws_cdk.assertions import Match, Template
from workflow_stack_helpers import (
    READ_ACTIONS,
    STEPS,
    WRITE_ACTIONS,
    as_list,
    machine_name,
    model_arns,
    resources_of,
    role_of,
    table_and_indexes,
)

from skymarshal.data.schema import AGENT_TABLE_ACCESS, AGENTS, CHECKPOINTS, OPERATIONAL_TABLES
from skymarshal.workflow.deployment import DETAIL_TYPES, SOURCE


def test_fourteen_functions_one_per_agent_and_step(functions) -> None:
    assert set(functions) == set(AGENTS) | set(STEPS)
    assert len(functions) == 14


def test_every_function_runtime_layers_tracing_and_powertools(workflow_template_json, functions) -> None:
    resources = workflow_template_json["Resources"]
    for name, logical in functions.items():
        props = resources[logical]["Properties"]
        assert props["Runtime"] == "python3.12", name
        assert props["Architectures"] == ["x86_64"], name
        assert props["TracingConfig"] == {"Mode": "Active"}, name
        assert len(props["Layers"]) == 2, name
        env = props["Environment"]["Variables"]
        assert env["POWERTOOLS_SERVICE_NAME"] == f"skymarshal-{name}"
        assert env["POWERTOOLS_LOG_LEVEL"] and env["POWERTOOLS_METRICS_NAMESPACE"] == "SkyMarshal"
        assert props["Handler"] == STEPS.get(name, "handler.handler"), name
        assert resources[logical]["Metadata"]["aws:asset:path"], "the local runner imports handlers from here"


def test_functions_have_no_aws_managed_policy(workflow_template_json, functions) -> None:
    resources = workflow_template_json["Resources"]
    for name, logical in functions.items():
        role = resources[role_of(workflow_template_json, logical)]
        assert "ManagedPolicyArns" not in role["Properties"], f"{name}: logs go to its own log group only"


# ------------------------------------------------------------------------------------------------ IAM


@pytest.mark.parametrize("agent", AGENTS)
def test_agent_reads_exactly_its_row_of_the_access_matrix(workflow_template_json, functions, statements, agent) -> None:
    granted = statements(role_of(workflow_template_json, functions[agent]))
    reads = {r for actions, resources in granted if actions & READ_ACTIONS for r in resources}
    expected = set().union(*(table_and_indexes(t) for t in AGENT_TABLE_ACCESS[agent]))
    # The Checkpoints table (checkpoints, thread registry) is the only table beyond the matrix.
    assert reads - table_and_indexes(CHECKPOINTS) == expected


@pytest.mark.parametrize("agent", AGENTS)
def test_agent_writes_nothing_operational(workflow_template_json, functions, statements, agent) -> None:
    granted = statements(role_of(workflow_template_json, functions[agent]))
    writes = {r for actions, resources in granted if actions & WRITE_ACTIONS for r in resources}
    assert writes <= table_and_indexes(CHECKPOINTS)
    assert not any(f"table:{t}" in r for r in writes for t in OPERATIONAL_TABLES)


def test_no_scan_and_no_dynamodb_wildcard_anywhere(workflow_template_json, statements) -> None:
    for role in resources_of(workflow_template_json, "AWS::IAM::Role"):
        for actions, resources in statements(role):
            dynamodb = {a for a in actions if a.startswith("dynamodb:")}
            assert "dynamodb:Scan" not in dynamodb, role
            assert not any("*" in a for a in dynamodb), role
            if dynamodb:
                assert not any(r.endswith("/index/*") or r == "*" for r in resources), role


def test_bedrock_only_the_configured_profiles_and_their_models_through_them(
    workflow_template_json, functions, resolve
) -> None:
    profiles, models = model_arns()
    invokers = set()
    for name, logical in functions.items():
        role = role_of(workflow_template_json, logical)
        for policy in resources_of(workflow_template_json, "AWS::IAM::Policy").values():
            if {"Ref": role} not in policy["Properties"]["Roles"]:
                continue
            for st in policy["Properties"]["PolicyDocument"]["Statement"]:
                actions = set(as_list(st["Action"]))
                assert not actions & {"bedrock:*", "*"}, name
                if not any(a.startswith("bedrock:Invoke") for a in actions):
                    continue
                invokers.add(name)
                assert actions == {"bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"}, name
                resources = {resolve(r) for r in as_list(st["Resource"])}
                if "Condition" in st:  # the foundation models, only through the granted profiles
                    assert resources == models, name
                    through = st["Condition"]["StringEquals"]["bedrock:InferenceProfileArn"]
                    assert {resolve(r) for r in as_list(through)} == profiles, name
                else:
                    assert resources == profiles, name
        env = workflow_template_json["Resources"][logical]["Properties"]["Environment"]["Variables"]
        if name in invokers:  # the runtime resolves the same profile its role names
            assert resolve(env["SKYMARSHAL_BEDROCK_GEOGRAPHY"]) == "<BedrockGeography:geography>", name
    # Validate reads a report with the model where the parser found nothing
    assert invokers == set(AGENTS) | {"arbitrator", "validate"}


def test_the_geography_mapping_is_the_runtime_table(workflow_template_json) -> None:
    from skymarshal.llm.profiles import BEDROCK_REGIONS, DESTINATION_REGIONS, region_geography

    table = workflow_template_json["Mappings"]["BedrockGeography"]
    assert set(table) == set(BEDROCK_REGIONS)
    for region, row in table.items():
        assert row == {"geography": region_geography(region), "destinations": DESTINATION_REGIONS[row["geography"]]}


def test_validate_may_only_describe_this_state_machines_executions(
    workflow_template_json, functions, statements
) -> None:
    """Validate's claim sweep asks whether a claim's holder still runs (workflow/runs/flight_claims.py): it may
    DescribeExecution on this machine's executions and nothing else of Step Functions, and the machine's ARN it is
    given is built from the fixed name (a Ref would make the machine and the function it invokes depend on each
    other)."""
    machine = next(iter(resources_of(workflow_template_json, "AWS::StepFunctions::StateMachine")))
    name = machine_name(workflow_template_json, machine)
    granted = statements(role_of(workflow_template_json, functions["validate"]))
    states = [(actions, resources) for actions, resources in granted if any(a.startswith("states:") for a in actions)]
    executions = f"arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:{name}:*"
    assert states == [({"states:DescribeExecution"}, {executions})]
    env = workflow_template_json["Resources"][functions["validate"]]["Properties"]["Environment"]["Variables"]
    parts = env["SKYMARSHAL_STATE_MACHINE_ARN"]["Fn::Join"][1]
    assert "".join(p for p in parts if isinstance(p, str)).endswith(f":stateMachine:{name}")
    assert {"Ref": machine} not in parts


def test_trigger_may_only_start_this_state_machine(workflow_template_json, functions, statements) -> None:
    machine = next(iter(resources_of(workflow_template_json, "AWS::StepFunctions::StateMachine")))
    granted = statements(role_of(workflow_template_json, functions["trigger"]))
    states = [(actions, resources) for actions, resources in granted if any(a.startswith("states:") for a in actions)]
    # StartExecution on the machine; DescribeExecution (a redelivered event starts nothing new: the trigger
    # looks its execution up first) on this machine's executions only, never on another machine's.
    executions = (
        "arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:"
        f"{machine_name(workflow_template_json, machine)}:*"
    )
    assert sorted(states, key=lambda s: sorted(s[0])) == [
        ({"states:DescribeExecution"}, {executions}),
        ({"states:StartExecution"}, {f"<{machine}>"}),
    ]
    assert {a.split(":")[0] for actions, _ in granted for a in actions} == {"logs", "xray", "states", "sqs"}
    # sqs: a refused event goes to the rule's dead-letter queue with its reason, sent by the Trigger itself
    queue = next(iter(resources_of(workflow_template_json, "AWS::SQS::Queue")))
    sqs = [(actions, resources) for actions, resources in granted if any(a.startswith("sqs:") for a in actions)]
    assert len(sqs) == 1 and "sqs:SendMessage" in sqs[0][0] and sqs[0][1] == {f"<{queue}.Arn>"}
    env = workflow_template_json["Resources"][functions["trigger"]]["Properties"]["Environment"]["Variables"]
    assert env["SKYMARSHAL_STATE_MACHINE_ARN"] == {"Ref": machine}
    assert env["SKYMARSHAL_TRIGGER_DLQ_URL"] == {"Ref": queue}


# ---------------------------------------------------------------------------------------------- events


def test_rule_on_the_bus_starts_the_trigger_with_a_dead_letter_queue(
    workflow_template: Template, workflow_template_json, functions
) -> None:
    assert (SOURCE, DETAIL_TYPES) == (
        "skymarshal.disruptions",
        ("Flight Disruption Reported", "Flight Movement Message"),
    )
    workflow_template.resource_count_is("AWS::Events::EventBus", 2)  # and the message bus (test_infra_messages.py)
    [bus] = [k for k in resources_of(workflow_template_json, "AWS::Events::EventBus") if "DisruptionBus" in k]
    queue = next(iter(resources_of(workflow_template_json, "AWS::SQS::Queue")))
    workflow_template.has_resource_properties(
        "AWS::Events::Rule",
        {
            "EventBusName": {"Ref": bus},
            # a report in words and an IATA movement message (MVT, MVA, DIV) both start a run
            "EventPattern": {"source": [SOURCE], "detail-type": list(DETAIL_TYPES)},
            "Targets": [
                Match.object_like(
                    {
                        "Arn": {"Fn::GetAtt": [functions["trigger"], "Arn"]},
                        "DeadLetterConfig": {"Arn": {"Fn::GetAtt": [queue, "Arn"]}},
                        "RetryPolicy": Match.object_like({"MaximumRetryAttempts": Match.any_value()}),
                    }
                )
            ],
        },
    )
    workflow_template.has_resource_properties(
        "AWS::Lambda::Permission",
        {
            "Action": "lambda:InvokeFunction",
            "Principal": "events.amazonaws.com",
            "FunctionName": {"Fn::GetAtt": [functions["trigger"], "Arn"]},
        },
    )
