"""The demo against what the rehearsal deployed (rehearsal.py): the deployed functions' code, environment,
tables, bucket, key and state machine; nothing of the local runner's own account.

Each Python function's code is the zip CloudFormation deployed it from (downloaded from the bootstrap
bucket), imported in process as the local runner imports an asset folder; the library those handlers
import is this process's own (the same source as the library layer). Functions that are not Python
(custom resource providers) or not a handler file (the streaming web adapter's `run.sh`) are skipped, each
with a printed line. Model calls are offline: the emulator has no Bedrock.
"""

from __future__ import annotations

import io
import json
import os
import tempfile
import time
import uuid
import zipfile
from pathlib import Path
from typing import Any

from .rehearsal_names import ASSET_BUCKET, DEMO_PROMPT, REGION, SKIPPED, Echo, RehearsalError
from .workflow import LocalFunction

LOCAL_OVERRIDES = {
    "SKYMARSHAL_LLM_PROVIDER": ("offline", "no Bedrock in the emulator: offline extraction and narratives"),
    "POWERTOOLS_METRICS_DISABLED": ("true", "no CloudWatch in the emulator"),
    "POWERTOOLS_TRACE_DISABLED": ("true", "no X-Ray in the emulator"),
    "POWERTOOLS_LOG_LEVEL": ("WARNING", "quiet logs on the terminal"),
}


def deployed_functions(stacks: list[str], echo: Echo) -> tuple[dict[str, LocalFunction], dict[str, dict[str, str]]]:
    """Physical function name → its deployed code (unzipped) and its deployed environment."""
    import boto3

    cfn, lam = boto3.client("cloudformation", region_name=REGION), boto3.client("lambda", region_name=REGION)
    s3 = boto3.client("s3", region_name=REGION)
    functions: dict[str, LocalFunction] = {}
    environments: dict[str, dict[str, str]] = {}
    root = Path(tempfile.mkdtemp(prefix="skymarshal-rehearsal-"))
    for stack in stacks:
        template = json.loads(json.dumps(cfn.get_template(StackName=stack)["TemplateBody"]))
        summaries = cfn.list_stack_resources(StackName=stack)["StackResourceSummaries"]
        for summary in summaries:
            if summary["ResourceType"] != "AWS::Lambda::Function":
                continue
            name, logical = summary["PhysicalResourceId"], summary["LogicalResourceId"]
            config = lam.get_function(FunctionName=name)["Configuration"]
            if not config.get("Runtime", "").startswith("python"):
                echo(f"  function {stack}/{logical}: {config.get('Runtime')} provider, not run by the rehearsal")
                continue
            code = template["Resources"][logical]["Properties"]["Code"]
            bucket = code["S3Bucket"] if isinstance(code["S3Bucket"], str) else ASSET_BUCKET  # Fn::Sub of it
            body = s3.get_object(Bucket=bucket, Key=code["S3Key"])["Body"].read()
            folder = root / name
            zipfile.ZipFile(io.BytesIO(body)).extractall(folder)
            module = config["Handler"].rsplit(".", 1)[0].replace(".", "/")
            if not (folder / f"{module}.py").exists():
                echo(f"  function {stack}/{logical}: handler {config['Handler']} is no Python file, not run")
                continue
            functions[name] = LocalFunction(name, config["Handler"], folder)
            environments[name] = config.get("Environment", {}).get("Variables", {})
    return functions, environments


def apply_environment(environments: dict[str, dict[str, str]], echo: Echo) -> None:
    """The deployed environment, in this one process: the variables every function shares (they agree),
    a skipped resource's marker blanked, and the local overrides, each printed."""
    merged: dict[str, str] = {}
    for variables in environments.values():
        for key, value in variables.items():
            merged.setdefault(key, value)
    for key, value in sorted(merged.items()):
        if SKIPPED in value:
            echo(f"  environment {key}: its resource was skipped, left empty")
            merged[key] = ""
    for key, (value, why) in LOCAL_OVERRIDES.items():
        echo(f"  environment {key}={value}: {why}")
        merged[key] = value
    os.environ.update(merged)


def seed(load_factor: float, echo: Echo) -> None:
    """The synthetic airline into the deployed (empty) tables. Straight into the emulator's store: loading
    is not what is rehearsed, and moto takes about nine minutes for the same rows through BatchWriteItem."""
    from moto.dynamodb.models import dynamodb_backends

    from ..data.generator import GeneratorConfig, generate
    from ..data.loader import item_attributes
    from ..data.schema import Naming
    from .rehearsal_names import ACCOUNT

    started = time.monotonic()
    airline = generate(GeneratorConfig(load_factor=load_factor))
    backend, naming = dynamodb_backends[ACCOUNT][REGION], Naming.from_env()
    for table, rows in airline.tables.items():
        deployed = backend.get_table(naming(table))
        for row in rows:
            deployed.put_item(item_attributes(row))
    count = sum(airline.counts().values())
    echo(f"loaded the airline into the deployed tables: {count} rows in {time.monotonic() - started:.0f} s")


