"""A local fake of the Bedrock Runtime HTTP API (Converse and ConverseStream) for tests.

Tests start it on 127.0.0.1 and point botocore at it with AWS_ENDPOINT_URL_BEDROCK_RUNTIME, so the real
langchain-aws ChatBedrockConverse → botocore path runs: request signing, serialization, retries, timeouts,
error parsing and the event-stream decoder. It is strict where Bedrock is: a bare foundation-model id is
refused for on-demand use, a profile of another geography than the server's region is an invalid id.

What it answers is scripted: `server.script(...)` queues actions consumed one per request (a reply, a
throttle, a service error, a stall, a malformed or an oversized reply); with the queue empty `responder`
(request JSON → reply) answers, by default calling the tool the request forces with `tool_inputs[name]`.
ConverseStream replies use the AWS event-stream binary framing (`encode_event`): prelude (total length,
headers length, CRC32 of the two), headers (name, type 7 = string, value), JSON payload, CRC32 of it all.
"""

from __future__ import annotations

import contextlib
import json
import struct
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

FOUNDATION_MODELS = {
    "anthropic.claude-sonnet-4-5-20250929-v1:0",
    "anthropic.claude-opus-4-5-20251101-v1:0",
    "anthropic.claude-haiku-4-5-20251001-v1:0",
}
REGION_GEOGRAPHY = {"us": "us", "eu": "eu", "ap": "apac"}
ON_DEMAND_REFUSED = (
    "Invocation of model ID {model} with on-demand throughput isn’t supported. Retry your request "
    "with the ID or ARN of an inference profile that contains this model."
)


# ------------------------------------------------------------------------------------------ event stream


def _header(name: str, value: str) -> bytes:
    raw_name, raw_value = name.encode(), value.encode()
    return struct.pack("!B", len(raw_name)) + raw_name + struct.pack("!BH", 7, len(raw_value)) + raw_value


def encode_event(headers: dict[str, str], payload: bytes) -> bytes:
    """One event-stream message: prelude + prelude CRC, headers, payload, message CRC (CRC32, big-endian)."""
    encoded = b"".join(_header(k, v) for k, v in headers.items())
    total = 12 + len(encoded) + len(payload) + 4
    prelude = struct.pack("!II", total, len(encoded))
    head = prelude + struct.pack("!I", zlib.crc32(prelude) & 0xFFFFFFFF) + encoded + payload
    return head + struct.pack("!I", zlib.crc32(head) & 0xFFFFFFFF)


def event(kind: str, body: dict) -> bytes:
    return encode_event(
        {":event-type": kind, ":content-type": "application/json", ":message-type": "event"}, json.dumps(body).encode()
    )


def stream_exception(kind: str, message: str) -> bytes:
    return encode_event(
        {":exception-type": kind, ":content-type": "application/json", ":message-type": "exception"},
        json.dumps({"message": message}).encode(),
    )


