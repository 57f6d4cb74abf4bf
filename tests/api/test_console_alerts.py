"""The console's alerts list and retry call (alerts.js), under Node with a DOM stand-in: each alert links to its
run in the console and says whether it reached the duty managers."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
MODULE = HERE.parents[1] / "layers/skymarshal/python/skymarshal/console/static/alerts.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _render(tmp_path: Path, alerts: list[dict]) -> dict:
    data = tmp_path / "alerts.json"
    data.write_text(json.dumps(alerts))
    run = subprocess.run(
        [NODE, str(HERE / "alerts_harness.mjs"), str(MODULE), str(data)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_each_alert_links_to_its_run_and_says_if_it_was_delivered(tmp_path):
    alerts = [
        {
            "disruption_id": "dis-1",
            "execution_name": "dis-1",
            "reason": "SAFETY_AGENT_FAILED",
            "message": "a safety agent did not complete",
            "flight": "EY123 2027-01-20",
            "raised_at": "2027-01-20T06:10:00Z",
            "console_link": "http://127.0.0.1:8000/#dis-1",
            "delivery": "failed",
            "delivery_error": "AuthorizationError",
        }
    ]
    shown = _render(tmp_path, alerts)
    [item] = shown["items"]
    assert item["links"] == ["#dis-1"] and item["className"] == "alert failed"
    assert "SAFETY_AGENT_FAILED" in item["text"] and "EY123 2027-01-20" in item["text"]
    assert "NOT delivered (AuthorizationError)" in item["text"]
    assert shown["calls"] == ["GET /alerts?limit=20", "POST /disruptions/dis%201/retry"]
    assert shown["retried"] == "dis-1--retry-1"


def test_no_alerts_says_so(tmp_path):
    assert [i["text"] for i in _render(tmp_path, [])["items"]] == ["no alerts"]
