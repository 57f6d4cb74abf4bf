"""CDK assertions on the synthesized workflow stack: the state machine's definition, the fourteen functions,
each agent's IAM against the access matrix, and the EventBridge bus, rule and trigger.

Cross-stack values are weak references (cdk.json: `@aws-cdk/core:defaultCrossStackReferences: weak`), so
a table ARN in a workflow policy is `Fn::GetStackOutput` of one of the data stack's outputs; `_Resolver`
follows that output to the table resource and names it `table:<TableName>`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aws_cdk.assertions import Match, Template

from skymarshal.data.schema import AGENT_TABLE_ACCESS, AGENTS, CHECKPOINTS, OPERATIONAL_TABLES, TABLES_BY_NAME
from skymarshal.workflow.deployment import DETAIL_TYPE, SOURCE

BEHAVIOUR = Path(__file__).resolve().parents[2] / "layers/skymarshal/python/skymarshal/llm/behaviour.json"
GEOGRAPHIES = ("us.", "eu.", "apac.", "global.")  # cross-region inference profile prefixes
TRANSIENT = {
    "Lambda.ServiceException",
    "Lambda.AWSLambdaException",
    "Lambda.SdkClientException",
    "Lambda.TooManyRequestsException",
}
READ_ACTIONS = {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query"}
WRITE_ACTIONS = {
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:BatchWriteItem",
    "dynamodb:TransactWriteItems",
    "dynamodb:PartiQLInsert",
    "dynamodb:PartiQLUpdate",
    "dynamodb:PartiQLDelete",
}
STEPS = {
    "validate": "handler.validate",
    "collate": "handler.collate",
    "arbitrator": "handler.arbitrate",
    "approval": "handler.request_approval",
    "execution": "handler.execute",
    "learning": "handler.learn",
    "trigger": "handler.trigger",
}  # POWERTOOLS_SERVICE_NAME suffix -> handler
ROUND_MAPS = {"initial": "Initial round: seven agents", "revision": "Revision round: seven agents"}
AGENT_TASK = {agent: f"{agent.replace('_', ' ').capitalize()} agent" for agent in AGENTS}


# ------------------------------------------------------------------------------------------- helpers


def _resources(template: dict[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == type_}


def _as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]


class _Resolver:
    """Intrinsics to readable strings: `<Logical.Attr>`, `<Logical>`, `<AWS::Region>`; an output of another
    stack read with Fn::GetStackOutput as `table:<TableName>` for a table ARN, else `<StackName:Logical.Attr>`."""

    def __init__(self, producers: dict[str, dict[str, Any]], pseudo: dict[str, str] | None = None) -> None:
        self.producers = producers  # stack name -> template
        self.pseudo = pseudo or {}  # pseudo parameters to substitute, e.g. AWS::Partition -> aws

    def __call__(self, node: Any) -> str:
        if isinstance(node, str):
            return node
        if "Fn::Join" in node:
            separator, parts = node["Fn::Join"]
            return separator.join(self(part) for part in parts)
        if "Fn::GetAtt" in node:
            logical, attribute = node["Fn::GetAtt"]
            return f"<{logical}.{attribute}>"
        if "Ref" in node:
            return self.pseudo.get(node["Ref"], f"<{node['Ref']}>")
        if "Fn::FindInMap" in node:  # the deployment region's row of a mapping: <Mapping:key>
            mapping, _, key = node["Fn::FindInMap"]
            return f"<{mapping}:{key}>"
        if "Fn::GetStackOutput" in node:
            stack, output = node["Fn::GetStackOutput"]["StackName"], node["Fn::GetStackOutput"]["OutputName"]
            producer = self.producers[stack]
            value = producer["Outputs"][output]["Value"]
            logical, attribute = value["Fn::GetAtt"] if "Fn::GetAtt" in value else (value["Ref"], "Ref")
            resource = producer["Resources"][logical]
            if resource["Type"] == "AWS::DynamoDB::Table" and attribute == "Arn":
                return f"table:{resource['Properties']['TableName']}"
            return f"<{stack}:{logical}.{attribute}>"
        raise AssertionError(f"unexpected intrinsic {json.dumps(node)[:200]}")


@pytest.fixture(scope="module")
def resolve(synthesized, data_template_json, knowledge_template_json) -> _Resolver:
    return _Resolver(
        {
            synthesized.stacks.data.stack_name: data_template_json,
            synthesized.stacks.knowledge.stack_name: knowledge_template_json,
        }
    )


@pytest.fixture(scope="module")
def definition(workflow_template_json, resolve) -> dict[str, Any]:
    """The DefinitionString as JSON, in the aws partition; a function's ARN reads `<Logical.Arn>`."""
    machines = _resources(workflow_template_json, "AWS::StepFunctions::StateMachine")
    assert len(machines) == 1
    in_aws = _Resolver(resolve.producers, pseudo={"AWS::Partition": "aws"})
    return json.loads(in_aws(next(iter(machines.values()))["Properties"]["DefinitionString"]))


