"""Each Lambda's identity policies, read from the synthesized templates and resolved to the local account's names,
and the recorded calls (skymarshal.local.iam_calls) evaluated against them with iam-simulate (iam_simulate.mjs).

No second, hand-written list of permissions: the policy documents are the ones CDK synthesized, with their
`Ref`, `Fn::GetAtt`, `Fn::Join`, `Fn::GetStackOutput` and `Fn::FindInMap` resolved as CloudFormation would
for the local account. A resource the local run has no counterpart of resolves to an ARN that matches
nothing, so a call that needed it is denied rather than silently allowed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skymarshal.data.schema import Naming
from skymarshal.local.iam_calls import ACCOUNT, Call
from skymarshal.local.workflow import MESSAGE_BUS_NAME

REGION = "us-east-1"
ROOT = Path(__file__).resolve().parents[2]
SIMULATOR = Path(__file__).with_name("iam_simulate.mjs")
PSEUDO = {"AWS::Partition": "aws", "AWS::Region": REGION, "AWS::AccountId": ACCOUNT, "AWS::URLSuffix": "amazonaws.com"}


@dataclass(frozen=True)
class LocalNames:
    """What the local account calls the resources the templates create."""

    naming: Naming
    bucket: str  # the artifacts bucket
    audit_key_arn: str
    state_machine_arn: str
    anchor_bucket: str = "unset-audit-anchors"  # the audit anchors' Object Lock bucket (infra/storage.py)
    message_bus: str = MESSAGE_BUS_NAME  # where Execute publishes (infra/messages.py)


class Resolver:
    """CloudFormation's intrinsic functions over the app's templates, with the local account's physical names."""

    def __init__(self, outdir: Path, names: LocalNames) -> None:
        self.templates = {
            p.name.removesuffix(".template.json"): json.loads(p.read_text()) for p in outdir.glob("*.template.json")
        }
        self.names = names
        machine = next(
            r
            for t in self.templates.values()
            for r in t["Resources"].values()
            if r["Type"] == "AWS::StepFunctions::StateMachine"
        )
        # Policies name the state machine's executions by its literal name (an execution ARN has no attribute).
        self.renames = {machine["Properties"]["StateMachineName"]: names.state_machine_arn.rsplit(":", 1)[1]}

    def stack(self, stack_name: str) -> str:
        """`SkyMarshal-dev-Data` (a deployed stack name) → the artifact `SkyMarshal-Data`."""
        return next(a for a in self.templates if stack_name.endswith(a.split("-", 1)[1]))

    def resolve(self, node: Any, stack: str) -> Any:
        if isinstance(node, str):
            for old, new in self.renames.items():
                node = node.replace(f":{old}:", f":{new}:").replace(f":{old}", f":{new}")
            return node
        if isinstance(node, list):
            return [self.resolve(n, stack) for n in node]
        if not isinstance(node, dict) or len(node) != 1:
            return {k: self.resolve(v, stack) for k, v in node.items()} if isinstance(node, dict) else node
        ((fn, arg),) = node.items()
        if fn == "Ref":
            return PSEUDO.get(arg) or self._ref(stack, arg)
        if fn == "Fn::GetAtt":
            return self._get_att(stack, *arg)
        if fn == "Fn::Join":
            return arg[0].join(self.resolve(part, stack) for part in arg[1])
        if fn == "Fn::GetStackOutput":
            other = self.stack(arg["StackName"])
            return self.resolve(self.templates[other]["Outputs"][arg["OutputName"]]["Value"], other)
        if fn == "Fn::Sub" and isinstance(arg, str):  # CDK's bootstrap names: pseudo parameters only
            for name, value in PSEUDO.items():
                arg = arg.replace("${" + name + "}", value)
            return arg
        if fn == "Fn::FindInMap":
            name, key, attribute = (self.resolve(a, stack) for a in arg)
            return self.templates[stack]["Mappings"][name][key][attribute]
        return {fn: self.resolve(arg, stack)}

    def _ref(self, stack: str, logical: str) -> str:
        resource = self.templates[stack]["Resources"][logical]
        kind = resource["Type"]
        if kind == "AWS::DynamoDB::Table":
            return self.names.naming(resource["Properties"]["TableName"])
        if kind == "AWS::S3::Bucket":
            if logical.startswith("StorageArtifacts"):
                return self.names.bucket
            if logical.startswith("AuditAnchorsBucket"):
                return self.names.anchor_bucket
            return f"unresolved-{logical.lower()}"
        if kind == "AWS::StepFunctions::StateMachine":
            return self.names.state_machine_arn
        if kind == "AWS::KMS::Key":
            return self._key(logical).rsplit("/", 1)[1]
        return f"unresolved-{logical}"

    def _key(self, logical: str) -> str:
        return (
            self.names.audit_key_arn
            if logical.startswith("FunctionsAuditSigningKey")
            else f"arn:aws:unresolved:{REGION}:{ACCOUNT}:{logical}"
        )

    def _get_att(self, stack: str, logical: str, attribute: str) -> str:
        kind = self.templates[stack]["Resources"][logical]["Type"]
        if attribute != "Arn":
            return f"unresolved-{logical}.{attribute}"
        if kind == "AWS::DynamoDB::Table":
            return f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{self._ref(stack, logical)}"
        if kind == "AWS::S3::Bucket":
            return f"arn:aws:s3:::{self._ref(stack, logical)}"
        if kind == "AWS::KMS::Key":
            return self._key(logical)
        if kind == "AWS::Lambda::Function":
            return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{logical}"
        if kind == "AWS::Events::EventBus" and logical.startswith("MessagesBus"):
            return f"arn:aws:events:{REGION}:{ACCOUNT}:event-bus/{self.names.message_bus}"
        return f"arn:aws:unresolved:{REGION}:{ACCOUNT}:{logical}"


