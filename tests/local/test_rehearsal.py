"""The deploy rehearsal (skymarshal.local.rehearsal): what it does to a template before moto's CloudFormation
reads it, the stack order, and the deploy of the session's synthesized app into a fresh emulator.

The full `make deploy-rehearsal` (bundled assets, the airline loaded, the demo approved and executed) takes
about three minutes here; the system test deploys the session's synthesis without the demo (`--deploy-only`),
in a process of its own so its emulator is not the session's."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from skymarshal.local.rehearsal import prepare, skipped_marker, stacks_in_order, unsupported

TEMPLATE = {
    "Resources": {
        "Bucket": {"Type": "AWS::S3::Bucket", "Properties": {}},
        "BucketPolicy": {"Type": "AWS::S3::BucketPolicy", "Properties": {"Bucket": {"Ref": "Bucket"}}},
        "KnowledgeBase": {"Type": "AWS::Bedrock::KnowledgeBase", "Properties": {}},
        "Provider": {"Type": "Custom::AWS", "Properties": {}},
        "Key": {"Type": "AWS::KMS::Key", "Properties": {"KeyPolicy": {}, "Tags": [{"Key": "Stage", "Value": "dev"}]}},
        "Queue": {
            "Type": "AWS::SQS::Queue",
            "DependsOn": ["KnowledgeBase", "Bucket"],
            "Properties": {
                "Tags": [
                    {"Key": "kb", "Value": {"Fn::GetAtt": ["KnowledgeBase", "KnowledgeBaseId"]}},
                    {"Key": "bus", "Value": {"Fn::GetStackOutput": {"StackName": "S-Data", "OutputName": "Out"}}},
                ]
            },
        },
    },
    "Outputs": {"Kb": {"Value": {"Ref": "KnowledgeBase"}}},
    "Rules": {"CheckBootstrapVersion": {}},
}


def test_prepare_skips_what_moto_cannot_create_and_says_so_line_by_line():
    lines: list[str] = []
    prepared = prepare(json.loads(json.dumps(TEMPLATE)), "S-Api", lambda stack, name: f"{stack}:{name}", lines.append)
    assert set(prepared["Resources"]) == {"Bucket", "Key", "Queue"}
    skipped = [line for line in lines if "skipped" in line]
    assert len(skipped) == 3 and all(("S-Api/" in line and ": " in line) for line in skipped)
    assert any("BucketPolicy (AWS::S3::BucketPolicy)" in line for line in skipped)
    assert any("Provider (Custom::AWS): a custom resource" in line for line in skipped)
    queue = prepared["Resources"]["Queue"]
    assert queue["DependsOn"] == ["Bucket"]
    assert queue["Properties"]["Tags"] == [
        {"Key": "kb", "Value": skipped_marker("KnowledgeBase")},
        {"Key": "bus", "Value": "S-Data:Out"},  # the deployed stack's output, as CloudFormation resolves it
    ]
    assert prepared["Outputs"]["Kb"]["Value"] == skipped_marker("KnowledgeBase")
    assert "Rules" not in prepared
    assert prepared["Resources"]["Key"]["Properties"]["Tags"] == [{"TagKey": "Stage", "TagValue": "dev"}]
    assert any("adapted S-Api/Key" in line for line in lines)


@pytest.mark.parametrize(
    ("kind", "emulated"),
    [
        ("AWS::DynamoDB::Table", True),
        ("AWS::StepFunctions::StateMachine", True),
        ("AWS::Lambda::Function", True),
        ("AWS::Bedrock::KnowledgeBase", False),
        ("AWS::S3Vectors::Index", False),
        ("AWS::Cognito::UserPool", False),
        ("AWS::CloudFront::Distribution", False),
        ("Custom::CDKBucketDeployment", False),
    ],
)
def test_what_the_emulator_can_create(kind, emulated):
    assert (unsupported(kind) is None) is emulated


def test_stacks_deploy_in_dependency_order(tmp_path):
    artifacts = {
        "App-Api": {"type": "aws:cloudformation:stack", "dependencies": ["App-Workflow", "App-Data"]},
        "App-Workflow": {"type": "aws:cloudformation:stack", "dependencies": ["App-Data", "App-Knowledge"]},
        "App-Knowledge": {"type": "aws:cloudformation:stack", "dependencies": ["App-Knowledge.assets"]},
        "App-Data": {"type": "aws:cloudformation:stack", "dependencies": ["App-Data.assets"]},
        "App-Data.assets": {"type": "cdk:asset-manifest"},
    }
    for name, artifact in artifacts.items():
        artifact["properties"] = {"stackName": name.replace("App-", "App-dev-")}
    (tmp_path / "manifest.json").write_text(json.dumps({"artifacts": artifacts}))
    assert [stack for _, stack in stacks_in_order(tmp_path)] == [
        "App-dev-Data",
        "App-dev-Knowledge",
        "App-dev-Workflow",
        "App-dev-Api",
    ]


@pytest.mark.system
def test_the_synthesized_app_deploys_into_the_emulator_with_every_skip_printed(synthesized, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "skymarshal.local.rehearsal", "--outdir", str(synthesized.outdir), "--deploy-only"],
        capture_output=True,
        text=True,
        timeout=600,
        env={"SKYMARSHAL_HOME": str(tmp_path), "PATH": os.environ["PATH"], "HOME": str(tmp_path)},
    )
    lines = done.stdout.splitlines()
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    for _, stack in stacks_in_order(synthesized.outdir):
        assert any(line.startswith(f"{stack}: CREATE_COMPLETE") for line in lines), stack
    # Every resource the emulator cannot create has its own line, and nothing else was dropped.
    for path in synthesized.template_files():
        template = json.loads(path.read_text())
        for logical, resource in template["Resources"].items():
            if unsupported(resource["Type"]):
                assert any(f"/{logical} ({resource['Type']})" in line for line in lines), logical
    assert "Traceback" not in done.stdout + done.stderr