@pytest.fixture(scope="module")
def functions(workflow_template_json) -> dict[str, str]:
    """Role in the workflow (agent name or step service suffix) -> the function's logical id."""
    found = {}
    for logical, fn in _resources(workflow_template_json, "AWS::Lambda::Function").items():
        env = fn["Properties"]["Environment"]["Variables"]
        name = env.get("SKYMARSHAL_AGENT") or env["POWERTOOLS_SERVICE_NAME"].removeprefix("skymarshal-")
        assert name not in found, f"two functions for {name}"
        found[name] = logical
    return found


@pytest.fixture(scope="module")
def statements(workflow_template_json, resolve):
    """Role logical id -> [(set of actions, set of resolved resources)] over every policy attached to it."""

    def by_role(role: str) -> list[tuple[set[str], set[str]]]:
        found = []
        for policy in _resources(workflow_template_json, "AWS::IAM::Policy").values():
            if {"Ref": role} in policy["Properties"]["Roles"]:
                for st in policy["Properties"]["PolicyDocument"]["Statement"]:
                    assert st["Effect"] == "Allow"
                    found.append((set(_as_list(st["Action"])), {resolve(r) for r in _as_list(st["Resource"])}))
        return found

    return by_role


def _role_of(template: dict[str, Any], function_logical: str) -> str:
    return template["Resources"][function_logical]["Properties"]["Role"]["Fn::GetAtt"][0]


def _machine_name(template: dict[str, Any], logical: str) -> str:
    return template["Resources"][logical]["Properties"]["StateMachineName"]


def _tasks(states: dict[str, Any]):
    """Every Task state, at any depth (Map item processors included): (name, state)."""
    for name, state in states.items():
        if state["Type"] == "Task":
            yield name, state
        if state["Type"] == "Map":
            yield from _tasks(state["ItemProcessor"]["States"])


def _table_and_indexes(table: str) -> set[str]:
    return {f"table:{table}", *(f"table:{table}/index/{i.name}" for i in TABLES_BY_NAME[table].indexes)}


def _foundation_models() -> set[str]:
    """The foundation model of each inference profile id in behaviour.json (agents and arbitrator)."""
    behaviour = json.loads(BEHAVIOUR.read_text())
    ids = {role["model_id"] for role in behaviour["agents"].values()} | {behaviour["arbitrator"]["model_id"]}
    assert all(i.startswith(GEOGRAPHIES) for i in ids), "behaviour.json names inference profiles, never bare ids"
    return {i.split(".", 1)[1] for i in ids}


def _model_arns() -> tuple[set[str], set[str]]:
    """(inference profiles, foundation models) with the default `regional` geography: the profile of the
    deployment region's geography, and its model in the regions that geography routes to."""
    models = _foundation_models()
    return (
        {
            f"arn:<AWS::Partition>:bedrock:<AWS::Region>:<AWS::AccountId>:inference-profile/"
            f"<BedrockGeography:geography>.{m}"
            for m in models
        },
        {f"arn:<AWS::Partition>:bedrock:<BedrockGeography:destinations>::foundation-model/{m}" for m in models},
    )


# ------------------------------------------------------------------------------------- state machine


