"""Faults the cloud throws, injected into the emulated account (issue 48 item 1): a seeded share of AWS calls fails
the way the real service fails, so retries, idempotency and escalations are exercised on one machine.

    SKYMARSHAL_LOCAL_FAULTS="5%"                                 every kind, every supported service
    SKYMARSHAL_LOCAL_FAULTS="20%,seed=7,kinds=throttle+partial,services=dynamodb+events"
    skymarshal local start --faults 5%                           the same, for the server

Kinds (each only where the real service answers so):
- `throttle`: DynamoDB ProvisionedThroughputExceededException, S3 503 SlowDown, SNS Throttling, ThrottlingException
  elsewhere (Step Functions, EventBridge, KMS);
- `error`: a 500 (InternalServerError, S3 InternalError, KMSInternalException);
- `conflict`: DynamoDB TransactWriteItems → TransactionCanceledException, every reason TransactionConflict;
- `partial`: EventBridge PutEvents → 200 with FailedEntryCount > 0 and some entries InternalFailure;
- `latency`: the answer comes `latency_s` late (1.5 s), then as normal;
- `timeout`: the request IS applied, then the client sees ReadTimeoutError — the case that makes every retried
  write prove its idempotency (in-process only: a WSGI server cannot drop a connection after answering).

Where it hooks, and why there: in process, moto answers botocore from a `before-send` handler
(`BotocoreStubber`); botocore calls *every* before-send handler, so a handler of our own registered first could
answer with an error but moto would still apply the write. Wrapping moto's handler decides first and skips moto on
a fault — and stays inside botocore's retry loop, so the library's retry configuration (data/aws.py) is what
meets each fault, as against AWS. In server mode a WSGI middleware in front of the journal does the same for the
handlers' and the CLI's HTTP calls; a refused write is neither applied nor journaled.

Seeded and reproducible: whether call n of (service, operation) fails, and how, is a function of (seed, service,
operation, n) alone — the same sequence of calls meets the same faults; threads may interleave differently, each
operation's own sequence does not. Every fault is logged on one line (`skymarshal.local.faults`) and counted
(`stats()`), so a failure in a run can be traced to the call that caused it.
"""

from __future__ import annotations

import json
import logging
import threading
import zlib
from collections import Counter
from dataclasses import dataclass, field
from random import Random

from pydantic import BaseModel, ConfigDict, Field

FAULTS_ENV = "SKYMARSHAL_LOCAL_FAULTS"
KINDS = ("throttle", "error", "conflict", "partial", "latency", "timeout")
SERVICES = ("dynamodb", "s3", "states", "events", "kms", "sns")
# botocore's hyphenized service ids (in process) → the signing names the server sees
_SERVICE_IDS = {"sfn": "states", "eventbridge": "events"}
log = logging.getLogger("skymarshal.local.faults")


class FaultSpecError(ValueError):
    """A --faults / SKYMARSHAL_LOCAL_FAULTS value that cannot be read: one line saying why."""


class FaultPlan(BaseModel):
    """What to inject: the share of calls, the seed, the kinds and services."""

    model_config = ConfigDict(frozen=True)

    rate: float = Field(ge=0.0, le=1.0)
    seed: int = 48
    kinds: tuple[str, ...] = KINDS
    services: tuple[str, ...] = SERVICES
    latency_s: float = Field(default=1.5, ge=0.0, le=60.0)


def parse(spec: str) -> FaultPlan:
    """`RATE[,seed=N][,kinds=a+b][,services=a+b][,latency=S]`; RATE as `5%` or `0.05`."""
    head, *options = [part.strip() for part in spec.split(",") if part.strip()] or [""]
    try:
        rate = float(head[:-1]) / 100 if head.endswith("%") else float(head)
    except ValueError:
        raise FaultSpecError(f"{FAULTS_ENV}={spec!r}: the first part is the share of calls to fail, e.g. 5%") from None
    values: dict[str, object] = {"rate": rate}
    for option in options:
        name, _, value = option.partition("=")
        if name == "seed":
            if not value.lstrip("-").isdigit():
                raise FaultSpecError(f"{FAULTS_ENV}={spec!r}: the seed is a whole number, e.g. seed=7")
            values["seed"] = int(value)
        elif name == "latency":
            values["latency_s"] = _number(spec, value)
        elif name in ("kinds", "services"):
            chosen = tuple(v for v in value.split("+") if v)
            known = KINDS if name == "kinds" else SERVICES
            unknown = [v for v in chosen if v not in known]
            if unknown or not chosen:
                raise FaultSpecError(f"{FAULTS_ENV}={spec!r}: {name} are {', '.join(known)}; not {unknown or value!r}")
            values[name] = chosen
        else:
            raise FaultSpecError(f"{FAULTS_ENV}={spec!r}: unknown option {option!r} (seed, kinds, services, latency)")
    if not 0.0 <= rate <= 1.0:
        raise FaultSpecError(f"{FAULTS_ENV}={spec!r}: the share is between 0% and 100%")
    return FaultPlan.model_validate(values)


