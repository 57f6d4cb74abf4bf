"""Every AWS call a local Lambda makes, as IAM would authorize it: (function, action, resource ARN).

The local adapter (workflow.py) runs each handler inside `acting_as(function)`; a wrapper around botocore's
`BaseClient._make_api_call` then records each call the handler makes, whatever client it built and whatever
thread of the invocation it runs on (the context is per thread and copied into the threads the handlers start
with `contextvars`). The tests evaluate the recorded calls against each function's synthesized role with a
real IAM evaluator (tests/iam/), so a grant missing from infra/ fails the run that needed it.

Why not moto's own IAM enforcement (`INITIAL_NO_AUTH_ACTION_COUNT`): moto 5.2.5 authorizes every request
to DynamoDB, KMS and Step Functions against the resource "*" (only S3, SQS, IAM and STS work out the
resource), so each grant scoped to a table, a key or a state machine, which is all of ours, is refused, and
it reads no condition key. Recording what IAM would see and evaluating it with iam-simulate checks the
action names, the resource of each call, and the conditions.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("skymarshal_local_function", default=None)
ACCOUNT = "123456789012"  # moto's default account, as in workflow.py

# Operations whose IAM action is not "<service>:<operation>" (the Service Authorization Reference).
_ACTION_NAMES = {
    ("s3", "ListObjectsV2"): "ListBucket",
    ("s3", "ListObjectVersions"): "ListBucketVersions",
    ("s3", "HeadObject"): "GetObject",
    ("s3", "HeadBucket"): "ListBucket",
    ("s3", "DeleteObjects"): "DeleteObject",
    ("s3", "GetBucketLifecycleConfiguration"): "GetLifecycleConfiguration",
    ("s3", "PutBucketLifecycleConfiguration"): "PutLifecycleConfiguration",
    ("bedrock", "Converse"): "InvokeModel",
    ("bedrock", "ConverseStream"): "InvokeModelWithResponseStream",
}
# A transaction is authorized item by item, each item's action on its own table.
_TRANSACT_ITEMS = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}


@dataclass(frozen=True, order=True)
class Call:
    function: str
    action: str  # "dynamodb:Query"
    resource: str  # an ARN, or "*" where the action has no resource type
    # The request's condition keys a policy may test beyond those of every call: (("s3:prefix", "anchors/x/"),)
    context: tuple[tuple[str, str], ...] = ()


class CallLog:
    """The distinct calls seen while recording (a set: a run repeats the same few thousand times)."""

    def __init__(self) -> None:
        self.calls: set[Call] = set()
        self.lock = threading.Lock()
        self.recording = False
        # A task token is opaque here; every local token comes from the one state machine the caller names.
        self.task_token_resource: str | None = None

    def add(self, calls: list[Call]) -> None:
        with self.lock:
            self.calls.update(calls)

    def take(self) -> set[Call]:
        with self.lock:
            taken, self.calls = self.calls, set()
        return taken


_log = CallLog()
_installed = False


@contextmanager
def acting_as(function: str) -> Iterator[None]:
    """The calls made in this block (and in threads started from it with its context) are `function`'s."""
    token = _current.set(function)
    try:
        yield
    finally:
        _current.reset(token)


def current_function() -> str | None:
    return _current.get()


@contextmanager
def recording(task_token_resource: str | None = None) -> Iterator[CallLog]:
    """Record the calls of every local function for the duration of the block."""
    install()
    _log.take()
    _log.recording, _log.task_token_resource = True, task_token_resource
    try:
        yield _log
    finally:
        _log.recording = False


def install() -> None:
    """Wrap botocore's one entry point of every API call (idempotent)."""
    global _installed
    if _installed:
        return
    from botocore.client import BaseClient

    original = BaseClient._make_api_call

    def _make_api_call(self: Any, operation_name: str, api_params: dict) -> Any:
        function = _current.get()
        if function is not None and _log.recording:
            _log.add(calls_for(function, self.meta, operation_name, api_params))
        return original(self, operation_name, api_params)

    BaseClient._make_api_call = _make_api_call
    _installed = True


