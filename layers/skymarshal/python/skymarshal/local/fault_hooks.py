"""Where the fault injector (faults.py) meets the calls: moto's in-process botocore handler, or the server's WSGI
application. `install_in_process` / `middleware` are the only code that knows those two shapes."""

from __future__ import annotations

import io
import logging
import os
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from .faults import FAULTS_ENV, Fault, Injector, parse, response

log = logging.getLogger("skymarshal.local.faults")
_injector: Injector | None = None
_original_call: Callable[..., Any] | None = None


def injector() -> Injector | None:
    """The injector of this process (None: no faults)."""
    return _injector


def from_env(*, in_process: bool) -> Injector | None:
    """The injector `SKYMARSHAL_LOCAL_FAULTS` asks for, or None when it is unset or 0."""
    spec = os.environ.get(FAULTS_ENV, "").strip()
    if not spec:
        return None
    plan = parse(spec)
    if not plan.rate:
        return None
    log.warning("injecting faults into %s of AWS calls: %s", f"{plan.rate:.0%}", plan.model_dump())
    return Injector(plan, in_process=in_process)


def install_in_process(chosen: Injector | None) -> None:
    """Wrap moto's before-send handler: a call chosen to fail is answered with the fault and never reaches moto
    (a `timeout` reaches it, then the client sees ReadTimeoutError). None: uninstall."""
    global _injector, _original_call
    from botocore.awsrequest import AWSResponse
    from botocore.exceptions import ReadTimeoutError
    from moto.core.botocore_stubber import BotocoreStubber, MockRawResponse

    if _original_call is None:
        _original_call = BotocoreStubber.__call__
    original = _original_call
    _injector = chosen
    if chosen is None:
        BotocoreStubber.__call__ = original  # type: ignore[method-assign]
        return

    def call(self, event_name: str, request, **kwargs):  # moto's signature
        if not self.enabled or _injector is None:
            return original(self, event_name, request, **kwargs)
        _, service, operation = (event_name.split(".") + ["", ""])[:3]
        fault = _injector.decide(service, operation)
        if fault is None:
            return original(self, event_name, request, **kwargs)
        if fault.kind in ("latency", "timeout"):
            time.sleep(_injector.plan.latency_s)
            answer = original(self, event_name, request, **kwargs)
            if fault.kind == "timeout":  # applied, but the client never hears so: it retries
                raise ReadTimeoutError(endpoint_url=request.url)
            return answer
        status, headers, body = response(fault, _body(request.body))
        return AWSResponse(request.url, status, headers, MockRawResponse(body))

    BotocoreStubber.__call__ = call  # type: ignore[method-assign]


def _body(body: Any) -> bytes | None:
    if body is None or isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode()
    return None  # a stream (an S3 upload): no fault needs to read it


def _operation(service: str, action: str, environ: dict, body: bytes) -> str:
    """The operation the server sees: the JSON target, the query protocol's Action, or S3's method."""
    if action:
        return action
    if service == "s3":
        return environ.get("REQUEST_METHOD", "GET")
    return (parse_qs(body.decode(errors="replace")).get("Action") or [""])[0]


def middleware(app: Callable, chosen: Injector) -> Callable:
    """The server's WSGI application with faults in front: a refused call never reaches moto or the journal."""
    from .journal import service_and_action

    global _injector
    _injector = chosen

    def wsgi(environ: dict, start_response: Callable) -> Iterable[bytes]:
        service, action = service_and_action(environ)
        size = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(size) if size else b""
        environ["wsgi.input"] = io.BytesIO(body)  # read once here, again by moto
        fault: Fault | None = chosen.decide(service, _operation(service, action, environ, body)) if service else None
        if fault is None:
            return app(environ, start_response)
        if fault.kind == "latency":
            time.sleep(chosen.plan.latency_s)
            return app(environ, start_response)
        status, headers, payload = response(fault, body)
        reason = {200: "OK", 400: "Bad Request", 500: "Internal Server Error", 503: "Service Unavailable"}[status]
        start_response(f"{status} {reason}", [*headers.items(), ("Content-Length", str(len(payload)))])
        return [payload]

    return wsgi
