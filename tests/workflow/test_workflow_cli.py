"""The workflow commands on local AWS: analyze (non-interactive), status, history, audit, event put."""

from __future__ import annotations

import json
import uuid

from workflow_helpers import DEMO

from skymarshal.cli import main


def test_analyze_approves_executes_and_writes_the_audit(capsys, wf, local, account, restore, tmp_path, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    run_id = f"cli-{uuid.uuid4().hex[:6]}"
    code = main(
        ["analyze", DEMO, "--approve", "--as", "Demo Duty Manager", "--comment", "ok", "--id", run_id, "--json"]
    )
    restore.append(run_id)
    result = json.loads(capsys.readouterr().out)
    assert code == 0 and result["status"] == "executed"
    assert result["decision"]["ranked"][0]["scenario"]["scenario_id"] == result["approval"]["scenario_id"]
    assert result["actions"] and result["approval"]["decided_by"] == "Demo Duty Manager"
    audit = json.loads((tmp_path / "audit" / f"{run_id}.json").read_text())
    assert audit["prompt"] == DEMO and audit["approvals"][0]["answer"]["comment"] == "ok"

    assert main(["status", run_id]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["status"] == "SUCCEEDED" and status["outcome"]["status"] == "executed"
    assert status["agents"]["initial/crew_compliance"]["status"] == "ok"
    assert main(["history", "--json"]) == 0
    assert run_id in [r["id"] for r in json.loads(capsys.readouterr().out)]
    assert main(["audit", run_id]) == 0
    assert json.loads(capsys.readouterr().out)["disruption_id"] == run_id
    assert main(["audit", "verify", run_id]) == 0
    assert "verified: 9 records" in capsys.readouterr().out
    # Editing any stored record (here the duty manager's comment) makes verification fail, naming the record.
    table = account.resource().Table(account.naming("AuditTrail"))
    item = table.get_item(Key={"PK": f"AUDIT#{run_id}", "SK": "SEQ#000006"})["Item"]
    table.put_item(Item={**item, "body": item["body"].replace('"ok"', '"fine"')})
    assert main(["audit", "verify", run_id]) == 1
    assert "HASH_MISMATCH: record 6" in capsys.readouterr().out


def test_analyze_an_unknown_flight_exits_1_with_the_message(capsys, wf, local, tmp_path, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    code = main(["analyze", "EY999 on 20 January 2027 had a bird strike", "--reject", "--reason", "test", "--json"])
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert code == 1 and result["status"] == "input_error" and "EY999" in result["message"]
    assert "Traceback" not in captured.out + captured.err


def test_an_unknown_run_id_is_one_line_not_a_traceback(capsys, wf, local):
    assert main(["status", "no-such-run"]) == 1
    assert "no run 'no-such-run'" in capsys.readouterr().err


def test_event_put_checks_the_pattern_and_starts_one_execution(capsys, wf, local, tmp_path):
    event = {
        "Source": "skymarshal.disruptions",
        "DetailType": "Flight Disruption Reported",
        "Id": str(uuid.uuid4()),
        "Detail": json.dumps({"flight_number": "EY999", "date": "2027-01-20", "description": "bird strike"}),
    }
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event))
    assert main(["event", "put", str(path)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["started"] and first["execution_name"].startswith("evt-")
    assert main(["event", "put", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["started"] is False
    path.write_text(json.dumps({**event, "Source": "someone.else"}))
    assert main(["event", "put", str(path)]) == 1
    assert "does not match" in capsys.readouterr().err
