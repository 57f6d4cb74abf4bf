"""GET /disruptions/{id}/messages: before approval, what each top plan would send; once executed, what was sent."""

from __future__ import annotations

import uuid

from api_helpers import DEMO

from skymarshal.api.roles import Role


def test_the_run_shows_what_it_will_send_then_what_it_sent(call, wf, restore):
    run_id = f"api-msg-{uuid.uuid4().hex[:6]}"
    started = call("POST", "/disruptions", role=Role.DUTY_MANAGER, body={"prompt": DEMO, "disruption_id": run_id})
    assert started.status == 202 and wf.follow(run_id, timeout_s=600).awaiting_approval
    before = call("GET", f"/disruptions/{run_id}/messages", role=Role.OBSERVER)
    assert before.status == 200 and before.body["sent"] is None
    top = before.body["plans"][0]
    decision = call("GET", f"/disruptions/{run_id}/decision", role=Role.OBSERVER).body
    assert top["scenario_id"] == decision["top"][0]["scenario_id"]
    assert any(m["flight_number"] == "EY123" for m in top["messages"]) and top["refused"] == []
    assert top["totals"]["messages"] == len(top["messages"])
    approved = call("POST", f"/disruptions/{run_id}/approve", role=Role.DUTY_MANAGER, body={"comment": "send them"})
    restore.append(run_id)
    assert approved.status == 200 and wf.follow(run_id).status == "SUCCEEDED"
    after = call("GET", f"/disruptions/{run_id}/messages", role=Role.OBSERVER).body
    sent = dict(after["sent"])
    publication = sent.pop("publication")
    assert after["plans"] == [] and sent == {k: v for k, v in top.items() if k != "publication"}  # shown = sent
    assert top.get("publication") is None and publication["published"] == publication["events"] > 0
    assert publication["failed"] == []