def test_one_standard_state_machine_with_full_logging_and_tracing(workflow_template: Template) -> None:
    workflow_template.resource_count_is("AWS::StepFunctions::StateMachine", 1)
    workflow_template.has_resource_properties(
        "AWS::StepFunctions::StateMachine",
        {
            "StateMachineType": "STANDARD",
            "LoggingConfiguration": Match.object_like(
                {
                    "Level": "ALL",
                    "IncludeExecutionData": True,
                    "Destinations": [
                        {"CloudWatchLogsLogGroup": {"LogGroupArn": {"Fn::GetAtt": [Match.any_value(), "Arn"]}}}
                    ],
                }
            ),
            "TracingConfiguration": {"Enabled": True},
        },
    )


def test_exactly_two_rounds_each_a_map_over_the_agents(definition) -> None:
    maps = {name for name, state in definition["States"].items() if state["Type"] == "Map"}
    assert maps == set(ROUND_MAPS.values())
    for phase, name in ROUND_MAPS.items():
        state = definition["States"][name]
        assert state["ItemsPath"] == "$.request.agents"
        selector = state["ItemSelector"]
        assert selector["agent.$"] == "$$.Map.Item.Value"
        assert selector["phase"] == phase
        assert selector["prompt.$"] == "$.request.prompt"
        assert ("others.$" in selector) == (phase == "revision")
    assert definition["States"][ROUND_MAPS["revision"]]["ItemSelector"]["others.$"] == "$.phase1.collation"


@pytest.mark.parametrize("phase", ROUND_MAPS)
def test_each_agent_task_catches_everything_and_retries_transient_errors(definition, functions, phase) -> None:
    processor = definition["States"][ROUND_MAPS[phase]]["ItemProcessor"]["States"]
    tasks = dict(_tasks(processor))
    assert set(tasks) == {f"{AGENT_TASK[agent]} ({phase})" for agent in AGENTS}
    for agent in AGENTS:
        task = tasks[f"{AGENT_TASK[agent]} ({phase})"]
        # Wired to this agent's own function, and given every key of the Map item.
        assert task["Resource"] == f"<{functions[agent]}.Arn>"
        assert "agent.$" in task["Parameters"] and ("others.$" in task["Parameters"]) == (phase == "revision")
        assert task["Catch"] == [
            {"ErrorEquals": ["States.ALL"], "ResultPath": "$.failure", "Next": f"Agent failed ({phase})"}
        ]
        assert processor[f"Agent failed ({phase})"]["Type"] == "Pass"
        assert any(set(r["ErrorEquals"]) >= TRANSIENT and r["BackoffRate"] == 2 for r in task["Retry"])


def test_every_task_state_retries(definition) -> None:
    tasks = dict(_tasks(definition["States"]))
    assert len(tasks) == 2 * len(AGENTS) + 7  # Validate, two Collates, Arbitrate, Await approval, Execute, Learn
    for name, task in tasks.items():
        assert task.get("Retry"), f"{name} has no Retry"
        assert all(r["BackoffRate"] == 2 and "States.ALL" not in r["ErrorEquals"] for r in task["Retry"]), name


def test_approval_waits_for_a_task_token_and_escalates_on_timeout(definition, functions) -> None:
    approval = definition["States"]["Await duty manager approval"]
    assert approval["Resource"] == "arn:aws:states:::lambda:invoke.waitForTaskToken"
    assert approval["Parameters"]["FunctionName"] == f"<{functions['approval']}.Arn>"
    assert approval["Parameters"]["Payload"]["task_token.$"] == "$$.Task.Token"
    assert approval["TimeoutSecondsPath"] == "$.request.approval_timeout_seconds"
    catches = {tuple(c["ErrorEquals"]): c["Next"] for c in approval["Catch"]}
    assert catches == {("States.Timeout",): "Escalate: approval timed out"}
    assert approval["Next"] == "Duty manager's decision"