def calls_for(function: str, meta: Any, operation: str, params: dict) -> list[Call]:
    """What IAM authorizes for one API call: one action on one resource, or several for batches."""
    service = meta.service_model.signing_name  # "states" for stepfunctions, "bedrock" for bedrock-runtime
    region = meta.region_name
    if service == "dynamodb":
        return [Call(function, f"dynamodb:{a}", r) for a, r in _dynamodb(operation, params, region)]
    action = f"{service}:{_ACTION_NAMES.get((service, operation), operation)}"
    if action == "s3:GetObject" and "VersionId" in params:  # reading a version other than the current one
        action = "s3:GetObjectVersion"
    return [Call(function, action, _resource(service, operation, params, region), _context(service, params))]


def _context(service: str, params: dict) -> tuple[tuple[str, str], ...]:
    """A listing's prefix (s3:prefix), which a ListBucket grant may be narrowed to."""
    if service == "s3" and "Prefix" in params:
        return (("s3:prefix", str(params["Prefix"])),)
    return ()


def _table(region: str, name: str, index: str | None = None) -> str:
    arn = name if name.startswith("arn:") else f"arn:aws:dynamodb:{region}:{ACCOUNT}:table/{name}"
    return f"{arn}/index/{index}" if index else arn


def _dynamodb(operation: str, params: dict, region: str) -> list[tuple[str, str]]:
    if operation == "TransactWriteItems":
        out = []
        for item in params.get("TransactItems", []):
            for kind, body in item.items():
                out.append((_TRANSACT_ITEMS[kind], _table(region, body["TableName"])))
        return out
    if operation == "TransactGetItems":
        return [("GetItem", _table(region, i["Get"]["TableName"])) for i in params.get("TransactItems", [])]
    if operation in ("BatchGetItem", "BatchWriteItem"):
        return [(operation, _table(region, name)) for name in params.get("RequestItems", {})]
    if "TableName" in params:
        return [(operation, _table(region, params["TableName"], params.get("IndexName")))]
    return [(operation, "*")]  # ListTables and the like: no resource type


def _resource(service: str, operation: str, params: dict, region: str) -> str:
    if service == "s3":
        bucket, key = params.get("Bucket"), params.get("Key")
        if operation == "DeleteObjects":
            return f"arn:aws:s3:::{bucket}/*"
        return f"arn:aws:s3:::{bucket}/{key}" if key is not None else f"arn:aws:s3:::{bucket}"
    if service == "kms":
        key_id = params.get("KeyId", "*")
        return key_id if key_id.startswith("arn:") or key_id == "*" else f"arn:aws:kms:{region}:{ACCOUNT}:key/{key_id}"
    if service == "states":
        if "taskToken" in params:  # AWS authorizes a task response on the state machine the token came from
            return _log.task_token_resource or "*"
        return params.get("executionArn") or params.get("stateMachineArn") or "*"
    if service == "events" and operation == "PutEvents":  # every entry's bus (Execute's: the message bus)
        buses = {e.get("EventBusName") or "default" for e in params.get("Entries", [])}
        bus = buses.pop() if len(buses) == 1 else "*"
        return bus if bus.startswith("arn:") or bus == "*" else f"arn:aws:events:{region}:{ACCOUNT}:event-bus/{bus}"
    if service == "bedrock":
        if "modelId" in params:
            model = params["modelId"]
            if model.startswith("arn:"):
                return model
            kind = "inference-profile" if model.split(".")[0] in ("global", "us", "eu", "apac") else "foundation-model"
            account = ACCOUNT if kind == "inference-profile" else ""
            return f"arn:aws:bedrock:{region}:{account}:{kind}/{model}"
        if "knowledgeBaseId" in params:
            return f"arn:aws:bedrock:{region}:{ACCOUNT}:knowledge-base/{params['knowledgeBaseId']}"
    return "*"
