"""A deploy rehearsal: the synthesized app deployed into moto's CloudFormation as `cdk deploy` would, then the
EY123 demo run against what was deployed.

What `cdk deploy` does, in order: the bootstrap stack's asset bucket and version parameter exist; each stack's
file assets (function code, layers, the template itself) are uploaded to that bucket; the stacks are created
in dependency order (manifest.json: Data → Knowledge → Workflow → Api) from the uploaded template. Then the
demo: the deployed Trigger function is invoked with the disruption event, the deployed state machine runs the
deployed functions' code (downloaded from the deployed S3 object, imported in process as the local runner
does) with their deployed environment, and the duty manager approves rank 1.

What the emulator cannot deploy is skipped, one printed line each, never silently: resource types moto's
CloudFormation has no model for (Bedrock, S3 Vectors, Cognito, CloudFront, bucket and queue policies, some
API Gateway pieces), every custom resource (their providers run the AWS CLI or SDK calls in a Lambda of
their own), and references to what was skipped (replaced by an `arn:aws:rehearsal-skipped:…:<id>` marker).
"""

from __future__ import annotations

import io
import json
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .rehearsal_names import ACCOUNT, ASSET_BUCKET, REGION, SKIPPED, VERSION_PARAMETER, Echo, RehearsalError


def stacks_in_order(outdir: Path) -> list[tuple[str, str]]:
    """(artifact id, stack name) for each stack, dependencies first, as the CDK CLI orders `deploy --all`."""
    artifacts = json.loads((outdir / "manifest.json").read_text())["artifacts"]
    stacks = {k: a for k, a in artifacts.items() if a["type"] == "aws:cloudformation:stack"}
    ordered: list[str] = []

    def visit(artifact: str) -> None:
        for dependency in stacks[artifact].get("dependencies", []):
            if dependency in stacks and dependency not in ordered:
                visit(dependency)
        if artifact not in ordered:
            ordered.append(artifact)

    for artifact in stacks:
        visit(artifact)
    return [(a, stacks[a]["properties"]["stackName"]) for a in ordered]


def bootstrap(s3: Any, ssm: Any) -> None:
    """What `cdk bootstrap` leaves that a deploy reads: the asset bucket and the version parameter."""
    s3.create_bucket(Bucket=ASSET_BUCKET)
    ssm.put_parameter(Name=VERSION_PARAMETER, Value="30", Type="String", Overwrite=True)


