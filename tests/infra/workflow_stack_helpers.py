"""Helpers of the workflow stack's CDK assertions (test_infra_workflow_*.py): the expected steps, rounds and IAM
actions, and readers of the synthesized template (resources by type, intrinsics resolved to readable strings).

Cross-stack values are weak references (cdk.json: `@aws-cdk/core:defaultCrossStackReferences: weak`), so
a table ARN in a workflow policy is `Fn::GetStackOutput` of one of the data stack's outputs; `Resolver`
follows that output to the table resource and names it `table:<TableName>`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from skymarshal.data.schema import AGENTS, TABLES_BY_NAME

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
DEBATE_MAP = "Debate round: seven agents"  # the debate rounds (3 to 5) after the revision round, one Map looped
AGENT_TASK = {agent: f"{agent.replace('_', ' ').capitalize()} agent" for agent in AGENTS}


def resources_of(template: dict[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == type_}


def as_list(value: Any) -> list:
    return value if isinstance(value, list) else [value]


class Resolver:
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


def role_of(template: dict[str, Any], function_logical: str) -> str:
    return template["Resources"][function_logical]["Properties"]["Role"]["Fn::GetAtt"][0]


def machine_name(template: dict[str, Any], logical: str) -> str:
    return template["Resources"][logical]["Properties"]["StateMachineName"]


def task_states(states: dict[str, Any]):
    """Every Task state, at any depth (Map item processors included): (name, state)."""
    for name, state in states.items():
        if state["Type"] == "Task":
            yield name, state
        if state["Type"] == "Map":
            yield from task_states(state["ItemProcessor"]["States"])


def table_and_indexes(table: str) -> set[str]:
    return {f"table:{table}", *(f"table:{table}/index/{i.name}" for i in TABLES_BY_NAME[table].indexes)}


def foundation_models() -> set[str]:
    """The foundation model of each inference profile id in behaviour.json (agents and arbitrator)."""
    behaviour = json.loads(BEHAVIOUR.read_text())
    ids = {role["model_id"] for role in behaviour["agents"].values()} | {behaviour["arbitrator"]["model_id"]}
    assert all(i.startswith(GEOGRAPHIES) for i in ids), "behaviour.json names inference profiles, never bare ids"
    return {i.split(".", 1)[1] for i in ids}


def model_arns() -> tuple[set[str], set[str]]:
    """(inference profiles, foundation models) with the default `regional` geography: the profile of the
    deployment region's geography, and its model in the regions that geography routes to."""
    models = foundation_models()
    return (
        {
            f"arn:<AWS::Partition>:bedrock:<AWS::Region>:<AWS::AccountId>:inference-profile/"
            f"<BedrockGeography:geography>.{m}"
            for m in models
        },
        {f"arn:<AWS::Partition>:bedrock:<BedrockGeography:destinations>::foundation-model/{m}" for m in models},
    )
