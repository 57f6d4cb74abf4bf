"""moto's Step Functions interpreter parses each JSONPath once (local/moto_sfn.py), answering as before."""

from __future__ import annotations

import pytest

from skymarshal.local import moto_sfn

DATA = {"state": {"phase1": {"collation": {"key": "runs/x"}}, "agents": [{"n": 1}, {"n": 2}]}, "e": []}
PATHS = ["$", "$.state.phase1.collation", "$.state.agents[*].n", "$.state.agents[0]", "$.state.agents[1].n", "$.e[*]"]


def _answers():
    from moto.stepfunctions.parser.asl.utils.json_path import NoSuchJsonPathError, extract_json

    out = [extract_json(path, DATA) for path in PATHS]
    with pytest.raises(NoSuchJsonPathError):
        extract_json("$.missing", DATA)
    return out


def test_a_path_is_parsed_once_and_answers_the_same():
    from moto.stepfunctions.parser.asl.utils import json_path

    moto_sfn.install()
    cached = _answers()
    patched, json_path.parse = json_path.parse, moto_sfn._original["parse"]
    try:
        stock = _answers()
    finally:
        json_path.parse = patched
    assert cached == stock
    assert json_path.parse("$.state.agents[*].n") is json_path.parse("$.state.agents[*].n")
