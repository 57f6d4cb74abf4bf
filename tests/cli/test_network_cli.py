"""`skymarshal analyze` on a network decision, without a run: the recommended plan's per-flight table and a totals
line per plan (data printed as written, never as Rich markup), and the duty manager's exclusions — the --exclude
flag, the answer it becomes (flight numbers read as flight ids), the refusal that executes nothing, and the
interactive choice."""

from __future__ import annotations

import json

import pytest
from network_sample import CANCELLED, RETIMED, network_output_dict

from skymarshal.cli import build_parser
from skymarshal.cli.analyze_cmds import _answer
from skymarshal.cli.common import print_json
from skymarshal.cli.render import render_decision


def _args(*flags: str):
    return build_parser().parse_args(["analyze", "AUH closed by fog 14:00-17:00 on 22 January", *flags])


def test_the_recommended_plans_table_and_every_plans_totals(capsys):
    render_decision(network_output_dict(excluded={CANCELLED: "VIP [red]charter"}, exclusion_refused="EY301 [b] left"))
    out = capsys.readouterr().out
    assert "Network: closure at AUH 22 Jan 14:00–17:00Z — 2 flights in the window, 1 inheriting a delay" in out
    assert "EXCLUSION REFUSED: EY301 [b] left" in out and "excluded EY303-20270122: VIP [red]charter" in out
    table = out[out.index("flight by flight") : out.index("Plans:")]
    retimed = next(line for line in table.splitlines() if "EY301" in line)
    for cell in ("AUH→BAH", "retime", "22 Jan 14:00 → 17:15", "CPT C0301 → S01", "in the closure [bold]fog[/bold]"):
        assert cell in retimed, (cell, retimed)
    swapped = next(line for line in table.splitlines() if "EY302" in line)
    assert "A6-EIA → A6-EIB" in swapped and "tail_swap" in swapped
    cancelled = next(line for line in table.splitlines() if "EY303" in line)
    assert "cancelled" in cancelled and "90 / 12" in cancelled and "EXCLUDED (VIP [red]charter)" in cancelled
    assert "* Minimum delay [network:min_delay] (rank 1): 3 flights, 2 operated" in out
    assert "x Fly as scheduled [network:baseline]: REJECTED — EY301-20270122 CLOSED_AIRPORT: departs AUH" in out


def test_json_output_carries_every_plans_table(capsys):
    print_json({"decision": network_output_dict()})
    plans = json.loads(capsys.readouterr().out)["decision"]["network"]["plans"]
    assert [a["flight_number"] for a in plans[0]["plan"]["actions"]] == ["EY301", "EY302", "EY303"]


def test_the_exclude_flag_is_repeatable_and_needs_a_reason(capsys):
    args = _args("--exclude", "EY301=slot already filed", "--exclude", f"{CANCELLED}= VIP charter ")
    assert args.exclude == [("EY301", "slot already filed"), (CANCELLED, "VIP charter")]
    for bad in ("EY301", "EY301=", "=why"):
        with pytest.raises(SystemExit) as exit_:
            _args("--exclude", bad)
        assert exit_.value.code == 2
        assert "use FLIGHT=REASON" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        _args("--exclude", "EY301=x", "--approve")  # one decision at a time


def test_exclude_then_approve_the_new_top_or_reject_when_refused():
    args = _args("--exclude", "EY301=slot already filed", "--as", "Ops")
    first = _answer(args, network_output_dict(), interactive=False)
    assert (first.action, first.excluded_flights, first.decided_by) == (
        "exclude",
        {RETIMED: "slot already filed"},
        "Ops",
    )
    again = _answer(args, {**network_output_dict(), "_exclusion_done": True}, interactive=False)
    assert again.action == "approve"
    refused = network_output_dict(exclusion_refused="EY301 left at 14:00Z departs inside the closure")
    rejected = _answer(args, {**refused, "_exclusion_done": True}, interactive=False)
    assert rejected.action == "reject" and "inside the closure" in (rejected.comment or "")


def test_an_unknown_flight_is_one_line():
    with pytest.raises(SystemExit, match="--exclude: EY999 is in no plan's table"):
        _answer(_args("--exclude", "EY999=x"), network_output_dict(), interactive=False)
    flight = network_output_dict()
    del flight["network"]
    with pytest.raises(SystemExit, match="network decision"):
        _answer(_args("--exclude", "EY301=x"), flight, interactive=False)


def test_the_duty_manager_excludes_flights_at_the_prompt(monkeypatch, capsys):
    replies = iter(["x", "EY999", "ey303", "", "VIP charter", ""])
    monkeypatch.setattr("builtins.input", lambda _question: next(replies))
    answer = _answer(_args(), network_output_dict(), interactive=True)
    assert answer.action == "exclude" and answer.excluded_flights == {CANCELLED: "VIP charter"}
    assert "EY999 is in no plan's table" in capsys.readouterr().out
