"""The console in headless Chromium against a canned API: the static files are served from the package, every
/api answer is one the test wrote (built with the API's own view functions), so a test of what the page shows
runs in seconds, with no emulated AWS and no state machine. The page's requests are recorded for the assertions.

`FakeApi.answer(method, path, body)` sets an answer; a path with no answer is a 404 (the test sees it in `missed`).
The page's origin is a small server on 127.0.0.1 that answers only the live stream (`.../events`, server-sent events);
every other request is intercepted. `push(run, name, data)` sends an event whenever the test wants, so a test can
answer a decision and then deliver the next attempt's plans on the same connection, as the real server does.
"""

from __future__ import annotations

import base64
import json
import queue
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from skymarshal.api.server import CONSOLE_DIR

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}


def fake_token(name: str, groups: list[str]) -> str:
    """A token of the shape the console reads (it decodes the claims; the server, here the test, checks them)."""
    claims = {"name": name, "cognito:username": name, "cognito:groups": groups, "exp": int(time.time()) + 3600}
    body = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return f"e30.{body}.sig"


def sse(*events: tuple[str, dict]) -> str:
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)


@dataclass
class FakeApi:
    answers: dict[tuple[str, str], tuple[int, str, str]] = field(default_factory=dict)
    requests: list[tuple[str, str, dict | None]] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)

    def answer(self, method: str, path: str, body, status: int = 200) -> None:
        if isinstance(body, str):
            self.answers[(method, path)] = (status, "text/event-stream", body)
        else:
            self.answers[(method, path)] = (status, "application/json", json.dumps(body, default=str))

    streams: dict[str, queue.Queue] = field(default_factory=dict)
    origin: str = ""

    def push(self, run_id: str, name: str, data: dict | None) -> None:
        """Send one event on the run's live stream (None ends the stream)."""
        self.streams.setdefault(run_id, queue.Queue()).put(None if data is None else (name, data))

    def stream(self, run_id: str, *events: tuple[str, dict]) -> None:
        for name, data in events:
            self.push(run_id, name, data)

    def handle(self, route) -> None:
        request = route.request
        path = urlsplit(request.url).path
        if path.endswith("/events"):
            route.continue_()  # to the stream server
            return
        if not path.startswith("/api/"):
            file = CONSOLE_DIR / (path.lstrip("/") or "index.html")
            if path == "/config.json":
                config = {"mode": "local-development", "api": "/api", "stream": "/api", "devLogin": True}
                config["assistant"] = True
                route.fulfill(status=200, content_type="application/json", body=json.dumps(config))
            elif file.is_file():
                route.fulfill(status=200, content_type=TYPES.get(file.suffix, "text/plain"), body=file.read_bytes())
            else:
                route.fulfill(status=404, body="")
            return
        posted = request.post_data
        self.requests.append((request.method, path, json.loads(posted) if posted else None))
        if path == "/api/dev/login":
            role = json.loads(posted or "{}").get("role", "Observer")
            token = fake_token(f"Dev {role}", [role])
            route.fulfill(status=200, content_type="application/json", body=json.dumps({"id_token": token}))
            return
        found = self.answers.get((request.method, path))
        if found is None:
            self.missed.append(f"{request.method} {path}")
            route.fulfill(status=404, content_type="application/json", body=json.dumps({"message": "not here"}))
            return
        status, content_type, body = found
        route.fulfill(status=status, content_type=content_type, body=body)


def _stream_handler(api: FakeApi) -> type[BaseHTTPRequestHandler]:
    class Events(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            # a run's stream is keyed by its id, the board's (all the open runs' ends) by "operations"
            path = self.path.split("?", 1)[0]
            run_id = "operations" if path.endswith("/operations/events") else path.split("/disruptions/", 1)[-1]
            run_id = run_id.rsplit("/events", 1)[0]
            events = api.streams.setdefault(run_id, queue.Queue())
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            while True:
                try:
                    item = events.get(timeout=60)
                except queue.Empty:
                    return
                if item is None:
                    return
                self.wfile.write(sse(item).encode())
                self.wfile.flush()

    return Events


@pytest.fixture
def fake_api():
    api = FakeApi()
    api.answer("GET", "/api/disruptions", [])
    api.answer("GET", "/api/alerts", [])
    server = ThreadingHTTPServer(("127.0.0.1", 0), _stream_handler(api))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api.origin = f"http://127.0.0.1:{server.server_address[1]}"
    yield api
    for events in api.streams.values():
        events.put(None)
    server.shutdown()


@contextmanager
def chromium_page(width: int = 1440, height: int = 900) -> Iterator:
    """A tab of Debian's headless chromium (Playwright drives it); on leaving, no page error may have occurred."""
    from playwright.sync_api import sync_playwright

    if not shutil.which("chromium"):
        pytest.fail("chromium is not installed: `make browser` installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": width, "height": height})
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        yield tab
        browser.close()
        assert not errors, errors


@pytest.fixture
def console(fake_api):
    """A page on the console (signed out) at `fake_api.origin`, every request but the live stream answered by
    `fake_api`."""
    with chromium_page() as tab:
        tab.route(f"{fake_api.origin}/**", fake_api.handle)
        tab.goto(f"{fake_api.origin}/")
        yield tab


def sign_in(page, role: str = "DutyManager", run: str | None = None) -> None:
    page.get_by_test_id(f"login-{role}").click()
    page.get_by_test_id("who").filter(has_text=f"({role})").wait_for()
    if run:  # signing in does not open the hash's run: going there does, as a click on the runs list would
        page.evaluate("(run) => { location.hash = ''; location.hash = run; }", run)


def screenshot(page, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
