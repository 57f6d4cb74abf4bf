"""The User-Agent botocore sends is the same with the local emulator's cache as without it: per client, and with
the features a request adds (a paginator) — and a new request's features are not answered from another's. A
DynamoDB answer parses to the same thing with the emulator's parser short-cut as by botocore alone."""

from __future__ import annotations

import base64
import json

import boto3
import botocore.parsers
import botocore.session
import pytest
from botocore.context import start_as_current_context
from botocore.useragent import register_feature_id
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.local import client_speedups


def _parts(header: str) -> tuple[list[str], set[str]]:
    """The header's components in order, the feature list ("m/...") as a set: botocore joins a set."""
    words = header.split(" ")
    features = {f for w in words if w.startswith("m/") for f in w[2:].split(",")}
    return [w for w in words if not w.startswith("m/")], features


def _header(client) -> str:
    return client._user_agent_creator.to_string()


@pytest.fixture
def clients():
    session = boto3.Session(aws_access_key_id="x", aws_secret_access_key="y", region_name="eu-west-1")
    return [session.client("dynamodb"), session.client("s3"), session.client("stepfunctions")]


def test_the_header_is_botocores_own_per_client_and_request_features(clients):
    installed = client_speedups.installed()  # by the session's emulated account, on this worker
    client_speedups.uninstall()
    plain = [_parts(_header(c)) for c in clients]
    with start_as_current_context():
        register_feature_id("PAGINATOR")
        paged_plain = _parts(_header(clients[0]))
    client_speedups.install()
    try:
        for _ in range(2):  # built, then remembered
            assert [_parts(_header(c)) for c in clients] == plain
            with start_as_current_context():
                register_feature_id("PAGINATOR")
                assert _parts(_header(clients[0])) == paged_plain
        assert paged_plain != plain[0]  # the feature is in the header: a remembered plain one would fail above
    finally:
        if not installed:
            client_speedups.uninstall()


# --- the DynamoDB answer kept as parsed -------------------------------------------------------------------------

_SERVICE = botocore.session.get_session().get_service_model("dynamodb")
_TEXT = st.text(max_size=8)
_NUMBER = st.integers(-(10**12), 10**12).map(str) | st.decimals(allow_nan=False, allow_infinity=False, places=3).map(
    str
)
_BINARY = st.binary(max_size=6).map(lambda b: base64.b64encode(b).decode())


def _attribute_values(binary: bool) -> st.SearchStrategy:
    """DynamoDB-JSON attribute values as the wire carries them (binary ones as base64 text)."""
    scalars = st.one_of(
        st.builds(lambda v: {"S": v}, _TEXT),
        st.builds(lambda v: {"N": v}, _NUMBER),
        st.builds(lambda v: {"BOOL": v}, st.booleans()),
        st.builds(lambda v: {"NULL": v}, st.booleans()),
        st.builds(lambda v: {"SS": v}, st.lists(_TEXT, min_size=1, max_size=3, unique=True)),
        st.builds(lambda v: {"NS": v}, st.lists(_NUMBER, min_size=1, max_size=3, unique=True)),
        *(
            [st.builds(lambda v: {"B": v}, _BINARY), st.builds(lambda v: {"BS": v}, st.lists(_BINARY, min_size=1))]
            if binary
            else []
        ),
    )
    return st.recursive(
        scalars,
        lambda inner: (
            st.builds(lambda v: {"L": v}, st.lists(inner, max_size=3))
            | st.builds(lambda v: {"M": v}, st.dictionaries(_TEXT, inner, max_size=3))
        ),
        max_leaves=8,
    )


def _items(binary: bool) -> st.SearchStrategy:
    return st.lists(st.dictionaries(_TEXT, _attribute_values(binary), max_size=4), max_size=4)


def _parsed(operation: str, body: dict) -> dict:
    response = {"body": json.dumps(body).encode(), "headers": {}, "status_code": 200}
    parsed = botocore.parsers.create_parser("json").parse(response, _SERVICE.operation_model(operation).output_shape)
    parsed.pop("ResponseMetadata", None)
    return parsed


