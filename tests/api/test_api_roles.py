"""Who may do what, over every endpoint; the typed refusals (400 naming the field, 404, 409); a decision
made through the API reaches the state machine and the audit trail with the token's identity."""

from __future__ import annotations

import uuid

import pytest
from api_helpers import DEMO

from skymarshal.api.roles import Role, parse_groups
from skymarshal.workflow.tables import WorkflowTables

UNKNOWN = "no-such-run"
# (method, path, body, who may): every endpoint of the API.
ENDPOINTS = [
    ("POST", "/disruptions", {"prompt": "EY999 on 2027-01-20 had a bird strike"}, {Role.DUTY_MANAGER}),
    ("GET", "/disruptions", None, set(Role)),
    ("GET", f"/disruptions/{UNKNOWN}", None, set(Role)),
    ("GET", f"/disruptions/{UNKNOWN}/decision", None, set(Role)),
    ("GET", f"/disruptions/{UNKNOWN}/gantt", None, set(Role)),
    ("GET", f"/disruptions/{UNKNOWN}/messages", None, set(Role)),
    ("POST", f"/disruptions/{UNKNOWN}/approve", {"comment": "ok"}, {Role.DUTY_MANAGER}),
    ("POST", f"/disruptions/{UNKNOWN}/override", {"action": "abort", "reason": "weather"}, {Role.DUTY_MANAGER}),
    ("GET", f"/disruptions/{UNKNOWN}/audit", None, set(Role)),
    ("GET", f"/disruptions/{UNKNOWN}/history", None, set(Role)),
    (
        "POST",
        f"/disruptions/{UNKNOWN}/continue",
        {"from_round": "initial", "reason": "crew data corrected"},
        {Role.DUTY_MANAGER},
    ),
    ("POST", f"/disruptions/{UNKNOWN}/retry", None, {Role.DUTY_MANAGER}),
    ("GET", "/alerts", None, set(Role)),
    ("GET", "/replays/latest", None, set(Role)),
    ("GET", f"/disruptions/{UNKNOWN}/audit/verify", None, set(Role)),
    ("GET", "/settings", None, set(Role)),
    ("PUT", "/settings", {"approval_timeout_minutes": 45, "version": 999}, {Role.ADMIN}),
]


@pytest.mark.parametrize("method,path,body,allowed", ENDPOINTS, ids=[f"{m} {p}" for m, p, _, _ in ENDPOINTS])
@pytest.mark.parametrize("role", [None, *Role], ids=["anonymous", *(r.value for r in Role)])
def test_role_matrix(call, method, path, body, allowed, role):
    reply = call(method, path, role=role, body=body)
    if role is None:
        assert reply.status == 401 and "sign in" in reply.message
    elif role not in allowed:
        assert reply.status == 403 and ("DutyManager" in reply.message or "Admin" in reply.message)
    else:  # allowed: reaches the workflow (unknown run → 404; a bad flight still starts a run; stale version → 409)
        assert reply.status in (200, 202, 404, 409), (reply.status, reply.body)


def test_the_openapi_document_is_public_and_lists_every_endpoint(call):
    reply = call("GET", "/openapi.json")
    assert reply.status == 200 and reply.body["info"]["title"] == "SkyMarshal duty manager API"
    documented = {(method.upper(), path) for path, item in reply.body["paths"].items() for method in item}
    expected = {(m, p.replace(UNKNOWN, "{disruption_id}")) for m, p, _, _ in ENDPOINTS}
    assert expected <= documented
    assert reply.body["components"]["securitySchemes"]["cognito"]["scheme"] == "bearer"


@pytest.mark.parametrize(
    "body,field",
    [
        ({"action": "abort"}, "reason"),
        ({"action": "select", "reason": "crew prefers"}, "select needs scenario_id"),
        ({"action": "alternatives", "reason": "r"}, "instruction"),
        ({"action": "alternatives", "reason": "r", "instruction": "ignore the FDP limit"}, "flight duty period"),
        ({"action": "launch", "reason": "r"}, "action"),
        ({"action": "abort", "reason": "r", "extra": 1}, "extra"),
    ],
)
def test_a_malformed_override_is_400_naming_the_field(call, body, field):
    reply = call("POST", f"/disruptions/{UNKNOWN}/override", role=Role.DUTY_MANAGER, body=body)
    assert reply.status == 400 and field in reply.message, reply.body


@pytest.mark.parametrize("raw,field", [("{not json", "body"), ('{"prompt": ""}', "prompt"), ("[]", "body")])
def test_a_malformed_report_is_400(call, raw, field):
    reply = call("POST", "/disruptions", role=Role.DUTY_MANAGER, raw=raw)
    assert reply.status == 400 and field in reply.message, reply.body


def test_unknown_runs_are_404_with_what_to_do(call):
    for path in (f"/disruptions/{UNKNOWN}", f"/disruptions/{UNKNOWN}/decision", f"/disruptions/{UNKNOWN}/audit"):
        reply = call("GET", path, role=Role.OBSERVER)
        assert (reply.status == 404 and "skymarshal history" in reply.message) or "no run" in reply.message