def _number(spec: str, value: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise FaultSpecError(f"{FAULTS_ENV}={spec!r}: latency is in seconds, e.g. latency=1.5") from None


@dataclass(frozen=True)
class Fault:
    kind: str
    service: str
    operation: str
    call: int  # this operation's call number, from 1


def applicable(service: str, operation: str, kinds: tuple[str, ...], *, in_process: bool) -> tuple[str, ...]:
    """The kinds this call can meet as the real service would answer it."""
    out = []
    for kind in kinds:
        if kind == "conflict" and (service, operation) != ("dynamodb", "TransactWriteItems"):
            continue
        if kind == "partial" and (service, operation) != ("events", "PutEvents"):
            continue
        if kind == "timeout" and not in_process:
            continue
        out.append(kind)
    return tuple(out)


@dataclass
class Injector:
    """Decides per call, logs and counts; one per process (`install`)."""

    plan: FaultPlan
    in_process: bool = True
    calls: Counter = field(default_factory=Counter)  # (service, operation) → calls seen
    injected: Counter = field(default_factory=Counter)  # (service, operation, kind) → faults
    lock: threading.Lock = field(default_factory=threading.Lock)

    def decide(self, service: str, operation: str) -> Fault | None:
        service = _SERVICE_IDS.get(service, service)
        if service not in self.plan.services or not self.plan.rate:
            return None
        with self.lock:
            self.calls[(service, operation)] += 1
            n = self.calls[(service, operation)]
        rng = Random(zlib.crc32(f"{self.plan.seed}:{service}:{operation}:{n}".encode()))
        if rng.random() >= self.plan.rate:
            return None
        kinds = applicable(service, operation, self.plan.kinds, in_process=self.in_process)
        if not kinds:
            return None
        fault = Fault(kind=rng.choice(kinds), service=service, operation=operation, call=n)
        with self.lock:
            self.injected[(service, operation, fault.kind)] += 1
        log.warning("fault injected: %s %s call %d: %s", service, operation, n, fault.kind)
        return fault

    def stats(self) -> dict[str, int]:
        with self.lock:
            return {
                "calls": sum(self.calls.values()),
                "faults": sum(self.injected.values()),
                **{f"{s}:{o}:{k}": n for (s, o, k), n in sorted(self.injected.items())},
            }


def response(fault: Fault, body: bytes | None) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) as the real service answers this fault (latency and timeout have none)."""
    service, kind = fault.service, fault.kind
    if kind == "partial":
        entries = len(json.loads(body or b"{}").get("Entries", [])) or 1
        failed = list(range(0, entries, 2))  # every other entry, the first included: FailedEntryCount > 0
        answer = [
            {"ErrorCode": "InternalFailure", "ErrorMessage": "injected: entry not put"}
            if i in failed
            else {"EventId": f"fault-{fault.call}-{i}"}
            for i in range(entries)
        ]
        return 200, _json_headers(), json.dumps({"FailedEntryCount": len(failed), "Entries": answer}).encode()
    if service == "s3":
        code, status = ("SlowDown", 503) if kind == "throttle" else ("InternalError", 500)
        xml = f"<?xml version='1.0' encoding='UTF-8'?><Error><Code>{code}</Code><Message>injected</Message></Error>"
        return status, {"Content-Type": "application/xml"}, xml.encode()
    if service == "sns":
        code, status = ("Throttling", 400) if kind == "throttle" else ("InternalError", 500)
        xml = (
            f"<ErrorResponse><Error><Type>{'Sender' if status == 400 else 'Receiver'}</Type><Code>{code}</Code>"
            "<Message>injected</Message></Error><RequestId>fault</RequestId></ErrorResponse>"
        )
        return status, {"Content-Type": "text/xml"}, xml.encode()
    if kind == "conflict":
        items = len(json.loads(body or b"{}").get("TransactItems", [])) or 1
        reasons = [{"Code": "TransactionConflict", "Message": "Transaction is ongoing for the item"}] * items
        message = "Transaction cancelled, please refer cancellation reasons for specific reasons " + (
            "[" + ", ".join(["TransactionConflict"] * items) + "]"
        )
        payload = {"__type": _type(service, "TransactionCanceledException"), "message": message}
        return 400, _json_headers(), json.dumps({**payload, "CancellationReasons": reasons}).encode()
    if kind == "throttle":
        code = "ProvisionedThroughputExceededException" if service == "dynamodb" else "ThrottlingException"
        return 400, _json_headers(), json.dumps({"__type": _type(service, code), "message": "injected"}).encode()
    code = {"dynamodb": "InternalServerError", "kms": "KMSInternalException"}.get(service, "InternalException")
    return 500, _json_headers(), json.dumps({"__type": _type(service, code), "message": "injected"}).encode()


def _type(service: str, code: str) -> str:
    return f"com.amazonaws.dynamodb.v20120810#{code}" if service == "dynamodb" else code


def _json_headers() -> dict[str, str]:
    return {"Content-Type": "application/x-amz-json-1.0", "x-amzn-RequestId": "fault"}
