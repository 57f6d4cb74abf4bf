"""`skymarshal agent NAME "PROMPT" --json`: a valid AgentResponse offline; bad input exits 1 with a message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date

import pytest

from skymarshal.cli import main
from skymarshal.cli.agent_cmds import passenger_slice
from skymarshal.models.agent_response import AgentResponse


def test_the_issue_command_prints_a_valid_agent_response(capsys, local):
    code = main(["agent", "crew_compliance", "Flight EY123 on January 20th had a mechanical failure", "--json"])
    response = AgentResponse.model_validate(json.loads(capsys.readouterr().out))
    assert code == 0 and response.status == "ok" and response.extracted_flight_info["flight_number"] == "EY123"


def test_an_unknown_flight_exits_1_with_the_message(capsys, local):
    code = main(["agent", "maintenance", "EY999 on 20 Jan had a bird strike"])
    out = capsys.readouterr().out
    assert code == 1 and "EY999" in out and "Traceback" not in out


def test_an_unknown_agent_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["agent", "pilot", "EY123 on 20 Jan"])
    assert exit_.value.code == 2 and "invalid choice: 'pilot'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("prompt", "days"),
    [
        ("Flight EY123 on January 20th had a mechanical failure", (date(2027, 1, 19), date(2027, 1, 21))),
        ("EY45 20/01/2027 ATC slot, and EY46 on 22 Jan", (date(2027, 1, 19), date(2027, 1, 23))),
        ("EY123 on 20 January 2031: bird strike", None),  # not a day of the generated window
        ("EY123 today had a bird strike", None),  # relative: resolved against the clock, so every day
        ("EY123 had a bird strike", None),
    ],
)
def test_a_temporary_airline_draws_passengers_for_the_named_days_and_the_day_either_side(prompt, days):
    assert passenger_slice(prompt) == days


@pytest.mark.integration  # a process of its own generating the airline's slice: about 10 s
def test_without_local_aws_the_agent_runs_on_a_slice_of_the_airline(tmp_path):
    command = [
        sys.executable,
        "-m",
        "skymarshal.cli",
        "agent",
        "crew_compliance",
        "EY123 on January 20th: AOG",
        "--json",
    ]
    env = {**os.environ, "SKYMARSHAL_HOME": str(tmp_path), "SKYMARSHAL_LLM_PROVIDER": "offline"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    response = AgentResponse.model_validate(json.loads(done.stdout))
    assert (
        done.returncode == 0 and response.status == "ok" and response.extracted_flight_info["flight_number"] == "EY123"
    )
    assert "using a temporary one for this command, passengers of 2027-01-19 to 2027-01-21 only" in done.stderr
