"""A Step Functions answer is the same, byte for byte, whether its structures are looked up member by member
(local/moto_structures.py) or by moto's alias search: on a history moto's own interpreter wrote, and on events
generated from the output shape (every member type, absent and null members, keys outside the shape)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID as ACCOUNT_ID
from moto.core.serialize import JSONSerializer, XFormedAttributePicker
from moto.core.utils import get_service_model
from moto.stepfunctions.parser.models import stepfunctions_parser_backends

from skymarshal.local import moto_structures

pytestmark = pytest.mark.unit
STATES = get_service_model("stepfunctions")
HISTORY = STATES.operation_model("GetExecutionHistory")


def _body(result, operation=HISTORY, *, fast: bool) -> str | bytes:
    """The response body moto writes for `result`, with the member-by-member path or without it."""
    from moto.core.serialize import BaseJSONSerializer

    moto_structures.install()
    hooked = BaseJSONSerializer._serialize_type_structure
    if not fast:
        BaseJSONSerializer._serialize_type_structure = moto_structures._original["structure"]  # type: ignore[method-assign]
    try:
        serializer = JSONSerializer(operation_model=operation, value_picker=XFormedAttributePicker())
        return serializer.serialize(result)["body"]
    finally:
        BaseJSONSerializer._serialize_type_structure = hooked  # type: ignore[method-assign]


def _ran_history() -> Any:
    """A history moto's interpreter writes: Pass, Choice, Map over three items, Succeed."""
    definition = {
        "StartAt": "Pick",
        "States": {
            "Pick": {"Type": "Pass", "Result": {"items": [1, 2, 3], "go": True}, "Next": "Which"},
            "Which": {"Type": "Choice", "Choices": [{"Variable": "$.go", "BooleanEquals": True, "Next": "Each"}]},
            "Each": {
                "Type": "Map",
                "ItemsPath": "$.items",
                "Iterator": {"StartAt": "One", "States": {"One": {"Type": "Pass", "End": True}}},
                "Next": "Done",
            },
            "Done": {"Type": "Succeed"},
        },
    }
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}):
        sfn = boto3.client("stepfunctions", region_name="eu-west-1")
        iam = boto3.client("iam", region_name="eu-west-1")
        role = iam.create_role(RoleName="r", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
        arn = sfn.create_state_machine(name="m", definition=json.dumps(definition), roleArn=role)["stateMachineArn"]
        run = sfn.start_execution(stateMachineArn=arn, input='{"x": "é"}')["executionArn"]
        for _ in range(200):
            if sfn.describe_execution(executionArn=run)["status"] != "RUNNING":
                break
            time.sleep(0.02)
        return stepfunctions_parser_backends[ACCOUNT_ID]["eu-west-1"].get_execution_history(run)


def test_a_history_the_interpreter_wrote_is_written_the_same():
    history = _ran_history()
    assert len(history["events"]) >= 8
    fast, stock = _body(history, fast=True), _body(history, fast=False)
    assert fast == stock
    assert '"stateEnteredEventDetails"' in fast  # a real history, not an empty answer


# --- events generated from the output shape ------------------------------------------------------------------------
_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8)
_WHEN = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
) | st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1))


def _value(shape, depth: int) -> st.SearchStrategy:
    kind = shape.type_name
    if kind == "structure":
        return _structure(shape, depth + 1) if depth < 3 else st.just({})
    if kind == "list":
        return st.lists(_value(shape.member, depth + 1), max_size=2)
    if kind == "map":
        return st.dictionaries(_TEXT, _value(shape.value, depth + 1) | st.none(), max_size=2)
    if kind in ("integer", "long"):
        return st.integers(-(2**40), 2**40)
    if kind in ("float", "double"):
        return st.floats(allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "timestamp":
        return _WHEN
    if kind == "blob":
        return st.binary(max_size=8)
    return _TEXT  # string and its enums


def _structure(shape, depth: int = 0) -> st.SearchStrategy:
    names = sorted(shape.members)
    return st.lists(st.sampled_from(names), max_size=6, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries(
            {name: _value(shape.members[name], depth) | st.none() for name in chosen},
            optional={"not_a_member": _TEXT},  # outside the shape: moto's own path, the same answer
        )
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=st.lists(_structure(HISTORY.output_shape.members["events"].member), max_size=4), token=_TEXT | st.none())
def test_generated_histories_are_written_the_same(events, token):
    result = {"events": events, "nextToken": token}
    assert _body(result, fast=True) == _body(result, fast=False)


@settings(max_examples=40, deadline=None)
@given(
    execution=_structure(STATES.operation_model("DescribeExecution").output_shape),
)
def test_a_generated_execution_description_is_written_the_same(execution):
    operation = STATES.operation_model("DescribeExecution")
    assert _body(execution, operation, fast=True) == _body(execution, operation, fast=False)


@pytest.mark.parametrize(
    "members",
    [
        {"Inner": "Inner", "inner": "Str"},  # a key's snake_case form is another member
        {"Details": "Inner", "Inner": "Str"},  # a structure member's shape name is another member
        {"OuterName": "Str", "Name": "Str"},  # the parent-prefix cut of a key is another member
        {"dictKey": "Str", "Key": "Str"},  # the `dict` class-name cut of a key is another member
        {"Renamed": "Named"},  # a member carries a serialisation name of its own
    ],
)
def test_a_shape_where_an_alias_could_land_elsewhere_takes_motos_path(members):
    """`plain_members` refuses a shape where one of moto's aliases for a member could be another member (or a name
    on the wire of its own): such a shape's dicts take moto's search. Made-up shapes, one alias each; no Step
    Functions shape is refused (the real histories above take the short path)."""
    from botocore.model import ShapeResolver

    shapes: dict[str, Any] = {
        "Outer": {"type": "structure", "members": {name: {"shape": shape} for name, shape in members.items()}},
        "Inner": {"type": "structure", "members": {}},
        "Str": {"type": "string"},
    }
    if "Renamed" in members:
        shapes["Outer"]["members"]["Renamed"]["locationName"] = "renamed_on_the_wire"
        shapes["Named"] = {"type": "string"}
    assert moto_structures.plain_members(ShapeResolver(shapes).get_shape_by_name("Outer")) is None
    assert moto_structures.plain_members(HISTORY.output_shape) == frozenset({"events", "nextToken"})
    assert all(
        moto_structures.plain_members(STATES.operation_model(op).output_shape) is not None
        for op in STATES.operation_names
        if STATES.operation_model(op).output_shape is not None
    )
