"""The console's Day replay panel (replay.js), under Node with a DOM stand-in: the scorecard one column per policy
(SkyMarshal first), a line per policy through the day on both charts, and the API's line when nothing was replayed."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from skymarshal.day.published import ReplayedDay
from skymarshal.day.scorecard import Scorecard

HERE = Path(__file__).parent
MODULE = HERE.parents[1] / "layers/skymarshal/python/skymarshal/console/static/replay.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def _card(policy: str, d15: float, delay: int) -> Scorecard:
    return Scorecard(
        policy=policy,
        flights=170,
        d15=d15,
        a15=d15,
        cancellations=2,
        diversions=0,
        passengers=10549,
        passengers_disrupted=361,
        passenger_delay_minutes=delay,
        misconnections=72,
        stranded_overnight=68,
        compensation_usd=19114.0,
        care_usd=2430.0,
        operating_cost_usd=60479.0,
        crew_violations=22,
        crew_violations_decided=0,
        rotation_breaks=0,
        decisions=5,
        escalated=1,
        seconds_per_decision=1.5,
        otp_by_hour=((0.0, 1.0), (12.0, d15), (24.0, d15)),
        pax_delay_by_hour=((0.0, 0), (12.0, delay // 2), (24.0, delay)),
    )


def _render(tmp_path: Path, reply: ReplayedDay | None) -> dict:
    data = "404"
    if reply is not None:
        (tmp_path / "reply.json").write_text(reply.model_dump_json())
        data = str(tmp_path / "reply.json")
    run = subprocess.run(
        [NODE, str(HERE / "replay_harness.mjs"), str(MODULE), data], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_the_latest_replay_shows_every_policy_beside_skymarshal(tmp_path):
    day = ReplayedDay(
        stream_id="ordinary-2027-01-20-s1",
        intensity="ordinary",
        days=[date(2027, 1, 20)],
        disruptions=5,
        replayed_at=datetime(2027, 1, 21, tzinfo=UTC),
        title="ordinary day 2027-01-20 (5 disruptions)",
        cards=[_card("skymarshal-rank1", 0.994, 706130), _card("delay", 0.971, 116240)],
    )
    shown = _render(tmp_path, day)
    assert shown["calls"] == ["GET /replays/latest"]
    assert shown["rows"][0] == ["KPI", "skymarshal-rank1", "delay"]
    rows = {r[0]: r[1:] for r in shown["rows"][1:]}
    assert rows["D15 on-time departures"] == ["99.4 %", "97.1 %"]
    assert rows["passenger delay at final destination (min)"] == ["706,130", "116,240"]
    assert rows["crew violations: day / in the plans executed"] == ["22 / 0", "22 / 0"]
    assert [line["policy"] for line in shown["lines"]] == ["skymarshal-rank1", "delay"] * 2
    assert all(len(line["points"].split()) == 3 for line in shown["lines"])
    assert "ordinary day 2027-01-20 (5 disruptions)" in shown["text"]


def test_no_replay_yet_says_how_to_make_one(tmp_path):
    shown = _render(tmp_path, None)
    assert shown["rows"] == [] and "skymarshal replay" in shown["text"]