def _both_ways(operation: str, body: dict) -> tuple[dict, dict]:
    """The answer parsed by botocore alone, then with the emulator's speed-ups installed."""
    installed = client_speedups.installed()
    client_speedups.uninstall()
    try:
        plain = _parsed(operation, body)
        client_speedups.install()
        return plain, _parsed(operation, body)
    finally:
        if not installed:
            client_speedups.uninstall()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=_items(binary=True), key=st.dictionaries(_TEXT, _attribute_values(binary=False), max_size=2))
def test_a_query_answer_parses_as_botocore_parses_it(items: list, key: dict) -> None:
    body: dict = {"Items": items, "Count": len(items), "ScannedCount": len(items)}
    if key:
        body["LastEvaluatedKey"] = key
    plain, fast = _both_ways("Query", body)
    assert fast == plain


@settings(max_examples=50, deadline=None)
@given(items=_items(binary=True))
def test_a_batch_and_a_single_item_parse_as_botocore_parses_them(items: list) -> None:
    plain, fast = _both_ways("BatchGetItem", {"Responses": {"flights": items}, "UnprocessedKeys": {}})
    assert fast == plain
    for item in items:
        plain, fast = _both_ways("GetItem", {"Item": item})
        assert fast == plain


def test_binary_takes_botocores_path_and_comes_back_as_bytes() -> None:
    encoded = base64.b64encode(b"\x00\x01").decode()
    plain, fast = _both_ways("GetItem", {"Item": {"k": {"S": "a"}, "blob": {"B": encoded}}})
    assert fast == plain
    assert fast["Item"]["blob"]["B"] == b"\x00\x01"  # decoded: kept as parsed, it would still be text


def test_the_fast_path_is_taken_for_plain_items() -> None:
    installed = client_speedups.installed()
    client_speedups.install()
    try:
        body = {"Items": [{"k": {"S": "a"}, "n": {"N": "1"}}], "Count": 1, "ScannedCount": 1}
        calls: list[str] = []
        original = client_speedups._original_map[0]

        def counted(self, shape, value):
            calls.append(shape.name)
            return original(self, shape, value)

        client_speedups._original_map[0] = counted
        try:
            assert _parsed("Query", body)["Items"] == body["Items"]
        finally:
            client_speedups._original_map[0] = original
        assert calls == []  # botocore's map walk never ran for an item of plain values
    finally:
        if not installed:
            client_speedups.uninstall()


# --- one botocore Loader per data path ---------------------------------------------------------------------------


def test_sessions_share_one_loader_per_data_path_and_build_the_same_clients(tmp_path) -> None:
    installed = client_speedups.installed()
    client_speedups.uninstall()
    try:
        plain = [botocore.session.Session() for _ in range(2)]
        assert plain[0].get_component("data_loader") is not plain[1].get_component("data_loader")  # botocore's way
        client_speedups.install()
        shared = [botocore.session.Session() for _ in range(2)]
        assert shared[0].get_component("data_loader") is shared[1].get_component("data_loader")
        other = botocore.session.Session()
        other.set_config_variable("data_path", str(tmp_path))  # another data path: a loader of its own
        assert other.get_component("data_loader") is not shared[0].get_component("data_loader")
        assert str(tmp_path) in other.get_component("data_loader").search_paths
        for service in ("dynamodb", "s3", "stepfunctions"):
            assert shared[1].get_service_data(service) == plain[0].get_service_data(service)
        kwargs = {"region_name": "eu-west-1", "aws_access_key_id": "x", "aws_secret_access_key": "y"}
        made = shared[1].create_client("dynamodb", **kwargs)
        assert made.meta.endpoint_url == plain[0].create_client("dynamodb", **kwargs).meta.endpoint_url
        assert made.meta.partition == "aws"
    finally:
        if not installed:
            client_speedups.uninstall()
