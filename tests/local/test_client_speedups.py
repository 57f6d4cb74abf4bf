"""The User-Agent botocore sends is the same with the local emulator's cache as without it: per client, and with
the features a request adds (a paginator) — and a new request's features are not answered from another's."""

from __future__ import annotations

import boto3
import pytest
from botocore.context import start_as_current_context
from botocore.useragent import register_feature_id

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
