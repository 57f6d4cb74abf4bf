"""`skymarshal replay`: a stream that cannot be replayed is refused on one line naming the line or the event,
with exit 1, before any account is reached or anything decided."""

from __future__ import annotations

import json

import pytest
from test_stream import drawn, text_of

from skymarshal.cli import main


@pytest.fixture
def no_account(monkeypatch):
    from skymarshal.local import control

    def refuse(*args, **kwargs):
        raise AssertionError("a refused stream must not reach an account")

    monkeypatch.setattr(control, "account", refuse)


@pytest.mark.parametrize(
    "corrupt, expected",
    [
        (lambda lines: lines[:1] + ["{oops"] + lines[1:], "line 2: not JSON"),
        (
            lambda lines: lines[:1] + [lines[1].replace('"holds":"', '"holds":"x')] + lines[2:],
            "line 2 (event 'E000'): holds",
        ),
        (lambda lines: lines[1:], "first line must be"),
        (lambda lines: [], "empty"),
    ],
)
def test_a_bad_stream_is_refused_on_one_line(tmp_path, capsys, no_account, corrupt, expected):
    path = tmp_path / "day.jsonl"
    path.write_text("\n".join(corrupt(text_of(drawn(1)).splitlines())) + "\n")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("skymarshal: stream refused:") and expected in err
    assert "\n" not in err and "Traceback" not in err


def test_a_missing_file_is_one_line(tmp_path, capsys, no_account):
    assert main(["replay", str(tmp_path / "nowhere.jsonl")]) == 1
    assert "cannot read it" in capsys.readouterr().err


def test_an_unknown_flight_is_refused_before_the_first_decision(tmp_path, capsys, monkeypatch):
    from contextlib import contextmanager

    from skymarshal.cli import replay_cmds, replay_run

    events = [e for e in drawn(1) if e.flight_id]
    lines = text_of(events).splitlines()
    first = json.loads(lines[1]) | {"flight_id": "EY999-20270120"}
    path = tmp_path / "day.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(first), *lines[2:]]) + "\n")

    class Handle:
        def query(self, *args, **kwargs):
            return []

        def get(self, table, key):
            return None

        def batch_get(self, *args, **kwargs):
            return []

    @contextmanager
    def target(args, echo):
        yield object(), Handle(), None

    monkeypatch.setattr(replay_cmds, "_target", target)
    monkeypatch.setattr(replay_run, "replay", lambda *a, **k: pytest.fail("nothing may be decided"))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert f"event '{events[0].event_id}'" in err and "EY999-20270120 is not in the data" in err
    assert "\n" not in err


def test_a_report_the_bus_refuses_is_one_line_and_waits_for_no_run():
    from skymarshal.cli import CliError
    from skymarshal.cli.replay_run import Bus, send
    from skymarshal.workflow.models import DisruptionRequest

    class Refusing:
        def put_events(self, Entries):
            return {"FailedEntryCount": 1, "Entries": [{"ErrorCode": "AccessDenied", "ErrorMessage": "not allowed"}]}

    class NoRuns:
        def describe(self, name):
            pytest.fail("a refused report starts no run to wait for")

    request = DisruptionRequest(disruption_id="day-x-E000", prompt="EY123 on 20 Jan had a mechanical failure")
    with pytest.raises(CliError, match=r"^the bus refused the report: AccessDenied: not allowed$"):
        send(Bus(Refusing(), "bus"), NoRuns(), request)