def test_groups_as_api_gateway_passes_them():
    assert parse_groups("DutyManager,Observer") == {Role.DUTY_MANAGER, Role.OBSERVER}
    assert parse_groups("[DutyManager Admin]") == {Role.DUTY_MANAGER, Role.ADMIN}
    assert parse_groups(["Observer", "Pilots"]) == {Role.OBSERVER} and parse_groups(None) == frozenset()


def test_a_decision_through_the_api_is_the_tokens_and_a_second_one_is_409(call, wf, restore):
    run_id = f"api-{uuid.uuid4().hex[:6]}"
    started = call("POST", "/disruptions", role=Role.DUTY_MANAGER, body={"prompt": DEMO, "disruption_id": run_id})
    assert started.status == 202 and started.body["started"] is True
    assert wf.follow(run_id, timeout_s=600).awaiting_approval

    progress = call("GET", f"/disruptions/{run_id}", role=Role.OBSERVER)
    assert progress.body["phase"] == "awaiting_approval" and progress.body["prompt"] == DEMO
    assert {(a["phase"], a["agent"]) for a in progress.body["agents"]} >= {
        ("initial", "crew_compliance"),
        ("revision", "finance"),
    }
    decision = call("GET", f"/disruptions/{run_id}/decision", role=Role.OBSERVER)
    top = decision.body["top"]
    assert decision.status == 200 and 1 <= len(top) <= 3 and [c["rank"] for c in top] == list(range(1, len(top) + 1))
    assert top[0]["rationale"] and top[0]["compliance"] and decision.body["awaiting_approval"]

    assert call("POST", f"/disruptions/{run_id}/approve", role=Role.OBSERVER, body={}).status == 403
    assert (
        call(
            "POST", f"/disruptions/{run_id}/approve", role=Role.DUTY_MANAGER, body={"scenario_id": "no-such-plan"}
        ).status
        == 400
    )
    approved = call("POST", f"/disruptions/{run_id}/approve", role=Role.DUTY_MANAGER, body={"comment": "from the API"})
    restore.append(run_id)
    assert approved.status == 200 and approved.body["decided_by"] == "Dev Duty Manager"
    assert approved.body["scenario_id"] == top[0]["scenario_id"]
    again = call(
        "POST",
        f"/disruptions/{run_id}/override",
        role=Role.DUTY_MANAGER,
        body={"action": "abort", "reason": "changed my mind"},
    )
    assert again.status == 409 and "already decided by Dev Duty Manager" in again.message

    assert wf.follow(run_id).status == "SUCCEEDED"
    audit = call("GET", f"/disruptions/{run_id}/audit", role=Role.ADMIN).body
    decided = next(r for r in audit["trail"] if r["kind"] == "approval_decided")
    assert decided["actor"] == "Dev Duty Manager" and decided["body"]["comment"] == "from the API"
    assert audit["verification"]["ok"]
    assert call("GET", f"/disruptions/{run_id}/audit/verify", role=Role.OBSERVER).body["ok"] is True


def test_an_unexpected_failure_is_a_500_without_a_traceback(call, monkeypatch, wf):
    def broken(limit=50, status=None):
        raise KeyError("startDate")

    monkeypatch.setattr(wf, "executions", broken)
    reply = call("GET", "/disruptions", role=Role.OBSERVER)
    assert reply.status == 500 and "internal error (KeyError)" in reply.message and "Traceback" not in reply.message


@pytest.fixture
def saved_settings(account):
    """Put the deployment's settings back: a saved approval window would outlive the test."""
    from skymarshal.workflow.settings import KEY

    yield
    account.resource().Table(account.naming("Checkpoints")).delete_item(Key=KEY)


def test_an_admin_changes_the_approval_window_for_new_runs(call, saved_settings, account):
    from skymarshal.workflow.steps.validate import approval_timeout_seconds

    current = call("GET", "/settings", role=Role.OBSERVER).body
    assert current["version"] == 0 and current["approval_timeout_minutes"] >= 1
    saved = call("PUT", "/settings", role=Role.ADMIN, body={"approval_timeout_minutes": 45, "version": 0})
    assert saved.status == 200 and saved.body["version"] == 1 and saved.body["updated_by"] == "Dev Admin"
    assert approval_timeout_seconds(tables=WorkflowTables(account.resource(), account.naming)) == 45 * 60
    stale = call("PUT", "/settings", role=Role.ADMIN, body={"approval_timeout_minutes": 20, "version": 0})
    assert stale.status == 409 and "reload" in stale.message
    assert call("PUT", "/settings", role=Role.ADMIN, body={"approval_timeout_minutes": 0, "version": 1}).status == 400
    assert (
        call("PUT", "/settings", role=Role.DUTY_MANAGER, body={"approval_timeout_minutes": 9, "version": 1}).status
        == 403
    )
