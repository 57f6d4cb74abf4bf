"""`skymarshal serve` over HTTP: the development login, token checks, live progress as server-sent events,
and a schemathesis run of the API from its own OpenAPI document with no server error."""

from __future__ import annotations

import json

import httpx
import pytest

from skymarshal.api.roles import Role


def _login(server: str, role: str) -> str:
    reply = httpx.post(f"{server}/api/dev/login", json={"role": role})
    assert reply.status_code == 200
    return reply.json()["id_token"]


def test_the_development_login_issues_a_verified_token_per_role(server):
    token = _login(server, "Observer")
    runs = httpx.get(f"{server}/api/disruptions", headers={"Authorization": f"Bearer {token}"})
    assert runs.status_code == 200 and isinstance(runs.json(), list)
    assert httpx.post(f"{server}/api/dev/login", json={"role": "Pilot"}).status_code == 400
    assert httpx.get(f"{server}/config.json").json()["mode"] == "local-development"


@pytest.mark.parametrize("header", ["Bearer not-a-jwt", "Basic abc", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x"])
def test_a_bad_token_is_401_never_a_traceback(server, header):
    reply = httpx.get(f"{server}/api/disruptions", headers={"Authorization": header})
    assert reply.status_code == 401 and "token" in reply.json()["message"]


def test_a_tampered_token_is_refused(server):
    header, payload, signature = _login(server, "Observer").split(".")
    forged = payload[:-4] + ("AAAA" if payload[-4:] != "AAAA" else "BBBB")
    reply = httpx.get(f"{server}/api/disruptions", headers={"Authorization": f"Bearer {header}.{forged}.{signature}"})
    assert reply.status_code == 401


def test_live_progress_streams_the_run_to_its_end(server, wf):
    token = _login(server, "Observer")
    name = wf.start("EY999 on 2027-01-20 had a bird strike", disruption_id="sse-unknown-flight")["execution_name"]
    events = []
    with httpx.stream(
        "GET", f"{server}/api/disruptions/{name}/events", headers={"Authorization": f"Bearer {token}"}, timeout=120
    ) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        kind = None
        for line in stream.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and kind:
                events.append((kind, json.loads(line.split(":", 1)[1])))
                if kind == "done":
                    break
    assert events[0][0] == "phase" and events[-1] == ("done", {"status": "FAILED", "outcome": None})
    assert (
        httpx.get(f"{server}/api/disruptions/nope/events", headers={"Authorization": f"Bearer {token}"}).status_code
        == 404
    )
    assert httpx.get(f"{server}/api/disruptions/{name}/events").status_code == 401
    # the board's one stream for all its open runs: each run's end once, an unknown id as NOT_FOUND, then it ends
    board = _events(server, token, f"/api/operations/events?runs={name},nope,{name}")
    assert board == [("done", {"run": name, "status": "FAILED"}), ("done", {"run": "nope", "status": "NOT_FOUND"})]
    headers = {"Authorization": f"Bearer {token}"}
    for bad in ("", "?runs=", "?runs=" + ",".join(f"r{i}" for i in range(101))):
        refused = httpx.get(f"{server}/api/operations/events{bad}", headers=headers)
        assert refused.status_code == 400 and "comma-separated" in refused.json()["message"], bad


def _events(server: str, token: str, path: str) -> list[tuple[str, dict]]:
    """Every event of a stream that ends by itself."""
    events, kind = [], None
    with httpx.stream("GET", f"{server}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=120) as stream:
        for line in stream.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and kind:
                events.append((kind, json.loads(line.split(":", 1)[1])))
    return events


def test_the_console_is_served(server):
    page = httpx.get(f"{server}/")
    assert page.status_code == 200 and "SkyMarshal" in page.text and "DEVELOPMENT LOGIN" in page.text
    assert httpx.get(f"{server}/app.js").status_code == 200


def test_fuzz_the_api_from_its_openapi_document(server, tokens):
    """Generated requests to every operation, as an Observer and as a duty manager (not starting runs as the
    duty manager, which would fill the machine with executions): no 5xx, and responses whose JSON matches the
    document's schema."""
    import schemathesis
    from hypothesis import HealthCheck, given, settings

    schema = schemathesis.openapi.from_url(f"{server}/api/openapi.json")
    checks = [schemathesis.checks.not_a_server_error, schemathesis.checks.response_schema_conformance]
    tried = 0
    for role in (Role.OBSERVER, Role.DUTY_MANAGER):
        headers = {"Authorization": f"Bearer {tokens[role]}"}
        for result in schema.get_all_operations():
            operation = result.ok()
            if role is Role.DUTY_MANAGER and (operation.method.upper(), operation.path) == ("POST", "/disruptions"):
                continue

            @given(case=operation.as_strategy())
            @settings(max_examples=12, deadline=None, database=None, suppress_health_check=list(HealthCheck))
            def check(case):
                # called right below, in this iteration: the loop's headers are the ones meant
                case.call_and_validate(headers=headers, checks=checks)  # noqa: B023

            check()
            tried += 1
    assert tried >= 15  # eight operations as an Observer, seven as a duty manager


def test_the_assistant_is_served_behind_the_same_sign_in(server):
    question = {"message": "What are the curfew rules at Frankfurt?", "thread_id": None}
    assert httpx.post(f"{server}/api/assistant/chat", json=question).status_code == 401
    token = _login(server, "Observer")
    reply = httpx.post(
        f"{server}/api/assistant/chat", json=question, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["plan"]["selected_tool"] and body["ui_payload"]["kind"] in ("airport", "rules") and body["answer"]