def function_policies(outdir: Path, names: LocalNames) -> dict[str, list[dict]]:
    """Every function of every template → the identity policies of its role (inline and AWS::IAM::Policy)."""
    resolver = Resolver(outdir, names)
    policies: dict[str, list[dict]] = {}
    for stack, template in resolver.templates.items():
        resources = template["Resources"]
        for logical, resource in resources.items():
            if resource["Type"] != "AWS::Lambda::Function":
                continue
            role = resource["Properties"]["Role"]["Fn::GetAtt"][0]
            attached = [
                {"name": name, "policy": resolver.resolve(r["Properties"]["PolicyDocument"], stack)}
                for name, r in resources.items()
                if r["Type"] == "AWS::IAM::Policy" and {"Ref": role} in r["Properties"]["Roles"]
            ]
            inline = [
                {"name": p["PolicyName"], "policy": resolver.resolve(p["PolicyDocument"], stack)}
                for p in resources[role]["Properties"].get("Policies", [])
            ]
            policies[logical] = attached + inline
    return policies


def resource_policies(outdir: Path, names: LocalNames) -> dict[str, dict]:
    """The resource policies a call is also evaluated against: each KMS key's key policy (KMS honours an
    identity policy only where the key policy lets it) and each bucket policy, by the ARN they govern."""
    resolver = Resolver(outdir, names)
    out: dict[str, dict] = {}
    for stack, template in resolver.templates.items():
        for logical, resource in template["Resources"].items():
            if resource["Type"] == "AWS::KMS::Key":
                out[resolver._key(logical)] = resolver.resolve(resource["Properties"]["KeyPolicy"], stack)
            elif resource["Type"] == "AWS::S3::BucketPolicy":
                bucket = resolver.resolve(resource["Properties"]["Bucket"], stack)
                out[f"arn:aws:s3:::{bucket}"] = resolver.resolve(resource["Properties"]["PolicyDocument"], stack)
    return out


def _resource_policy(resource: str, governed: dict[str, dict]) -> dict | None:
    if resource.startswith("arn:aws:s3:::"):
        return governed.get("arn:aws:s3:::" + resource.removeprefix("arn:aws:s3:::").split("/", 1)[0])
    return governed.get(resource)


def without(policies: list[dict], action: str) -> list[dict]:
    """The same policies less every statement granting `action` (a test's proof that a missing grant is caught)."""
    out = []
    for p in policies:
        kept = [
            s
            for s in p["policy"]["Statement"]
            if action not in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])
        ]
        out.append({"name": p["name"], "policy": {**p["policy"], "Statement": kept}})
    return out


# What every call from a Lambda carries: the SDK speaks HTTPS with TLS 1.2 or later (the bucket policies ask).
CONTEXT = {"aws:SecureTransport": "true"}
S3_CONTEXT = {**CONTEXT, "s3:TlsVersion": "1.3"}
# Actions AWS authorizes on the state machine the task token belongs to, though the Service Authorization
# Reference lists no resource type for them (AWS's own AccessDenied names the state machine).
TASK_RESPONSES = {"states:SendTaskSuccess", "states:SendTaskFailure", "states:SendTaskHeartbeat"}


def evaluate(
    calls: set[Call] | list[Call], policies: dict[str, list[dict]], governed: dict[str, dict] | None = None
) -> list[tuple[Call, str, str]]:
    """Each call with iam-simulate's verdict ("Allowed", "ImplicitlyDenied", "ExplicitlyDenied", "Error"),
    against the function's identity policies and the resource policy of what it calls (`governed`)."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not on PATH: the IAM evaluation needs it (and `npm install`)")
    ordered = sorted(calls)
    payload = {
        "account": ACCOUNT,
        "policies": policies,
        "calls": [
            {
                "function": c.function,
                "action": c.action,
                "resource": c.resource,
                "resourcePolicy": _resource_policy(c.resource, governed or {}),
                "context": {**(S3_CONTEXT if c.action.startswith("s3:") else CONTEXT), **dict(c.context)},
                "unchecked": c.action in TASK_RESPONSES and c.resource != "*",
            }
            for c in ordered
        ],
    }
    done = subprocess.run(
        [node, str(SIMULATOR)], input=json.dumps(payload), capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    if done.returncode != 0:
        raise RuntimeError(f"iam-simulate failed: {done.stderr.strip().splitlines()[-1:]}")
    return [(c, r["overall"], r["detail"]) for c, r in zip(ordered, json.loads(done.stdout))]
