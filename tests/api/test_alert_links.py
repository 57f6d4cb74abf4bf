"""GET /alerts through the API's resolver: a local run's console link opens the console answering the request (the
port `skymarshal serve --port N` listens on), not the default port the run was raised with; a deployed console's
link, or a request from elsewhere, is left as it is."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from skymarshal.api import app as api
from skymarshal.api.server import proxy_event
from skymarshal.workflow.alerts import Alert

OBSERVER = {"cognito:username": "ob", "name": "Dev Observer", "cognito:groups": "Observer"}


def _alert(link: str) -> Alert:
    return Alert(
        disruption_id="d-1",
        execution_name="run-1",
        reason="LOW_CONFIDENCE",
        message="confidence 0.41",
        raised_at=datetime(2027, 1, 20, tzinfo=UTC),
        console_link=link,
    )


class _Client:
    tables = None


@pytest.fixture
def links(monkeypatch):
    saved = api._client_factory, api._client

    def fetch(stored: str, host: str | None) -> str:
        monkeypatch.setattr(api, "latest_alerts", lambda tables, limit: [_alert(stored)])
        api.configure(lambda: _Client())  # type: ignore[arg-type, return-value]
        headers = {"content-type": "application/json"} | ({"host": host} if host else {})
        reply = api.handle(proxy_event("GET", "/alerts", claims=OBSERVER, headers=headers), None)
        assert reply["statusCode"] == 200, reply
        [alert] = json.loads(reply["body"])
        return alert["console_link"]

    yield fetch
    api._client_factory, api._client = saved


def test_a_local_link_opens_the_console_that_answers(links):
    assert links("http://127.0.0.1:8000/#run-1", "127.0.0.1:8123") == "http://127.0.0.1:8123/#run-1"
    assert links("http://localhost:8000/#run-1", "localhost:9000") == "http://localhost:9000/#run-1"


def test_a_deployed_link_or_a_foreign_host_is_left_alone(links):
    deployed = "https://d111.cloudfront.net/#run-1"
    assert links(deployed, "127.0.0.1:8123") == deployed
    assert links("http://127.0.0.1:8000/#run-1", "evil.example:80") == "http://127.0.0.1:8000/#run-1"
    assert links("http://127.0.0.1:8000/#run-1", None) == "http://127.0.0.1:8000/#run-1"