def test_a_failed_arbitration_escalates_to_a_duty_manager(definition, functions) -> None:
    arbitrate = definition["States"]["Arbitrate"]
    assert {tuple(c["ErrorEquals"]): c["Next"] for c in arbitrate["Catch"]} == {
        ("States.ALL",): "Escalate: arbitration failed"
    }
    escalate = definition["States"]["Escalate: arbitration failed"]
    assert escalate["Result"]["reason"] == "ARBITRATION_FAILED" and escalate["ResultPath"] == "$.escalation"
    assert escalate["Next"] == "Learn and record outcome"


def test_internal_deadlines_sit_below_the_lambda_timeouts(workflow_template_json, functions) -> None:
    from skymarshal.handlers.agent import DEADLINE_MARGIN_MS

    for name, logical in functions.items():
        props = workflow_template_json["Resources"][logical]["Properties"]
        env = props["Environment"]["Variables"]
        for key in ("SKYMARSHAL_AGENT_DEADLINE_SECONDS", "SKYMARSHAL_ARBITRATOR_DEADLINE_SECONDS"):
            if key in env:
                assert float(env[key]) + DEADLINE_MARGIN_MS / 1000 < props["Timeout"], name
    arbitrator = workflow_template_json["Resources"][functions["arbitrator"]]["Properties"]
    assert "SKYMARSHAL_ARBITRATOR_DEADLINE_SECONDS" in arbitrator["Environment"]["Variables"]


def _choices(state: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(c["Variable"], str(c.get("StringEquals", c.get("BooleanEquals")))): c["Next"] for c in state["Choices"]}


def test_safety_gate_escalates_when_a_safety_agent_failed(definition) -> None:
    gate = definition["States"]["Safety gate"]
    assert gate["Type"] == "Choice"
    assert _choices(gate) == {("$.phase2.safety_failed", "True"): "Escalate: safety agent failed"}
    assert gate["Default"] == "Arbitrate"
    assert definition["States"]["Collate revision round"]["Next"] == "Safety gate"


def test_duty_manager_decision_rejects_asks_for_alternatives_or_executes(definition) -> None:
    decision = definition["States"]["Duty manager's decision"]
    assert decision["Type"] == "Choice"
    assert _choices(decision) == {
        ("$.approval.action", "reject"): "Learn and record outcome",
        ("$.approval.action", "alternatives"): "Arbitrate",
    }
    assert decision["Default"] == "Execute plan"
    assert definition["States"]["Execute plan"]["Next"] == "Learn and record outcome"


# ----------------------------------------------------------------------------------------- functions


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
        role = resources[_role_of(workflow_template_json, logical)]
        assert "ManagedPolicyArns" not in role["Properties"], f"{name}: logs go to its own log group only"


# ------------------------------------------------------------------------------------------------ IAM


@pytest.mark.parametrize("agent", AGENTS)
def test_agent_reads_exactly_its_row_of_the_access_matrix(workflow_template_json, functions, statements, agent) -> None:
    granted = statements(_role_of(workflow_template_json, functions[agent]))
    reads = {r for actions, resources in granted if actions & READ_ACTIONS for r in resources}
    expected = set().union(*(_table_and_indexes(t) for t in AGENT_TABLE_ACCESS[agent]))
    # The Checkpoints table (checkpoints, thread registry) is the only table beyond the matrix.
    assert reads - _table_and_indexes(CHECKPOINTS) == expected


@pytest.mark.parametrize("agent", AGENTS)
def test_agent_writes_nothing_operational(workflow_template_json, functions, statements, agent) -> None:
    granted = statements(_role_of(workflow_template_json, functions[agent]))
    writes = {r for actions, resources in granted if actions & WRITE_ACTIONS for r in resources}
    assert writes <= _table_and_indexes(CHECKPOINTS)
    assert not any(f"table:{t}" in r for r in writes for t in OPERATIONAL_TABLES)


def test_no_scan_and_no_dynamodb_wildcard_anywhere(workflow_template_json, statements) -> None:
    for role in _resources(workflow_template_json, "AWS::IAM::Role"):
        for actions, resources in statements(role):
            dynamodb = {a for a in actions if a.startswith("dynamodb:")}
            assert "dynamodb:Scan" not in dynamodb, role
            assert not any("*" in a for a in dynamodb), role
            if dynamodb:
                assert not any(r.endswith("/index/*") or r == "*" for r in resources), role