def _first_failure(wf: Any, name: str) -> str:
    """The first failed task of the run, as its history tells (what a caught failure hides)."""
    events = wf.sfn.get_execution_history(executionArn=wf.execution_arn(name), maxResults=1000)["events"]
    for event in events:
        details = next((v for k, v in event.items() if k.endswith("FailedEventDetails")), None)
        if details:
            return f"; first failure: {details.get('error')} {str(details.get('cause', ''))[:300]}"
    return ""


def run_demo(outputs: dict[str, dict[str, str]], echo: Echo, prompt: str = DEMO_PROMPT, load_factor: float = 0.1):
    """The disruption event to the deployed Trigger, the run followed, rank 1 approved; returns the run's output."""
    import boto3

    from ..handlers.workflow_steps import reset_clients
    from ..workflow.audit.trail import AuditTrail
    from ..workflow.aws.s3 import S3Objects
    from ..workflow.deployment import DETAIL_TYPE, SOURCE
    from ..workflow.models import ApprovalDecision
    from ..workflow.payloads import ArtifactStore
    from ..workflow.runs.client import WorkflowClient
    from ..workflow.tables import WorkflowTables
    from .workflow import load_handler, route

    functions, environments = deployed_functions(list(outputs), echo)
    apply_environment(environments, echo)  # before the imports: handlers build their clients when imported
    reset_clients()
    route({name: load_handler(fn) for name, fn in functions.items()})
    seed(load_factor, echo)
    trigger = next((n for n, env in environments.items() if "SKYMARSHAL_STATE_MACHINE_ARN" in env), None)
    machine = next((o["StateMachineArn"] for o in outputs.values() if "StateMachineArn" in o), None)
    if trigger is None or machine is None:
        raise RehearsalError("the deployed stacks have no Trigger function or no state machine output")
    event = {
        "version": "0",
        "id": f"rehearsal-{uuid.uuid4().hex[:8]}",
        "detail-type": DETAIL_TYPE,
        "source": SOURCE,
        "account": "123456789012",
        "time": "2027-01-20T06:00:00Z",
        "region": REGION,
        "resources": [],
        "detail": {"prompt": prompt, "reported_by": "deploy rehearsal"},
    }
    lam = boto3.client("lambda", region_name=REGION)
    answer = lam.invoke(FunctionName=trigger, Payload=json.dumps(event).encode())
    started: dict[str, Any] = json.loads(answer["Payload"].read())
    if answer.get("FunctionError") or not started.get("started"):
        raise RehearsalError(f"the deployed Trigger did not start a run: {started}")
    name = started["execution_name"]
    echo(f"the deployed Trigger started {started['execution_arn']}")
    s3 = boto3.client("s3", region_name=REGION)
    tables = WorkflowTables.from_env()
    wf = WorkflowClient(
        sfn=boto3.client("stepfunctions", region_name=REGION),
        state_machine_arn=machine,
        store=ArtifactStore(os.environ["SKYMARSHAL_ARTIFACTS_BUCKET"], S3Objects(s3)),
        tables=tables,
        trail=AuditTrail(tables=tables, objects=S3Objects(s3)),
    )
    progress = wf.follow(name, timeout_s=600)
    if not progress.awaiting_approval:
        output = wf.output(name) or {}
        ended = (output.get("outcome") or {}).get("message") or wf.describe(name).get("cause", "")
        raise RehearsalError(f"the run did not reach approval: {progress.status} {ended}{_first_failure(wf, name)}")
    decision = wf.decision(name) or {}
    top = decision["ranked"][0]["scenario"]
    echo(f"awaiting approval; rank 1: {top['scenario_id']} ({decision.get('status')})")
    wf.decide(
        name, ApprovalDecision(action="approve", decided_by="Rehearsal Duty Manager", comment="make deploy-rehearsal")
    )
    final = wf.follow(name, timeout_s=600)
    output = wf.output(name) or {}
    if final.status != "SUCCEEDED":
        raise RehearsalError(f"the run ended {final.status}: {wf.describe(name).get('cause', '')}")
    echo(f"{final.status}: {output.get('outcome', {}).get('status')} {output.get('execution', {}).get('scenario_id')}")
    return output
