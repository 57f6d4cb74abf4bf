"""`skymarshal agent NAME "PROMPT" --json`: a valid AgentResponse offline; bad input exits 1 with a message."""

from __future__ import annotations

import json

import pytest

from skymarshal.cli import main
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