def test_bedrock_only_the_configured_profiles_and_their_models_through_them(
    workflow_template_json, functions, resolve
) -> None:
    profiles, models = _model_arns()
    invokers = set()
    for name, logical in functions.items():
        role = _role_of(workflow_template_json, logical)
        for policy in _resources(workflow_template_json, "AWS::IAM::Policy").values():
            if {"Ref": role} not in policy["Properties"]["Roles"]:
                continue
            for st in policy["Properties"]["PolicyDocument"]["Statement"]:
                actions = set(_as_list(st["Action"]))
                assert not actions & {"bedrock:*", "*"}, name
                if not any(a.startswith("bedrock:Invoke") for a in actions):
                    continue
                invokers.add(name)
                assert actions == {"bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"}, name
                resources = {resolve(r) for r in _as_list(st["Resource"])}
                if "Condition" in st:  # the foundation models, only through the granted profiles
                    assert resources == models, name
                    through = st["Condition"]["StringEquals"]["bedrock:InferenceProfileArn"]
                    assert {resolve(r) for r in _as_list(through)} == profiles, name
                else:
                    assert resources == profiles, name
        env = workflow_template_json["Resources"][logical]["Properties"]["Environment"]["Variables"]
        if name in invokers:  # the runtime resolves the same profile its role names
            assert resolve(env["SKYMARSHAL_BEDROCK_GEOGRAPHY"]) == "<BedrockGeography:geography>", name
    assert invokers == set(AGENTS) | {"arbitrator"}


def test_the_geography_mapping_is_the_runtime_table(workflow_template_json) -> None:
    from skymarshal.llm.profiles import BEDROCK_REGIONS, DESTINATION_REGIONS, region_geography

    table = workflow_template_json["Mappings"]["BedrockGeography"]
    assert set(table) == set(BEDROCK_REGIONS)
    for region, row in table.items():
        assert row == {"geography": region_geography(region), "destinations": DESTINATION_REGIONS[row["geography"]]}


def test_trigger_may_only_start_this_state_machine(workflow_template_json, functions, statements) -> None:
    machine = next(iter(_resources(workflow_template_json, "AWS::StepFunctions::StateMachine")))
    granted = statements(_role_of(workflow_template_json, functions["trigger"]))
    states = [(actions, resources) for actions, resources in granted if any(a.startswith("states:") for a in actions)]
    # StartExecution on the machine; DescribeExecution (a redelivered event starts nothing new: the trigger
    # looks its execution up first) on this machine's executions only, never on another machine's.
    executions = (
        "arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:"
        f"{_machine_name(workflow_template_json, machine)}:*"
    )
    assert sorted(states, key=lambda s: sorted(s[0])) == [
        ({"states:DescribeExecution"}, {executions}),
        ({"states:StartExecution"}, {f"<{machine}>"}),
    ]
    assert {a.split(":")[0] for actions, _ in granted for a in actions} == {"logs", "xray", "states"}
    env = workflow_template_json["Resources"][functions["trigger"]]["Properties"]["Environment"]["Variables"]
    assert env["SKYMARSHAL_STATE_MACHINE_ARN"] == {"Ref": machine}


# ---------------------------------------------------------------------------------------------- events


def test_rule_on_the_bus_starts_the_trigger_with_a_dead_letter_queue(
    workflow_template: Template, workflow_template_json, functions
) -> None:
    assert (SOURCE, DETAIL_TYPE) == ("skymarshal.disruptions", "Flight Disruption Reported")
    workflow_template.resource_count_is("AWS::Events::EventBus", 1)
    bus = next(iter(_resources(workflow_template_json, "AWS::Events::EventBus")))
    queue = next(iter(_resources(workflow_template_json, "AWS::SQS::Queue")))
    workflow_template.has_resource_properties(
        "AWS::Events::Rule",
        {
            "EventBusName": {"Ref": bus},
            "EventPattern": {"source": [SOURCE], "detail-type": [DETAIL_TYPE]},
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
