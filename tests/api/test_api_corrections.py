"""Corrections through the API on the emulated account: a bad fact is 400 on its one line and starts nothing; a run
waiting for a decision, corrected, is rejected with the corrections as its reason and analysed again as
ID--correct-1 on the corrected facts, checked against the data; the audit says who corrected what from what."""

from __future__ import annotations

import uuid

from api_helpers import DEMO

from skymarshal.api.roles import Role


def test_a_bad_fact_is_400_on_one_line_and_starts_nothing(call, wf):
    run_id = f"bad-{uuid.uuid4().hex[:6]}"
    reply = call(
        "POST", "/disruptions", Role.DUTY_MANAGER, body={"prompt": DEMO, "disruption_id": run_id, "facts": {"code": 7}}
    )
    assert reply.status == 400 and "code=7: not an IATA AHM 730 delay code" in reply.message
    assert "\n" not in reply.message
    assert not [e for e in wf.executions(limit=50) if e["name"] == run_id]
    assert call("POST", f"/disruptions/{run_id}/correct", Role.OBSERVER, body={"facts": {"code": "36"}}).status == 403
    assert (
        call("POST", f"/disruptions/{run_id}/correct", Role.DUTY_MANAGER, body={"facts": {"code": "36"}}).status == 404
    )
    empty = call("POST", f"/disruptions/{run_id}/correct", Role.DUTY_MANAGER, body={"facts": {}})
    assert empty.status == 400
    # the operating day is a date (issue 31 item 4): anything else is the same one line, and nothing starts
    day = call(
        "POST", "/disruptions", Role.DUTY_MANAGER, body={"prompt": DEMO, "disruption_id": run_id, "ops_date": "21/01"}
    )
    assert day.status == 400 and "ops_date" in day.message and "\n" not in day.message
    assert not [e for e in wf.executions(limit=50) if e["name"] == run_id]


def test_a_waiting_run_corrected_is_rejected_and_analysed_again_on_the_corrected_facts(call, wf, restore):
    run_id = f"corr-{uuid.uuid4().hex[:6]}"
    restore += [run_id, f"{run_id}--correct-1"]  # both end undecided: Learn's history records go (others count them)
    assert call("POST", "/disruptions", Role.DUTY_MANAGER, body={"prompt": DEMO, "disruption_id": run_id}).status == 202
    assert wf.follow(run_id, timeout_s=600).awaiting_approval
    before = call("GET", f"/disruptions/{run_id}/decision", Role.OBSERVER).body["disruption"]
    assert before["iata_delay_code"] == 41

    started = call(
        "POST",
        f"/disruptions/{run_id}/correct",
        Role.DUTY_MANAGER,
        body={"facts": {"code": 64, "crew_position": "captain"}},
    )
    assert started.status == 202 and started.body["execution_name"] == f"{run_id}--correct-1"
    again = started.body["execution_name"]
    first = wf.follow(run_id, timeout_s=300)
    assert first.status == "SUCCEEDED" and wf.output(run_id)["outcome"]["status"] == "rejected"
    assert "facts corrected (code=64, crew_position=CAPTAIN)" in (wf.output(run_id)["approval"]["comment"] or "")

    assert wf.follow(again, timeout_s=600).awaiting_approval
    after = call("GET", f"/disruptions/{again}/decision", Role.OBSERVER).body["disruption"]
    assert (after["iata_delay_code"], after["scope"]["kind"], after["scope"]["crew_position"]) == (
        64,
        "crew_member",
        "CAPTAIN",
    )
    assert [(c["key"], c["read"], c["value"], c["by"]) for c in after["corrections"]] == [
        ("code", "41", "64", "Dev Duty Manager"),
        ("crew_position", None, "CAPTAIN", "Dev Duty Manager"),
    ]
    audit = call("GET", f"/disruptions/{again}/audit", Role.ADMIN).body
    requests = [r for r in audit["trail"] if r["kind"] == "request"]
    assert len(requests) == 2 and requests[-1]["actor"] == "Dev Duty Manager"
    assert requests[-1]["body"]["corrects"] == run_id
    assert [c["key"] for c in requests[-1]["body"]["corrections"]] == ["code", "crew_position"]
    assert audit["verification"]["ok"]
    rejected = call(
        "POST", f"/disruptions/{again}/override", Role.DUTY_MANAGER, body={"action": "abort", "reason": "test over"}
    )
    assert rejected.status == 200
    assert wf.follow(again, timeout_s=300).status == "SUCCEEDED"
