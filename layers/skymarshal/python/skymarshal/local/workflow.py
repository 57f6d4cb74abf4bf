"""The local runner: the synthesized state machine, executed by moto, with each Lambda's handler in-process.

No second orchestrator. From the CDK template: the `AWS::StepFunctions::StateMachine` definition, with
its `Fn::GetAtt` function ARNs resolved to local function names; each referenced `AWS::Lambda::Function`
is created in moto (an empty zip) and its handler imported from its asset folder
(`Metadata["aws:asset:path"]` + `Handler`). moto's Step Functions interpreter (`execute_state_machine`)
runs the definition and calls `LambdaSimpleBackend.invoke`, which `_dispatch` replaces with a call to the
real handler. This module is the only place that knows moto's internals for that; moto is pinned.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import logging
import os
import sys
import threading
import time
import uuid
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.runner import LOCAL_DEADLINE_SECONDS
from ..checkpoint.config import BUCKET_ENV, CHECKPOINTER_ENV, TABLE_PREFIX_ENV
from ..handlers.workflow_steps import reset_clients
from ..workflow.deployment import (
    ALERT_TOPIC_ENV,
    AUDIT_KEY_ENV,
    CONSOLE_URL_ENV,
    MESSAGE_BUS_ENV,
    STATE_MACHINE_ENV,
)
from . import moto_sfn
from .admission import DEFAULT_SLOTS, Admission, run_of, slots_from_env
from .emulator import BUCKET, REGION, LocalAccount
from .iam_calls import acting_as

ACCOUNT_ID = "123456789012"  # moto's default account
STATE_MACHINE_NAME = "SkyMarshal-local-workflow"
AUDIT_KEY_ALIAS = "alias/skymarshal-local-audit"
ALERT_TOPIC_NAME = "skymarshal-local-alerts"
MESSAGE_BUS_NAME = "SkyMarshal-local-messages"
LOCAL_CONSOLE_URL = "http://127.0.0.1:8000"  # `skymarshal serve`'s default
log = logging.getLogger("skymarshal.local")


class LocalWorkflowMissing(RuntimeError):
    """The running local AWS has no state machine (it was started by an older version)."""


class TemplateError(ValueError):
    """The template has no state machine, or a reference the runner cannot resolve."""


@dataclass(frozen=True)
class LocalFunction:
    logical_id: str
    handler: str  # "module.function"
    asset_dir: Path


@dataclass
class Registry:
    """Which handler each local function name runs, and how often each was called (tests, benchmark)."""

    functions: dict[str, Callable] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    wrap: Callable[[str, Callable, dict], Any] | None = None  # tests: inject a failure around one function
    admission: Admission = field(default_factory=lambda: Admission(DEFAULT_SLOTS))  # load queues (admission.py)


_registry = Registry()


def _resolve(node: Any, resources: dict, called: set[str]) -> Any:
    """Fn::Join / Fn::GetAtt / Ref of a definition string, as CloudFormation would for a local account;
    the functions referenced are added to `called`."""
    if isinstance(node, str):
        return node
    if isinstance(node, dict) and "Fn::Join" in node:
        sep, parts = node["Fn::Join"]
        return sep.join(_resolve(p, resources, called) for p in parts)
    if isinstance(node, dict) and "Fn::GetAtt" in node:
        logical, attribute = node["Fn::GetAtt"]
        if resources.get(logical, {}).get("Type") == "AWS::Lambda::Function" and attribute == "Arn":
            called.add(logical)
            return f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{logical}"
        raise TemplateError(f"the definition references {logical}.{attribute}, which the local runner cannot resolve")
    if isinstance(node, dict) and "Ref" in node:
        pseudo = {
            "AWS::Partition": "aws",
            "AWS::Region": REGION,
            "AWS::AccountId": ACCOUNT_ID,
            "AWS::URLSuffix": "amazonaws.com",
        }
        if node["Ref"] in pseudo:
            return pseudo[node["Ref"]]
        raise TemplateError(f"the definition references {node['Ref']}, which the local runner cannot resolve")
    raise TemplateError(f"unexpected node in the definition: {str(node)[:120]}")


def read_template(path: Path) -> tuple[str, list[LocalFunction]]:
    """The resolved definition and the functions it calls."""
    template = json.loads(path.read_text())
    resources = template["Resources"]
    machines = [r for r in resources.values() if r["Type"] == "AWS::StepFunctions::StateMachine"]
    if len(machines) != 1:
        raise TemplateError(f"{path.name} has {len(machines)} state machines; the runner expects one")
    called: set[str] = set()
    definition = _resolve(machines[0]["Properties"]["DefinitionString"], resources, called)
    functions = []
    for logical in sorted(called):
        resource = resources[logical]
        asset = resource.get("Metadata", {}).get("aws:asset:path")
        if not asset:
            raise TemplateError(f"function {logical} has no asset path in its metadata")
        functions.append(LocalFunction(logical, resource["Properties"]["Handler"], path.parent / asset))
    return definition, functions


_IMPORTING = threading.Lock()


def load_handler(fn: LocalFunction) -> Callable:
    """Import the handler from the function's asset folder under a name of its own (assets share module names)."""
    module_file, attribute = fn.handler.rsplit(".", 1)
    source = fn.asset_dir / f"{module_file.replace('.', '/')}.py"
    if not source.exists():
        raise TemplateError(f"{fn.logical_id}: handler file {source} does not exist")
    name = f"skymarshal_local_fn_{fn.logical_id}"
    spec = importlib.util.spec_from_file_location(name, source)
    if spec is None or spec.loader is None:
        raise TemplateError(f"{fn.logical_id}: cannot import the handler file {source}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    # In Lambda stdout is the log; here it is the CLI's own output (`analyze --json` must print JSON only). The
    # handlers' Powertools loggers bind the stream they find when made, at this import: stderr, then. One import
    # at a time: redirect_stdout swaps the process's sys.stdout, and two overlapping swaps (a Map's agents start
    # together) would leave it pointing at stderr.
    with _IMPORTING, contextlib.redirect_stdout(sys.stderr):
        spec.loader.exec_module(module)
    return getattr(module, attribute)


class ColdStartHandler:
    """A function's handler imported on its first invocation, as Lambda does at a cold start: a local start
    does not pay for thirteen handler modules and their clients before anything runs. The handler file is
    checked at once, so a template naming a missing one still fails the start."""

    def __init__(self, fn: LocalFunction):
        module_file = fn.handler.rsplit(".", 1)[0]
        if not (fn.asset_dir / f"{module_file.replace('.', '/')}.py").exists():
            raise TemplateError(f"{fn.logical_id}: handler file for {fn.handler} does not exist in {fn.asset_dir}")
        self.fn, self._lock = fn, threading.Lock()
        self._handler: Callable | None = None

    def __call__(self, event: dict, context: Any) -> Any:
        if self._handler is None:
            with self._lock:  # a Map state's branches may invoke it at once
                if self._handler is None:
                    self._handler = load_handler(self.fn)
        handler: Callable = self._handler
        return handler(event, context)


class _Context:
    """The parts of the Lambda context object Powertools and the handlers read."""

    def __init__(self, name: str, timeout_ms: int = 900_000):
        self.function_name = name
        self.function_version = "$LATEST"
        self.invoked_function_arn = f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{name}"
        self.memory_limit_in_mb = 1024
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{name}"
        self.log_stream_name = "local"
        self._deadline = time.monotonic() + timeout_ms / 1000

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


def _dispatch(self, function_name: str, qualifier, body, headers, response_headers):  # moto's signature
    name = function_name.rsplit(":", 1)[-1]
    handler = _registry.functions.get(name)
    if handler is None:
        response_headers["x-amz-function-error"] = "Unhandled"
        return json.dumps({"errorType": "ResourceNotFound", "errorMessage": f"no local handler for {name}"}).encode()
    with _registry.lock:
        _registry.calls[name] = _registry.calls.get(name, 0) + 1
    event = json.loads(body) if body else {}
    try:
        # admitted first: the context (an agent's deadline) starts when the handler can run, not while it queues
        with _registry.admission.slot(run_of(event)), acting_as(name):  # calls are this function's (iam_calls.py)
            result = _registry.wrap(name, handler, event) if _registry.wrap else handler(event, _Context(name))
    except Exception as exc:  # as Lambda reports an unhandled error: the state machine's Catch/Retry decide
        log.info("local function %s raised %s: %s", name, type(exc).__name__, exc)
        response_headers["x-amz-function-error"] = "Unhandled"
        return json.dumps({"errorType": type(exc).__name__, "errorMessage": str(exc)}).encode()
    finally:
        _discard_disabled_metrics()
    return json.dumps(result, default=str).encode()


def _discard_disabled_metrics() -> None:
    """With POWERTOOLS_METRICS_DISABLED, Powertools (3.37) neither prints nor clears at the end of an
    invocation, then prints the whole buffer to stdout once a metric reaches 100 values; locally the
    functions live on in one process, so the buffer is dropped after each invocation instead."""
    if os.environ.get("POWERTOOLS_METRICS_DISABLED", "").lower() == "true":
        from aws_lambda_powertools import Metrics

        Metrics().clear_metrics()  # Metrics instances share one buffer


def audit_key(account: LocalAccount) -> str:
    """The local account's audit signing key (ECC_NIST_P256, as in the stack), created on first use."""
    kms = account.client("kms")
    try:
        return kms.describe_key(KeyId=AUDIT_KEY_ALIAS)["KeyMetadata"]["Arn"]
    except kms.exceptions.NotFoundException:
        key = kms.create_key(
            KeySpec="ECC_NIST_P256",
            KeyUsage="SIGN_VERIFY",
            Description="SkyMarshal local: signs the head of each audit chain",
        )["KeyMetadata"]
        kms.create_alias(AliasName=AUDIT_KEY_ALIAS, TargetKeyId=key["KeyId"])
        return key["Arn"]


def message_bus(account: LocalAccount) -> str:
    """The local account's message bus (infra/messages.py's), created on first use; its name."""
    events = account.client("events")
    with contextlib.suppress(events.exceptions.ResourceAlreadyExistsException):
        events.create_event_bus(Name=MESSAGE_BUS_NAME)
    return MESSAGE_BUS_NAME


def handler_environment(account: LocalAccount) -> dict[str, str]:
    """What the stack sets on every function, with local values."""
    env = {
        BUCKET_ENV: BUCKET,
        AUDIT_KEY_ENV: audit_key(account),
        CHECKPOINTER_ENV: "dynamodb",
        TABLE_PREFIX_ENV: account.naming.prefix,
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_METRICS_NAMESPACE": "SkyMarshal",
        "POWERTOOLS_LOG_LEVEL": os.environ.get("POWERTOOLS_LOG_LEVEL", "WARNING"),
        "POWERTOOLS_METRICS_DISABLED": os.environ.get("POWERTOOLS_METRICS_DISABLED", "true"),
        # In Lambda each agent has its own CPU; here the seven of a round share this machine's cores.
        "SKYMARSHAL_AGENT_DEADLINE_SECONDS": os.environ.get(
            "SKYMARSHAL_AGENT_DEADLINE_SECONDS", str(int(LOCAL_DEADLINE_SECONDS))
        ),
    }
    # Escalations are published to a local topic (moto keeps what it was sent) and linked to the local console.
    env[ALERT_TOPIC_ENV] = account.client("sns").create_topic(Name=ALERT_TOPIC_NAME)["TopicArn"]
    env[CONSOLE_URL_ENV] = os.environ.get(CONSOLE_URL_ENV, LOCAL_CONSOLE_URL)
    env[MESSAGE_BUS_ENV] = message_bus(account)  # Execute publishes an executed plan's messages there, as in AWS
    if account.endpoint_url:  # server mode: the handlers run inside the server and call it over HTTP
        env["AWS_ENDPOINT_URL"] = account.endpoint_url
    return env


def install(account: LocalAccount, template: Path) -> str:
    """Create the functions and the state machine in the account, route invocations to the handlers;
    returns the state machine's ARN. Idempotent: a second install updates the definition."""
    from botocore.exceptions import ClientError

    logging.getLogger("moto.stepfunctions.parser").setLevel(logging.CRITICAL)  # it dumps whole states on failure
    moto_sfn.install()  # each JSONPath parsed once, not once per state entered
    # Metrics are dropped locally (_discard_disabled_metrics), so "nothing to publish" is expected, not news.
    warnings.filterwarnings("ignore", message="No application metrics to publish", category=UserWarning)
    os.environ.setdefault("SKYMARSHAL_LLM_PROVIDER", "offline")
    os.environ.update(handler_environment(account))
    definition, functions = read_template(template)
    reset_clients()  # the steps' clients follow the environment just set
    route({fn.logical_id: ColdStartHandler(fn) for fn in functions})
    role = _role(account)
    lam = account.client("lambda")
    code = io.BytesIO()
    with zipfile.ZipFile(code, "w") as archive:
        archive.writestr("index.py", "# the handler runs in-process: skymarshal.local.workflow\n")
    for fn in functions:
        try:
            lam.create_function(
                FunctionName=fn.logical_id,
                Runtime="python3.12",
                Role=role,
                Handler=fn.handler,
                Code={"ZipFile": code.getvalue()},
                Timeout=900,
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] != "ResourceConflictException":
                raise
    sfn = account.client("stepfunctions")
    existing = [
        m["stateMachineArn"] for m in sfn.list_state_machines()["stateMachines"] if m["name"] == STATE_MACHINE_NAME
    ]
    if existing:
        sfn.update_state_machine(stateMachineArn=existing[0], definition=definition)
        arn = existing[0]
    else:
        arn = sfn.create_state_machine(name=STATE_MACHINE_NAME, definition=definition, roleArn=role, type="STANDARD")[
            "stateMachineArn"
        ]
    # As the stack sets it on Validate: a flight claim whose run has ended is looked up there and freed
    os.environ[STATE_MACHINE_ENV] = arn
    return arn


def route(functions: dict[str, Callable]) -> None:
    """moto's invocations of these function names run these handlers (the deploy rehearsal routes its own)."""
    import moto.awslambda_simple.models as simple

    _registry.functions = dict(functions)
    if _registry.admission.slots != (slots := slots_from_env()) and not _registry.admission.running:
        _registry.admission = Admission(slots)
    simple.LambdaSimpleBackend.invoke = _dispatch


def _role(account: LocalAccount) -> str:
    iam = account.client("iam")
    try:
        return iam.get_role(RoleName="skymarshal-local")["Role"]["Arn"]
    except iam.exceptions.NoSuchEntityException:
        return iam.create_role(RoleName="skymarshal-local", AssumeRolePolicyDocument="{}")["Role"]["Arn"]


def state_machine_arn(account: LocalAccount) -> str | None:
    machines = account.client("stepfunctions").list_state_machines()["stateMachines"]
    return next((m["stateMachineArn"] for m in machines if m["name"] == STATE_MACHINE_NAME), None)


def registry() -> Registry:
    return _registry


def local_client(account: LocalAccount, echo=print):
    """A WorkflowClient on the account's state machine, installing it first in an in-process account."""
    from ..workflow.aws.s3 import S3Objects
    from ..workflow.payloads import ArtifactStore
    from ..workflow.runs.client import WorkflowClient
    from .template import workflow_template

    arn = state_machine_arn(account)
    if arn is None:
        if account.endpoint_url:
            raise LocalWorkflowMissing(
                "the running local AWS has no workflow state machine (started by an older version): "
                "run `skymarshal local reset`"
            )
        arn = install(account, workflow_template(echo))
    return WorkflowClient(
        sfn=account.client("stepfunctions"),
        state_machine_arn=arn,
        store=ArtifactStore(BUCKET, S3Objects(account.client("s3"))),
        tables=account.tables(),
        trail=local_trail(account),
    )


def local_trail(account: LocalAccount):
    from ..workflow.audit.trail import AuditTrail
    from ..workflow.aws.kms import KmsSigner
    from ..workflow.aws.s3 import S3Objects

    return AuditTrail(
        tables=account.tables(),
        signer=KmsSigner(account.client("kms")),
        key_id=audit_key(account),
        objects=S3Objects(account.client("s3")),
    )
