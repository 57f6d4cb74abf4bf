"""The local server's write-ahead record: every request that changed DynamoDB or S3, in the order applied.

A WSGI middleware (`Recorder`) in front of moto's application sees each request. A DynamoDB or S3 write
is applied and appended to the journal while the DynamoDB lock is held (moto_speedups.LOCK), so the
journal's order is the order the account saw, and a replay of the same requests on the same snapshot
gives the same tables: DynamoDB's and S3's answers depend only on the request and the prior state. Only
requests that succeeded are recorded (a refused transaction changed nothing).

Each record is a length-prefixed pickle written with one write() and flushed to the OS, so a killed
server (SIGKILL) loses nothing it answered: the kernel keeps the page cache. A record torn by a power
cut is the last one, and is skipped on replay. Requests to KMS, Cognito and Step Functions are handed
to callbacks (snapshot the keys, record the run) after they succeed. A new run is refused here while the
server's memory is short (memory_guard.py).
"""

from __future__ import annotations

import io
import pickle
import re
import struct
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from . import memory_guard
from .moto_speedups import LOCK, WRITES

_SCOPE = re.compile(r"Credential=[^/]+/\d+/[^/]+/([^/]+)/aws4_request")
_HEADER = struct.Struct(">I")


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query: str
    headers: tuple[tuple[str, str], ...]
    body: bytes


def service_and_action(environ: dict) -> tuple[str, str]:
    """The signing service (dynamodb, s3, kms, cognito-idp, states, ...) and the JSON action, if any."""
    match = _SCOPE.search(environ.get("HTTP_AUTHORIZATION", ""))
    target = environ.get("HTTP_X_AMZ_TARGET", "")
    return (match.group(1) if match else ""), target.rsplit(".", 1)[-1]


def journaled(service: str, action: str, method: str) -> bool:
    if service == "dynamodb":
        return action in WRITES
    return service == "s3" and method in ("PUT", "POST", "DELETE")


class Journal:
    """Append-only file of requests; `replay` reads them back, stopping at a torn tail."""

    def __init__(self, path: Path):
        self.path = path
        self._file = path.open("ab")
        self.appended = 0

    def append(self, request: Request) -> None:
        data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        self._file.write(_HEADER.pack(len(data)) + data)
        self._file.flush()
        self.appended += 1

    def close(self) -> None:
        self._file.close()

    @staticmethod
    def read(path: Path) -> Iterator[Request]:
        if not path.exists():
            return
        with path.open("rb") as source:
            while header := source.read(_HEADER.size):
                if len(header) < _HEADER.size:
                    return
                (size,) = _HEADER.unpack(header)
                data = source.read(size)
                if len(data) < size:
                    return  # torn by a crash while writing: that request was never answered
                yield pickle.loads(data)


class Recorder:
    """WSGI middleware: journal DynamoDB/S3 writes, notify KMS/Cognito/Step Functions changes."""

    def __init__(self, app, on_change: Callable[[str, str], None]):
        self.app = app
        self.on_change = on_change  # (service, action) after a successful KMS/Cognito/Step Functions request
        self.journal: Journal | None = None  # None while starting: the recovery itself is not recorded
        self._local = threading.local()

    def __call__(self, environ, start_response):
        service, action = service_and_action(environ)
        method = environ.get("REQUEST_METHOD", "GET")
        if service == "states" and action in memory_guard.NEW_WORK:
            refusal = memory_guard.refused(start_response)  # no new run while memory is short
            if refusal is not None:
                print(refusal[0].decode(), flush=True)  # local.log says why runs were refused
                return refusal
        if self.journal is not None and journaled(service, action, method):
            return self._journaled(environ, start_response, method)
        if self.journal is not None and service in ("kms", "cognito-idp", "states") and action:
            result, status = self._run(environ, start_response)
            if status < 300:
                self.on_change(service, action)
            return result
        return self.app(environ, start_response)

    def _run(self, environ, start_response) -> tuple[list[bytes], int]:
        seen: list[int] = []

        def capture(status: str, headers, exc_info=None):
            seen.append(int(status.split(" ", 1)[0]))
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        result = self.app(environ, capture)
        try:
            body = list(result)  # moto answers in full; materialised so the status is known here
        finally:
            if hasattr(result, "close"):
                result.close()
        return body, seen[0] if seen else 500

    def _journaled(self, environ, start_response, method: str):
        size = int(environ.get("CONTENT_LENGTH") or 0)
        if size:
            body = environ["wsgi.input"].read(size)
        else:  # a chunked upload: werkzeug has decoded it, and marks the stream as ending by itself
            body = environ["wsgi.input"].read() if environ.get("wsgi.input_terminated") else b""
        environ["wsgi.input"] = io.BytesIO(body)
        request = Request(
            method=method,
            path=environ.get("PATH_INFO", "/"),
            query=environ.get("QUERY_STRING", ""),
            headers=tuple(
                (key[5:].replace("_", "-").title(), value) for key, value in environ.items() if key.startswith("HTTP_")
            )
            + (("Content-Type", environ.get("CONTENT_TYPE", "")),),
            body=body,
        )
        with LOCK:
            result, status = self._run(environ, start_response)
            if status < 300 and self.journal is not None:
                self.journal.append(request)
        return result


def replay(app, path: Path) -> tuple[int, int]:
    """Apply the journal's requests to the application in order; returns (applied, refused)."""
    from werkzeug.test import EnvironBuilder

    applied = refused = 0
    for request in Journal.read(path):
        builder = EnvironBuilder(
            path=request.path,
            method=request.method,
            query_string=request.query,
            headers=[(k, v) for k, v in request.headers if k.lower() not in ("content-length", "transfer-encoding")],
            data=request.body,
        )
        environ = builder.get_environ()
        statuses: list[str] = []
        result = app(environ, lambda status, headers, exc_info=None, seen=statuses: seen.append(status))
        for _ in result:
            pass
        if statuses and statuses[0].startswith("2"):
            applied += 1
        else:
            refused += 1
        if request.headers and dict(request.headers).get("X-Amz-Target", "").endswith(".ImportTable"):
            _wait_for_imports()
    return applied, refused


def _wait_for_imports() -> None:
    """ImportTable runs in a thread: the records after it may read what it writes."""
    from .snapshot import _backend

    for table_import in list(_backend("dynamodb").table_imports.values()):
        table_import.join()
