"""The console's network panel (network.js) under Node with a DOM stand-in: the recommended plan's per-flight
table, each plan's standing, the refused exclusion, and the exclusion a duty manager ticks and submits (the body
POST .../override gets); an observer sees the tables without the controls."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from network_sample import CANCELLED, RETIMED, network_output_dict

from skymarshal.api.views import decision_view

HERE = Path(__file__).parent
MODULE = HERE.parents[1] / "layers/skymarshal/python/skymarshal/console/static/network.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _panel(tmp_path: Path, steps: str, **changes) -> dict:
    view = decision_view("net-1", network_output_dict(**changes), awaiting_approval=True, attempt=1)
    data = tmp_path / "network.json"
    assert view.network is not None
    data.write_text(view.network.model_dump_json())
    run = subprocess.run(
        [NODE, str(HERE / "network_harness.mjs"), str(MODULE), str(data), steps],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_duty_manager_ticks_flights_and_submits_an_exclusion(tmp_path):
    panel = _panel(tmp_path, "tick")
    shown = panel["shown"]
    assert shown["summary"] == "closure at AUH 22 Jan 14:00–17:00Z — 2 flights in the window, 1 inheriting a delay"
    assert shown["caption"] == "Minimum delay [network:min_delay]: rank 1, flight by flight"
    retimed = shown["rows"][0]["cells"]
    for cell in (
        "EY301",
        "AUH→BAH",
        "retime",
        "22 Jan 14:00 → 17:15",
        "CPT C0301 → S01",
        "in the closure [bold]fog[/bold]",
    ):
        assert cell in retimed, (cell, retimed)
    cancelled = shown["rows"][2]
    assert cancelled["className"] == "cancel" and "22 Jan 15:00 → cancelled" in cancelled["cells"]
    assert "90 / 12" in cancelled["cells"] and "A6-EIA → —" in cancelled["cells"]
    assert panel["other"]["caption"].startswith("Fly as scheduled [network:baseline]: rejected: EY301-20270122")
    assert shown["nothing"] == "tick the flights to leave as scheduled" and shown["error"] == ""
    [sent] = panel["submitted"]
    assert sent["body"] == {
        "action": "exclude",
        "excluded_flights": {RETIMED: "slot already filed", "EY302-20270122": "VIP charter"},
    }
    assert sent["flights"] == ["EY301", "EY302"]


def test_a_ticked_flight_without_a_reason_is_not_sent(tmp_path):
    panel = _panel(tmp_path, "blank")
    assert panel["shown"]["error"] == "say why for EY301" and panel["submitted"] == []


def test_an_observer_sees_the_tables_the_refusal_and_the_exclusions_but_no_controls(tmp_path):
    panel = _panel(tmp_path, "none", excluded={CANCELLED: "VIP charter"}, exclusion_refused="EY301 breaks the closure")
    assert panel["shown"]["refused"] == "Exclusion refused: EY301 breaks the closure" and not panel["hasForm"]
    cancelled = panel["shown"]["rows"][2]
    assert cancelled["className"] == "cancel excluded" and "excluded: VIP charter" in cancelled["cells"]
    assert len(cancelled["cells"]) == 9  # no tick box, no reason field
