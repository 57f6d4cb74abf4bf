"""Each stack's template from the session's one synthesis (`synthesized`, in tests/conftest.py), and the workflow
stack read for its assertions (test_infra_workflow_*.py): the state machine definition, the functions by role and
the IAM statements by role."""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk.assertions import Template
from workflow_stack_helpers import Resolver, as_list, resources_of

from infra import API_STACK_ID, DATA_STACK_ID, KNOWLEDGE_STACK_ID, WORKFLOW_STACK_ID


@pytest.fixture(scope="session")
def data_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(DATA_STACK_ID)


@pytest.fixture(scope="session")
def data_template(data_template_json: dict[str, Any]) -> Template:
    return Template.from_json(data_template_json)


@pytest.fixture(scope="session")
def knowledge_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(KNOWLEDGE_STACK_ID)


@pytest.fixture(scope="session")
def knowledge_template(knowledge_template_json: dict[str, Any]) -> Template:
    return Template.from_json(knowledge_template_json)


@pytest.fixture(scope="session")
def workflow_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(WORKFLOW_STACK_ID)


@pytest.fixture(scope="session")
def workflow_template(workflow_template_json: dict[str, Any]) -> Template:
    return Template.from_json(workflow_template_json)


@pytest.fixture(scope="session")
def api_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(API_STACK_ID)


@pytest.fixture(scope="session")
def api_template(api_template_json: dict[str, Any]) -> Template:
    return Template.from_json(api_template_json)


# ----------------------------------------------------------------------------- the workflow stack, read


@pytest.fixture(scope="module")
def resolve(synthesized, data_template_json, knowledge_template_json) -> Resolver:
    return Resolver(
        {
            synthesized.stacks.data.stack_name: data_template_json,
            synthesized.stacks.knowledge.stack_name: knowledge_template_json,
        }
    )


@pytest.fixture(scope="module")
def definition(workflow_template_json, resolve) -> dict[str, Any]:
    """The DefinitionString as JSON, in the aws partition; a function's ARN reads `<Logical.Arn>`."""
    machines = resources_of(workflow_template_json, "AWS::StepFunctions::StateMachine")
    assert len(machines) == 1
    in_aws = Resolver(resolve.producers, pseudo={"AWS::Partition": "aws"})
    return json.loads(in_aws(next(iter(machines.values()))["Properties"]["DefinitionString"]))


@pytest.fixture(scope="module")
def functions(workflow_template_json) -> dict[str, str]:
    """Role in the workflow (agent name or step service suffix) -> the function's logical id."""
    found = {}
    for logical, fn in resources_of(workflow_template_json, "AWS::Lambda::Function").items():
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
        for policy in resources_of(workflow_template_json, "AWS::IAM::Policy").values():
            if {"Ref": role} in policy["Properties"]["Roles"]:
                for st in policy["Properties"]["PolicyDocument"]["Statement"]:
                    assert st["Effect"] == "Allow"
                    found.append((set(as_list(st["Action"])), {resolve(r) for r in as_list(st["Resource"])}))
        return found

    return by_role
