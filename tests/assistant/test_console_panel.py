"""The console's assistant panel (assistant.js) rendering a real streamed answer, under Node with a DOM stand-in."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from skymarshal.assistant.config import AssistantSettings
from skymarshal.assistant.http import create_app

HERE = Path(__file__).parent
PANEL = HERE.parents[1] / "layers/skymarshal/python/skymarshal/console/static/assistant.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _panel(tmp_path: Path, question: str) -> dict:
    with (
        TestClient(create_app(settings=AssistantSettings(checkpointer="memory"))) as client,
        client.stream("POST", "/assistant/chat/stream", json={"message": question}) as response,
    ):
        recorded = response.read()
    sse = tmp_path / "stream.sse"
    sse.write_bytes(recorded)
    run = subprocess.run(
        [NODE, str(HERE / "console_harness.mjs"), str(PANEL), str(sse), question],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_panel_shows_the_route_alternates_as_a_table_and_a_plot(tmp_path):
    shown = _panel(tmp_path, "airports near the route from AUH to LHR with a runway long enough for a 787")
    assert shown["request"]["url"] == "/api/assistant/chat/stream"
    assert shown["request"]["headers"]["Authorization"] == "Bearer test"
    assert shown["request"]["body"] == {
        "message": "airports near the route from AUH to LHR with a runway long enough for a 787",
        "thread_id": None,
    }
    assert shown["panelHeading"] == "Alternates AUH–LHR (60)"
    codes = [row[0] for row in shown["tableRows"]]
    assert len(codes) == 60 and {"KWI", "BGW", "MUC"} <= set(codes)
    assert shown["plotMarkers"] == 62  # 60 alternates and the two route ends
    assert "<table>" in shown["answerHtml"] and "<strong>72 airports" in shown["answerHtml"]
    assert shown["status"] == "Done · offline" and "find_airports_near_route" in shown["thinking"]
    assert len(shown["suggestions"]) == 3


def test_panel_shows_a_rules_comparison(tmp_path):
    shown = _panel(tmp_path, "compare passenger compensation rules between the UK and France")
    assert shown["panelHeading"] == "compensation — differs"
    assert shown["tableRows"] == [] and "GBP 520" in shown["answerHtml"]


def test_model_text_cannot_inject_markup():
    text = "**Bold** <script>alert(1)</script>\n| A | B |\n|---|---|\n| <img src=x> | 2 |\n- item _note_"
    run = subprocess.run(
        [NODE, str(HERE / "console_harness.mjs"), str(PANEL), "--markdown", text],
        capture_output=True,
        text=True,
        timeout=60,
    )
    html = json.loads(run.stdout)["html"]
    assert "<script>" not in html and "<img" not in html and "&lt;script&gt;" in html
    assert "<strong>Bold</strong>" in html and "<th>A</th>" in html and "<td>&lt;img src=x&gt;</td>" in html
    assert "<li>item <em>note</em></li>" in html


def test_panel_shows_an_airport_card_with_its_curfew_status(tmp_path):
    shown = _panel(tmp_path, "Can we land at Frankfurt at 23:30?")
    assert shown["panelHeading"] == "FRA / EDDF — Frankfurt am Main International Airport"
    assert "inside the 23:00-05:00 local curfew at FRA" in shown["panelText"]
    assert "13,123 ft" in shown["panelText"]