def stream_events(content: list[dict], stop_reason: str) -> list[bytes]:
    """A Converse reply's content as ConverseStream events (text in two deltas, tool input as JSON text)."""
    out = [event("messageStart", {"role": "assistant"})]
    for index, block in enumerate(content):
        if "toolUse" in block:
            use = block["toolUse"]
            out.append(
                event(
                    "contentBlockStart",
                    {
                        "contentBlockIndex": index,
                        "start": {"toolUse": {"toolUseId": use["toolUseId"], "name": use["name"]}},
                    },
                )
            )
            out.append(
                event(
                    "contentBlockDelta",
                    {"contentBlockIndex": index, "delta": {"toolUse": {"input": json.dumps(use["input"])}}},
                )
            )
        else:
            text = block["text"]
            for part in (text[: len(text) // 2], text[len(text) // 2 :]):
                out.append(event("contentBlockDelta", {"contentBlockIndex": index, "delta": {"text": part}}))
        out.append(event("contentBlockStop", {"contentBlockIndex": index}))
    out.append(event("messageStop", {"stopReason": stop_reason}))
    out.append(
        event(
            "metadata",
            {"usage": {"inputTokens": 10, "outputTokens": 10, "totalTokens": 20}, "metrics": {"latencyMs": 5}},
        )
    )
    return out


# ------------------------------------------------------------------------------------------------ actions


@dataclass
class Reply:
    content: list[dict]  # [{"text": ...}] or [{"toolUse": {"toolUseId", "name", "input"}}]
    stop_reason: str = "end_turn"


@dataclass
class Fail:
    status: int
    error_type: str  # ThrottlingException, InternalServerException, ModelErrorException, ...
    message: str


@dataclass
class Stall:
    seconds: float  # before any byte of the reply
    then: Any = None  # what to answer afterwards (if the client is still there)


@dataclass
class Raw:
    body: bytes  # a 200 whose body is whatever this is (malformed JSON, half an event stream...)
    content_type: str = "application/json"


def throttle() -> Fail:
    return Fail(429, "ThrottlingException", "Too many requests, please wait before trying again.")


def text(value: str) -> Reply:
    return Reply([{"text": value}])


def tool(name: str, value: dict) -> Reply:
    return Reply([{"toolUse": {"toolUseId": f"tooluse_{name}", "name": name, "input": value}}], "tool_use")


@dataclass
class Seen:
    model_id: str
    operation: str  # converse | converse-stream
    body: dict


@dataclass
class FakeBedrock:
    region: str = "us-east-1"
    tool_inputs: dict[str, Any] = field(default_factory=dict)  # tool name -> input dict, or request -> dict
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._queue: deque = deque()
        self._stop = threading.Event()
        self._server: ThreadingHTTPServer | None = None

    # ---------------------------------------------------------------------------------------- control
    def script(self, *actions) -> FakeBedrock:
        self._queue.extend(actions)
        return self

    def responder(self, request: dict) -> Reply:
        """Default: call the tool the request forces (structured output), else the one tool offered, else text."""
        tools = [t["toolSpec"]["name"] for t in request.get("toolConfig", {}).get("tools", [])]
        forced = request.get("toolConfig", {}).get("toolChoice", {}).get("tool", {}).get("name")
        name = forced or next((t for t in tools if t in self.tool_inputs), None)
        if name and name in self.tool_inputs:
            value = self.tool_inputs[name]
            return tool(name, value(request) if callable(value) else value)
        return text("Recommendation follows the rule findings.")

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeBedrock:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # the body ends when the connection closes: streams need no length

            def log_message(self, *args) -> None:  # quiet
                pass

            def do_POST(self) -> None:
                fake._handle(self)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True, name="fake-bedrock").start()
        return self

    def stop(self) -> None:
        self._stop.set()  # wakes any stalled reply
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # --------------------------------------------------------------------------------------- serving
    def _model_error(self, model_id: str) -> Fail | None:
        geography, _, foundation = model_id.partition(".")
        if model_id in FOUNDATION_MODELS:
            return Fail(400, "ValidationException", ON_DEMAND_REFUSED.format(model=model_id))
        if foundation not in FOUNDATION_MODELS or geography not in ("global", "us", "eu", "apac"):
            return Fail(400, "ValidationException", "The provided model identifier is invalid.")
        if geography != "global" and REGION_GEOGRAPHY.get(self.region.split("-")[0]) != geography:
            return Fail(400, "ValidationException", "The provided model identifier is invalid.")
        return None

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        parts = h.path.split("/")  # /model/<id>/converse[-stream]
        length = int(h.headers.get("Content-Length") or 0)
        body = json.loads(h.rfile.read(length) or b"{}")
        if len(parts) != 4 or parts[1] != "model" or parts[3] not in ("converse", "converse-stream"):
            return self._send_error(h, Fail(404, "UnknownOperationException", f"no route {h.path}"))
        model_id, operation = unquote(parts[2]), parts[3]
        self.seen.append(Seen(model_id, operation, body))
        problem = self._model_error(model_id)
        action = problem or (self._queue.popleft() if self._queue else self.responder(body))
        while isinstance(action, Stall):
            if self._stop.wait(action.seconds):
                return
            action = action.then if action.then is not None else self.responder(body)
        try:
            if isinstance(action, Fail):
                self._send_error(h, action)
            elif isinstance(action, Raw):
                self._send(h, 200, action.body, action.content_type)
            elif operation == "converse":
                self._send(
                    h,
                    200,
                    json.dumps(
                        {
                            "output": {"message": {"role": "assistant", "content": action.content}},
                            "stopReason": action.stop_reason,
                            "usage": {"inputTokens": 10, "outputTokens": 10, "totalTokens": 20},
                            "metrics": {"latencyMs": 5},
                        }
                    ).encode(),
                    "application/json",
                )
            else:
                self._send(
                    h,
                    200,
                    b"".join(stream_events(action.content, action.stop_reason)),
                    "application/vnd.amazon.eventstream",
                )
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (its read timeout): fine
            pass

    @staticmethod
    def _send(
        h: BaseHTTPRequestHandler, status: int, payload: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        h.send_response(status)
        h.send_header("Content-Type", content_type)
        h.send_header("x-amzn-RequestId", f"fake-{time.monotonic_ns()}")
        for key, value in (headers or {}).items():
            h.send_header(key, value)
        if not content_type.endswith("eventstream"):
            h.send_header("Content-Length", str(len(payload)))
        h.end_headers()
        h.wfile.write(payload)
        h.wfile.flush()

    def _send_error(self, h: BaseHTTPRequestHandler, fail: Fail) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._send(
                h,
                fail.status,
                json.dumps({"message": fail.message}).encode(),
                "application/json",
                {"x-amzn-ErrorType": f"{fail.error_type}:http://internal.amazon.com/coral/com.amazon.bedrock/"},
            )


def bedrock_env(monkeypatch, fake: FakeBedrock) -> None:
    """botocore → the fake, with throwaway credentials (the fake checks no signature)."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", fake.url)
    monkeypatch.setenv("AWS_REGION", fake.region)
    monkeypatch.setenv("AWS_DEFAULT_REGION", fake.region)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", raising=False)


Responder = Callable[[dict], Reply]
