"""moto's Step Functions interpreter parses each JSONPath once and copies its JSON state data directly
(local/moto_sfn.py), answering as before."""

from __future__ import annotations

import copy
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


@given(JSON)
def test_the_state_copy_equals_deepcopy_and_shares_nothing_mutable(value):
    copied = moto_sfn.json_copy(value)
    assert copied == copy.deepcopy(value) and type(copied) is type(value)
    stack = [(value, copied)]
    while stack:  # no dict or list of the copy is one of the original's
        original, duplicate = stack.pop()
        if isinstance(original, dict | list):
            assert original is not duplicate
            pairs = (
                zip(original.values(), duplicate.values()) if isinstance(original, dict) else zip(original, duplicate)
            )
            stack.extend(pairs)


def test_a_value_json_does_not_know_is_deep_copied():
    moment = {"at": datetime(2027, 1, 20, tzinfo=UTC), "pair": (1, [2])}
    copied = moto_sfn.json_copy(moment)
    assert copied == moment and copied["pair"][1] is not moment["pair"][1]


def test_the_interpreter_copies_its_state_data_with_it():
    from moto.stepfunctions.parser.asl.eval import states

    moto_sfn.install()
    assert states.copy.deepcopy is moto_sfn.json_copy


def test_a_finished_interpreter_thread_is_forgotten_and_a_running_one_kept():
    import threading

    from moto.stepfunctions.parser.utils import TMP_THREADS

    from skymarshal.local.moto_sfn import forget_finished_threads

    release = threading.Event()
    finished, running = threading.Thread(target=lambda: None), threading.Thread(target=release.wait, daemon=True)
    finished.start()
    finished.join()
    running.start()
    TMP_THREADS.extend([finished, running])
    try:
        assert forget_finished_threads() >= 1
        assert finished not in TMP_THREADS and running in TMP_THREADS
    finally:
        release.set()
        running.join()
        forget_finished_threads()


def test_a_stopped_program_stays_stopped_when_its_running_state_then_fails():
    """StopExecution is final (ABORTED), as in AWS: the error of the state that was running does not replace it;
    a program that was not stopped still fails."""
    from moto.stepfunctions.parser.asl.eval.environment import Environment
    from moto.stepfunctions.parser.asl.eval.program_state import ProgramError, ProgramStopped

    moto_sfn.install()
    stopped = SimpleEnvironment(ProgramStopped(stop_date=datetime.now(UTC), error=None, cause=None))
    Environment.set_error(stopped, {"error": "States.Runtime", "cause": "next state not set"})
    assert isinstance(stopped._program_state, ProgramStopped)
    running = SimpleEnvironment(None)
    Environment.set_error(running, {"error": "States.Runtime", "cause": "boom"})
    assert isinstance(running._program_state, ProgramError)


class SimpleEnvironment:
    """The parts of moto's Environment that set_error reads and writes."""

    def __init__(self, state) -> None:
        import threading

        self._program_state = state
        self._state_mutex = threading.RLock()
        self._frames: list = []
        self.program_state_event = threading.Event()


DEFINITION = """{"StartAt": "Each", "States": {
  "Each": {"Type": "Map", "ItemsPath": "$.items", "ItemProcessor": {"StartAt": "Echo",
    "States": {"Echo": {"Type": "Pass", "Parameters": {"v.$": "$"}, "End": true}}}, "Next": "Done"},
  "Done": {"Type": "Succeed"}}}"""


def test_a_definition_is_parsed_once_and_each_execution_gets_its_own_components():
    from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser, ASLParserException

    moto_sfn.install()
    first, tree = AmazonStateLanguageParser.parse(DEFINITION)
    second, again = AmazonStateLanguageParser.parse(DEFINITION)
    assert again is tree and second is not first  # the tree shared, the evaluation components fresh
    stock, _ = moto_sfn._original["asl_parse"](DEFINITION)
    assert type(first) is type(stock) and list(first.states.states) == list(stock.states.states) == ["Each", "Done"]
    for _ in range(2):  # a syntax error is raised every time, never remembered as a tree
        with pytest.raises(ASLParserException):
            AmazonStateLanguageParser.parse('{"StartAt": ')