def _zip_dir(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                archive.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()


def publish_assets(outdir: Path, artifact: str, s3: Any, echo: Echo) -> None:
    """Upload the stack's file assets where its template expects them (the bootstrap bucket)."""
    manifest = json.loads((outdir / f"{artifact}.assets.json").read_text())
    for asset in manifest.get("files", {}).values():
        source = outdir / asset["source"]["path"]  # an absolute path stays as it is
        if asset["source"]["packaging"] == "file":
            body = source.read_bytes()
        elif source.resolve() == outdir.resolve().parent or (source / "app.py").exists():
            # Synthesized without bundling: the asset is the app's own folder, not a built layer.
            echo(f"  asset {asset['displayName']}: not built (synthesized without bundling), an empty zip uploaded")
            body = _zip_dir(Path(tempfile.mkdtemp()))
        else:
            body = _zip_dir(source)
        for destination in asset["destinations"].values():
            bucket = destination["bucketName"].replace("${AWS::AccountId}", ACCOUNT).replace("${AWS::Region}", REGION)
            s3.put_object(Bucket=bucket, Key=destination["objectKey"], Body=body)


def unsupported(resource_type: str) -> str | None:
    """Why moto's CloudFormation cannot create this type, or None when it can."""
    from moto.cloudformation.parsing import NULL_MODELS, get_model_map

    if resource_type.startswith("Custom::"):
        return "a custom resource: its provider Lambda makes AWS CLI/SDK calls the rehearsal does not host"
    if resource_type in NULL_MODELS or resource_type not in get_model_map():
        return "moto's CloudFormation has no model for this type"
    return None


def skipped_marker(logical: str) -> str:
    """What a reference to a skipped resource becomes: an ARN of no service (IAM policies must hold ARNs)."""
    return f"arn:aws:{SKIPPED}:{REGION}:{ACCOUNT}:{logical}"


def _replace_refs(node: Any, skipped: set[str], outputs: Callable[[str, str], str]) -> Any:
    if isinstance(node, list):
        return [_replace_refs(n, skipped, outputs) for n in node]
    if not isinstance(node, dict):
        return node
    if set(node) == {"Ref"} and node["Ref"] in skipped:
        return skipped_marker(node["Ref"])
    if set(node) == {"Fn::GetAtt"} and node["Fn::GetAtt"][0] in skipped:
        return skipped_marker(node["Fn::GetAtt"][0])
    if set(node) == {"Fn::GetStackOutput"}:  # resolved as CloudFormation does: the deployed stack's output
        return outputs(node["Fn::GetStackOutput"]["StackName"], node["Fn::GetStackOutput"]["OutputName"])
    return {k: _replace_refs(v, skipped, outputs) for k, v in node.items()}


def _adapt(name: str, resource: dict, resources: dict, echo: Echo) -> None:
    """Work around moto 5.2.5's CloudFormation bugs, each printed: the deployed resource is the same."""
    properties = resource.get("Properties", {})
    if resource["Type"] == "AWS::KMS::Key" and properties.get("Tags"):
        # moto reads a key's CloudFormation tags in the KMS API's shape (TagKey/TagValue), not CloudFormation's
        properties["Tags"] = [{"TagKey": t["Key"], "TagValue": t["Value"]} for t in properties["Tags"]]
        echo(f"  adapted {name}: tags passed as TagKey/TagValue (moto reads a key's tags in the KMS API's shape)")
    bus = properties.get("EventBusName")
    if resource["Type"] == "AWS::Events::Rule" and isinstance(bus, dict) and "Ref" in bus:
        # moto's Ref of an event bus inside the same stack is its model object, not its name
        properties["EventBusName"] = resources[bus["Ref"]]["Properties"]["Name"]
        echo(f"  adapted {name}: EventBusName given as the bus's name (moto resolves the Ref to an object)")


def prepare(template: dict, stack: str, outputs: Callable[[str, str], str], echo: Echo) -> dict:
    """The template less what moto cannot create, each skip printed."""
    resources = template["Resources"]
    skipped = set()
    for logical, resource in resources.items():
        reason = unsupported(resource["Type"])
        if reason:
            skipped.add(logical)
            echo(f"  skipped {stack}/{logical} ({resource['Type']}): {reason}")
    kept = {k: v for k, v in resources.items() if k not in skipped}
    for resource in kept.values():
        depends = resource.get("DependsOn")
        if depends:
            depends = [depends] if isinstance(depends, str) else depends
            resource["DependsOn"] = [d for d in depends if d not in skipped]
    for logical, resource in kept.items():
        _adapt(f"{stack}/{logical}", resource, kept, echo)
    prepared = {**template, "Resources": kept}
    prepared.pop("Rules", None)  # CheckBootstrapVersion: asserted by bootstrap() above; moto does not read Rules
    return _replace_refs(prepared, skipped, outputs)


def deploy(outdir: Path, echo: Echo = print) -> dict[str, dict[str, str]]:
    """Every stack into the emulated account, in order; returns each stack's outputs."""
    import boto3

    cfn, s3 = boto3.client("cloudformation", region_name=REGION), boto3.client("s3", region_name=REGION)
    bootstrap(s3, boto3.client("ssm", region_name=REGION))
    deployed: dict[str, dict[str, str]] = {}

    def output(stack: str, name: str) -> str:
        if name not in deployed.get(stack, {}):
            raise RehearsalError(f"{stack} has no output {name} (it was not deployed first?)")
        return deployed[stack][name]

    for artifact, stack in stacks_in_order(outdir):
        started = time.monotonic()
        echo(f"{stack}: publishing assets")
        publish_assets(outdir, artifact, s3, echo)
        template = prepare(json.loads((outdir / f"{artifact}.template.json").read_text()), stack, output, echo)
        key = f"{artifact}.rehearsal.template.json"  # cdk deploy passes large templates by URL, as here
        s3.put_object(Bucket=ASSET_BUCKET, Key=key, Body=json.dumps(template).encode())
        cfn.create_stack(
            StackName=stack,
            TemplateURL=f"https://{ASSET_BUCKET}.s3.{REGION}.amazonaws.com/{key}",
            Capabilities=["CAPABILITY_IAM", "CAPABILITY_NAMED_IAM", "CAPABILITY_AUTO_EXPAND"],
        )
        described = cfn.describe_stacks(StackName=stack)["Stacks"][0]
        if described["StackStatus"] != "CREATE_COMPLETE":
            raise RehearsalError(f"{stack}: {described['StackStatus']} {described.get('StackStatusReason', '')}")
        deployed[stack] = {o["OutputKey"]: o["OutputValue"] for o in described.get("Outputs", [])}
        _register_state_machines(cfn, stack, echo)
        _apply_key_specs(cfn, stack, template, echo)
        count = len(cfn.list_stack_resources(StackName=stack)["StackResourceSummaries"])
        echo(f"{stack}: CREATE_COMPLETE, {count} resources in {time.monotonic() - started:.1f} s")
    return deployed


def _register_state_machines(cfn: Any, stack: str, echo: Echo) -> None:
    """moto's CloudFormation creates a state machine in its plain Step Functions backend, which does not
    execute; the same machine (name, definition, role: one ARN) is registered with the executing one."""
    import boto3
    from moto.stepfunctions.models import stepfunctions_backends

    sfn = boto3.client("stepfunctions", region_name=REGION)
    for summary in cfn.list_stack_resources(StackName=stack)["StackResourceSummaries"]:
        if summary["ResourceType"] != "AWS::StepFunctions::StateMachine":
            continue
        machine = stepfunctions_backends[ACCOUNT][REGION].describe_state_machine(summary["PhysicalResourceId"])
        sfn.create_state_machine(name=machine.name, definition=machine.definition, roleArn=machine.roleArn)
        echo(f"  adapted {stack}/{summary['LogicalResourceId']}: registered with moto's executing interpreter")


def _apply_key_specs(cfn: Any, stack: str, template: dict, echo: Echo) -> None:
    """moto's CloudFormation creates every KMS key as a symmetric encryption key; a signing key (the audit
    chain's) gets the usage and spec its template declares, with key material of that spec."""
    from moto.kms.models import kms_backends
    from moto.kms.utils import generate_private_key

    for summary in cfn.list_stack_resources(StackName=stack)["StackResourceSummaries"]:
        properties = template["Resources"][summary["LogicalResourceId"]].get("Properties", {})
        if summary["ResourceType"] != "AWS::KMS::Key" or "KeySpec" not in properties:
            continue
        key = kms_backends[ACCOUNT][REGION].describe_key(summary["PhysicalResourceId"])
        key.key_usage, key.key_spec = properties.get("KeyUsage", key.key_usage), properties["KeySpec"]
        key.private_key = generate_private_key(key.key_spec)
        echo(f"  adapted {stack}/{summary['LogicalResourceId']}: {key.key_usage} {key.key_spec} as declared")


@contextmanager
def emulator() -> Iterator[None]:
    """A fresh in-process moto account (the local runner's configuration), with no table of its own."""
    from moto import mock_aws

    from .emulator import MOTO_CONFIG, use_fake_credentials
    from .moto_speedups import install

    use_fake_credentials()
    install()
    with mock_aws(config=MOTO_CONFIG):
        yield


def synthesize_bundled(outdir: Path, echo: Echo) -> None:
    """`python app.py` as `cdk deploy` runs it: assets bundled (the deps layer pip-installed for Lambda)."""
    import os
    import subprocess
    import sys

    from .template import REPO_ROOT

    echo(f"synthesizing with bundled assets into {outdir} (the deps layer is pip-installed: minutes the first time)")
    env = {
        **os.environ,
        "CDK_OUTDIR": str(outdir),
        "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20",
        "CDK_CONTEXT_JSON": json.dumps({"aws:cdk:enable-asset-metadata": True}),
    }
    done = subprocess.run([sys.executable, "app.py"], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    if not (outdir / "manifest.json").exists():
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise RehearsalError("`python app.py` wrote no cloud assembly: " + " | ".join(tail))


def main(argv: list[str] | None = None) -> int:
    """`make deploy-rehearsal`: synthesize (bundled), deploy every stack into moto, run the demo."""
    import argparse
    import logging

    from .rehearsal_demo import run_demo

    parser = argparse.ArgumentParser(prog="python -m skymarshal.local.rehearsal", description=main.__doc__)
    parser.add_argument("--outdir", type=Path, help="a cloud assembly already synthesized (skips the synthesis)")
    parser.add_argument("--load-factor", type=float, default=0.1, help="passenger load of the seeded airline")
    parser.add_argument("--deploy-only", action="store_true", help="deploy, then stop (no demo)")
    args = parser.parse_args(argv)
    logging.getLogger("moto").setLevel(logging.ERROR)  # "No Moto CloudFormation support": printed by prepare()
    started = time.monotonic()
    try:
        outdir = args.outdir
        if outdir is None:
            from .control import home

            outdir = home() / "rehearsal" / "cdk.out"
            synthesize_bundled(outdir, print)
        with emulator():
            outputs = deploy(outdir, print)
            if not args.deploy_only:
                run_demo(outputs, print, load_factor=args.load_factor)
    except (RehearsalError, OSError) as exc:
        print(f"deploy rehearsal failed: {exc}")
        return 1
    print(f"deploy rehearsal done in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":  # run as the package's module, so its exceptions are the ones the demo raises
    from skymarshal.local.rehearsal import main as package_main

    raise SystemExit(package_main())
