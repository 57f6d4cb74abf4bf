"""Context handling and the non-default settings (prefix, destroy), checked on the construct tree
without synthesizing: building the tree is cheap, each synthesis is not."""

from __future__ import annotations

import ast
import json

import pytest
from aws_cdk import CfnDeletionPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from cdk_nag import AwsSolutionsChecks

from infra import AppConfig, build_app, cdk_json_context
from infra.config import REPO_ROOT
from skymarshal.data.schema import AGENT_TABLE_ACCESS, AGENTS, TABLES, TABLES_BY_NAME


def _cfn_tables(stacks) -> dict[str, dynamodb.CfnTable]:
    return {logical: table.node.default_child for logical, table in stacks.data.tables.items()}


def test_cdk_json_defaults_are_the_config_defaults() -> None:
    context = cdk_json_context()
    assert (context["stage"], context["tablePrefix"], context["removalPolicy"], context["checkpointExpiryDays"]) == (
        AppConfig.stage,
        AppConfig.table_prefix,
        AppConfig.removal_policy,
        AppConfig.checkpoint_expiry_days,
    )


def test_cdk_json_runs_the_venv_python_and_pins_no_cli_3() -> None:
    assert json.loads((REPO_ROOT / "cdk.json").read_text())["app"] == ".venv/bin/python app.py"
    cli = json.loads((REPO_ROOT / "package.json").read_text())["devDependencies"]["aws-cdk"]
    assert cli.startswith("2."), "CDK CLI 3.x cannot read this cloud assembly (schema 55)"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"removal_policy": "keep"},
        {"table_prefix": "bad prefix/"},
        {"table_prefix": "x" * 250},
        {"stage": "Prod"},
        {"stage": ""},
        {"checkpoint_expiry_days": 0},
        {"audit_anchor_retention_days": 0},
        {"audit_anchor_retention_days": 36_501},  # S3 Object Lock's longest default retention is 100 years
    ],
)
def test_invalid_settings_are_refused(kwargs) -> None:
    with pytest.raises(ValueError):
        AppConfig(**kwargs)


def test_cli_strings_are_converted(make_app, tmp_path) -> None:
    app = make_app(tmp_path, checkpointExpiryDays="45", removalPolicy="DESTROY", auditAnchorRetentionDays="30")
    config = AppConfig.from_context(app.node)
    assert (config.checkpoint_expiry_days, config.removal_policy, config.audit_anchor_retention_days) == (
        45,
        "destroy",
        30,
    )


def test_table_prefix_reaches_every_physical_name(make_app, tmp_path) -> None:
    stacks = build_app(make_app(tmp_path, tablePrefix="qa-"))
    assert {logical: t.table_name for logical, t in _cfn_tables(stacks).items()} == {
        t.name: f"qa-{t.name}" for t in TABLES
    }


def test_destroy_makes_everything_deletable_but_the_locked_anchors_and_stays_nag_clean(make_app, tmp_path) -> None:
    app = make_app(tmp_path, removalPolicy="destroy", stage="qa", auditAnchorRetentionDays="30")
    stacks = build_app(app)
    for logical, table in _cfn_tables(stacks).items():
        assert table.cfn_options.deletion_policy == CfnDeletionPolicy.DELETE, logical
        assert not table.deletion_protection_enabled, logical
    anchors = stacks.data.anchor_bucket
    locked = anchors.node.default_child
    assert isinstance(locked, s3.CfnBucket)
    buckets = [
        c for c in stacks.data.node.find_all() if isinstance(c, s3.CfnBucket) and c.node.path != locked.node.path
    ]
    assert len(buckets) == 2 and all(b.cfn_options.deletion_policy == CfnDeletionPolicy.DELETE for b in buckets)
    # Locked versions cannot be deleted before their retention ends: the anchors' bucket is kept, never emptied.
    assert locked.cfn_options.deletion_policy == CfnDeletionPolicy.RETAIN
    assert anchors.node.try_find_child("AutoDeleteObjectsCustomResource") is None
    assert stacks.data.resolve(locked.object_lock_configuration) == {
        "objectLockEnabled": "Enabled",
        "rule": {"defaultRetention": {"mode": "COMPLIANCE", "days": 30}},
    }
    # `destroy` adds CDK's auto-delete-objects custom resource (a Lambda and a role); the pack
    # must still pass on that tree.
    report = AwsSolutionsChecks().validate_scope(app)
    assert report.success, [v.rule_name for v in report.violations]


@pytest.fixture(scope="module")
def agent_policies(make_app, tmp_path_factory):
    """One app, one probe role per agent granted with grant_agent_read: agent -> (stack, statements)."""
    data = build_app(make_app(tmp_path_factory.mktemp("grants"))).data
    policies = {}
    for agent in AGENTS:
        role = iam.Role(data, f"Probe-{agent}", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"))
        data.grant_agent_read(agent, role)
        policies[agent] = data.resolve(role.node.find_child("DefaultPolicy").document.to_json())["Statement"]
    return data, policies


@pytest.mark.parametrize("agent", AGENTS)
def test_agent_grant_is_exactly_its_row_of_the_access_matrix(agent_policies, agent) -> None:
    data, policies = agent_policies
    statements = policies[agent]

    def as_list(value):  # a single action or resource is rendered without the list
        return value if isinstance(value, list) else [value]

    resources = [r for s in statements for r in as_list(s["Resource"])]
    table_ids = {data.get_logical_id(t.node.default_child): logical for logical, t in data.tables.items()}
    granted = {table_ids[r["Fn::GetAtt"][0]] for r in resources if r.get("Fn::GetAtt", [None])[0] in table_ids}
    assert granted == set(AGENT_TABLE_ACCESS[agent])
    actions = {a for s in statements for a in as_list(s["Action"])}
    assert actions == {"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "kms:Decrypt"}
    index_arns = {
        (table_ids[r["Fn::Join"][1][0]["Fn::GetAtt"][0]], r["Fn::Join"][1][1]) for r in resources if "Fn::Join" in r
    }
    assert index_arns == {
        (t, f"/index/{i.name}") for t in AGENT_TABLE_ACCESS[agent] for i in TABLES_BY_NAME[t].indexes
    }, "each GSI by name, no index/* wildcard"


def test_infra_never_spells_a_table_or_index_name() -> None:
    """Names come from skymarshal.data.schema; a string literal equal to one is a second source."""
    names = {t.name for t in TABLES} | {i.name for t in TABLES for i in t.indexes}
    spelled = []
    for path in sorted((REPO_ROOT / "infra").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in names:
                spelled.append(f"{path.name}:{node.lineno} {node.value!r}")
    assert not spelled, spelled
