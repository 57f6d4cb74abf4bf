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


def test_one_client_per_region_and_service():
    from moto.stepfunctions.parser.asl.component.state.exec.state_task import lambda_eval_utils

    moto_sfn.install()
    first = lambda_eval_utils.boto_client_for("us-east-1", "lambda")
    assert lambda_eval_utils.boto_client_for("us-east-1", "lambda", {"any": "credentials"}) is first
    assert lambda_eval_utils.boto_client_for("eu-west-1", "lambda") is not first
    assert first.meta.region_name == "us-east-1" and first.meta.service_model.service_name == "lambda"
