"""`skymarshal analyze "PROMPT"`: the top three with explanations and citations; bad input exits 1, no traceback."""

from __future__ import annotations

import json


from skymarshal.cli import main
from skymarshal.workflow import rounds


def test_analyze_prints_the_top_three_with_explanations_and_sources(capsys, local, demo_collations, monkeypatch):
    prompt, revised = demo_collations["mechanical"]
    monkeypatch.setattr(rounds, "run_rounds", lambda *a, **k: ({}, revised))  # the session already ran both rounds
    code = main(["analyze", prompt])
    out = capsys.readouterr().out
    assert code == 0
    assert "#1 Swap to A6-BLT" in out and "#2 " in out and "#3 " in out
    assert "[legal] tail swap eligibility" in out and "precedent:" in out and "sensitivity:" in out
    assert "AIRCRAFT_NOT_AIRWORTHY" in out and "Sources (local):" in out and "§" in out


def test_analyze_json_is_one_object_with_the_decision(capsys, local, demo_collations, monkeypatch):
    prompt, revised = demo_collations["crew_timeout"]
    monkeypatch.setattr(rounds, "run_rounds", lambda *a, **k: ({}, revised))
    assert main(["analyze", prompt, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "decided" and result["decision"]["ranked"][0]["scenario"]["kind"] == "crew_swap"


def test_analyze_an_unknown_flight_exits_1_with_the_message(capsys, local):
    code = main(["analyze", "EY999 on 20 January 2027 had a bird strike"])
    captured = capsys.readouterr()
    assert code == 1 and "EY999" in captured.out and "Traceback" not in captured.out + captured.err
