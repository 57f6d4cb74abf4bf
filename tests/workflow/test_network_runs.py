"""A network disruption through the synthesized state machine (issue 17): "Abu Dhabi airport is closed by fog from
14:00 to 17:00 UTC on January 22nd" goes from Validate straight to Arbitrate, which plans the affected flights with
the network planner; the duty manager sees the per-flight table, may exclude a flight (re-validated), approves,
and Execute applies the plan as one grouped, compensated execution; Learn writes a history row per flight."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from state_sizes import assert_every_state_fits
from workflow_helpers import run_id

from skymarshal.data.schema import AGENTS
from skymarshal.workflow.models import ApprovalDecision

CLOSURE = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd"


def _at(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


def _inside(moment: datetime | None, window: dict) -> bool:
    return moment is not None and _at(window["start"]) <= moment < _at(window["end"])


@pytest.fixture(scope="module")
def closure(wf):
    name = wf.start(CLOSURE, disruption_id=run_id("auh-fog"))["execution_name"]
    progress = wf.follow(name, timeout_s=600)
    assert progress.awaiting_approval, (progress.status, progress.current, wf.describe(name).get("cause"))
    return name


def test_the_recommended_plan_keeps_every_flight_out_of_the_closure_and_legally_crewed(wf, closure):
    decision = wf.decision(closure)
    network = decision["network"]
    window = network["restriction"]["window"]
    assert network["restriction"]["kind"] == "closure" and network["restriction"]["airport"] == "AUH"
    top = decision["ranked"][0]["scenario"]
    (validated,) = [p for p in network["plans"] if p["plan"]["plan_id"] == top["scenario_id"]]
    assert validated["rejections"] == [] and validated["flights_checked"] == len(validated["plan"]["actions"])
    for row in validated["plan"]["actions"]:
        if row["action"] == "cancel":
            continue
        assert not (row["origin"] == "AUH" and _inside(_at(row["new_departure"]), window)), row
        assert not (row["destination"] == "AUH" and _inside(_at(row["new_arrival"]), window)), row
    print(decision["final_decision"])


def _flights(account, ids) -> dict[str, dict]:
    table = account.resource().Table(account.naming("flights"))
    return {i: table.get_item(Key={"flight_id": i}).get("Item") for i in ids}


def test_an_exclusion_is_revalidated_then_the_approved_plan_is_executed_and_learnt(wf, account, closure, restore):
    decision = wf.decision(closure)
    top = decision["ranked"][0]["scenario"]
    rows = next(
        p["plan"]["actions"] for p in decision["network"]["plans"] if p["plan"]["plan_id"] == top["scenario_id"]
    )
    window = decision["network"]["restriction"]["window"]
    # leaving a flight that leaves AUH inside the closure as scheduled breaks every plan: refused, plans kept
    closed = next(r for r in rows if r["origin"] == "AUH" and _inside(_at(r["scheduled_departure"]), window))
    wf.decide(
        closure,
        ApprovalDecision(
            action="exclude", excluded_flights={closed["flight_id"]: "crew already at the gate"}, decided_by="Dana Duty"
        ),
    )
    progress = wf.follow(closure, timeout_s=600)
    assert progress.awaiting_approval, (progress.status, progress.current)
    second = wf.decision(closure)
    refused = second["network"]["exclusion_refused"]
    assert refused and closed["flight_id"] in refused and "CLOSED_AIRPORT" in refused, refused
    assert [r["scenario"]["scenario_id"] for r in second["ranked"]] == [
        r["scenario"]["scenario_id"] for r in decision["ranked"]
    ]
    # approve: every row's actions applied in one execution, a group per action
    changed = [r for r in rows if r["action"] != "operate" or r["crew_changes"]]
    restore.append(closure)
    wf.decide(closure, ApprovalDecision(action="approve", decided_by="Dana Duty"))
    assert wf.follow(closure, timeout_s=600).status == "SUCCEEDED"
    output = wf.output(closure)
    assert output["execution"]["status"] == "executed"
    assert len(output["execution"]["actions"]) == len(top["actions"]) >= len(changed)
    after = _flights(account, [r["flight_id"] for r in changed])
    for r in changed:
        row = after[r["flight_id"]]
        if r["action"] == "cancel":
            assert row["status"] == "CANCELLED", row
        elif r["delay_minutes"]:
            assert row["delay_minutes"] == r["delay_minutes"] and _at(row["estimated_departure"]) == _at(
                r["new_departure"]
            )
        if r["new_registration"] and r["action"] != "cancel":
            assert row["aircraft_registration"] == r["new_registration"]
    # Learn: a history row per flight of the table, naming the event
    history = account.resource().Table(account.naming("DisruptionHistory"))
    for r in rows:
        item = history.get_item(Key={"disruption_id": f"SM-{closure}#{r['flight_id']}"}).get("Item")
        assert item and item["execution_id"] == closure and item["outcome"] == "on_plan", r["flight_id"]
    assert output["outcome"]["status"] == "executed"
    # both rounds: every agent analysed every flight of the window, each binding finding naming its flight
    numbers = {r["flight_number"] for r in rows}
    for key in ("phase1", "phase2"):
        collation = wf.store.resolve(output[key]["collation"])
        assert {a: r["status"] for a, r in collation.items()} == dict.fromkeys(AGENTS, "ok"), key
        assert all("flights at AUH" in r["recommendation"] for r in collation.values()), key
        crew = collation["crew_compliance"]["binding_constraints"]
        assert crew and all(any(f"{n}:" in c or f"{n} (held" in c for n in numbers) for c in crew), crew[:3]
        if key == "phase2":  # the revision read the others' answers and kept every binding constraint of the first
            first = wf.store.resolve(output["phase1"]["collation"])
            for agent, r in collation.items():
                assert r["revision"]["considered"] == sorted(a for a in AGENTS if a != agent)
                assert set(first[agent]["binding_constraints"]) <= set(r["binding_constraints"])
    assert "crew_compliance" in second["justification"] and "guest_experience" in second["reasoning"]
    assert_every_state_fits(wf, closure)  # the largest run: every flight of the window, an exclusion, execution


def test_a_failed_group_rolls_the_whole_network_plan_back(wf, account, monkeypatch):
    from botocore.client import BaseClient
    from botocore.exceptions import ClientError

    name = wf.start(CLOSURE, disruption_id=run_id("auh-rollback"))["execution_name"]
    assert wf.follow(name, timeout_s=600).awaiting_approval
    decision = wf.decision(name)
    top = decision["ranked"][0]["scenario"]
    ids = sorted({a["flight_id"] for a in top["actions"]})
    before = _flights(account, ids)
    real, transactions = BaseClient._make_api_call, []

    def refuse_fifth(self, operation, params):
        tables = {next(iter(i.values()))["TableName"] for i in params.get("TransactItems", [])}
        if operation == "TransactWriteItems" and not any(t.endswith("AuditTrail") for t in tables):
            transactions.append(params)
            if len(transactions) == 5:
                raise ClientError(  # not a row changed under the plan (that is decided again): the run fails
                    {
                        "Error": {"Code": "TransactionCanceledException", "Message": "injected"},
                        "CancellationReasons": [{"Code": "ValidationError"}],
                    },
                    operation,
                )
        return real(self, operation, params)

    monkeypatch.setattr(BaseClient, "_make_api_call", refuse_fifth)
    wf.decide(name, ApprovalDecision(action="approve", decided_by="Dana Duty"))
    final = wf.follow(name, timeout_s=600)
    monkeypatch.setattr(BaseClient, "_make_api_call", real)
    assert final.status == "FAILED" and wf.describe(name)["error"] == "ExecutionRolledBack"
    assert _flights(account, ids) == before
    recorded = wf.audit(name)["execution_events"]
    events = [e["event"] for e in recorded]
    # progress per flight: each event names the flight its group changes
    assert {e["flight_id"] for e in recorded} <= set(ids) and len({e["flight_id"] for e in recorded}) >= 2
    assert events.count("completed") >= 4 and "failed" in events and events.count("compensated") >= 4


def test_a_report_the_planner_refuses_at_arbitrate_is_a_network_decision_without_a_plan(wf, account):
    """Validate refuses such a report before any agent (test_workflow_runs.py); should the data change between
    Validate and Arbitrate, Arbitrate refuses it too: a network decision with no plan and the reason as its final
    decision, which the state machine escalates as NETWORK_DISRUPTION (tests/infra: that branch)."""
    from skymarshal.checkpoint.registry_memory import InMemoryThreadRegistry
    from skymarshal.intake.airport_facts import network_report
    from skymarshal.workflow.models import ValidatedRequest
    from skymarshal.workflow.steps.decision import arbitrate_step

    handle = account.handle()
    report = "Abu Dhabi airport is limited to 60 movements per hour from 14:00 to 17:00 UTC on January 22nd"
    disruption, overlay = network_report(report, handle, None)
    name = run_id("auh-refused")
    request = ValidatedRequest(
        disruption_id=name,
        execution_name=name,
        prompt=report,
        source="cli",
        requested_by=None,
        reported_at=datetime(2027, 1, 22, 12, tzinfo=UTC),
        description=disruption.cause,
        agents=[],
        approval_timeout_seconds=60,
        disruption=disruption,
        overlay=overlay,
    )
    state = {"request": request.model_dump(mode="json"), "phase2": None, "decision": None, "approval": None}
    summary = arbitrate_step(state, handle=handle, store=wf.store, registry=InMemoryThreadRegistry())
    assert summary.scope == "network" and not summary.has_plan and summary.status == "escalated"
    assert "normal" in summary.final_decision, summary.final_decision
    assert summary.escalations == ["INPUT_ERROR"]
