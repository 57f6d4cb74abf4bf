"""The fault injector (local/faults.py, local/fault_hooks.py; issue 48 item 1): its spec read in one line, its
decisions seeded and reproducible at the share asked, and each kind answered as the real service answers it —
through botocore's own parsing and retry loop in process, and in front of the server's WSGI application."""

from __future__ import annotations

import json

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError, ReadTimeoutError
from hypothesis import given, settings
from hypothesis import strategies as st
from moto import mock_aws

from skymarshal.local import fault_hooks, faults
from skymarshal.local.faults import FaultPlan, FaultSpecError, Injector, parse

REGION = "eu-west-1"


def test_a_spec_reads_rate_seed_kinds_services_and_latency():
    assert parse("5%") == FaultPlan(rate=0.05)
    assert parse("0.2,seed=7,kinds=throttle+partial,services=dynamodb+events,latency=0.5") == FaultPlan(
        rate=0.2, seed=7, kinds=("throttle", "partial"), services=("dynamodb", "events"), latency_s=0.5
    )


@pytest.mark.parametrize(
    "spec", ["", "lots", "120%", "5%,kinds=floods", "5%,colour=red", "5%,latency=soon", "5%,services="]
)
def test_a_bad_spec_is_one_line_naming_the_variable(spec):
    with pytest.raises(FaultSpecError) as refused:
        parse(spec)
    assert faults.FAULTS_ENV in str(refused.value) and "\n" not in str(refused.value)


def test_a_bad_seed_is_named_as_such():
    with pytest.raises(FaultSpecError, match="seed is a whole number"):
        parse("5%,seed=abc")


@settings(max_examples=30, deadline=None)
@given(rate=st.floats(min_value=0.0, max_value=1.0), seed=st.integers(0, 10_000))
def test_decisions_are_reproducible_and_near_the_share_asked(rate, seed):
    plan = FaultPlan(rate=rate, seed=seed, kinds=("throttle", "error"))
    one, two = Injector(plan), Injector(plan)
    calls = [("dynamodb", op) for op in ("GetItem", "Query", "PutItem", "UpdateItem") for _ in range(500)]
    first = [one.decide(*c) for c in calls]
    assert first == [two.decide(*c) for c in calls]  # the same calls meet the same faults
    share = sum(f is not None for f in first) / len(calls)
    assert abs(share - rate) < 0.05
    assert one.stats()["faults"] == sum(f is not None for f in first)


def test_each_kind_only_where_the_service_answers_so():
    assert faults.applicable("dynamodb", "GetItem", faults.KINDS, in_process=True) == (
        "throttle",
        "error",
        "latency",
        "timeout",
    )
    assert "conflict" in faults.applicable("dynamodb", "TransactWriteItems", faults.KINDS, in_process=True)
    assert "partial" in faults.applicable("events", "PutEvents", faults.KINDS, in_process=False)
    assert "timeout" not in faults.applicable("s3", "PutObject", faults.KINDS, in_process=False)
    assert Injector(FaultPlan(rate=1.0, services=("s3",))).decide("dynamodb", "GetItem") is None


@pytest.fixture
def moto_account(monkeypatch):
    for name, value in {"AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_DEFAULT_REGION": REGION}.items():
        monkeypatch.setenv(name, value)
    # an earlier test of the worker may have pointed the process at a local server (local/workflow.install)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    fault_hooks.install_in_process(None)
    with mock_aws():
        ddb = boto3.client("dynamodb", region_name=REGION)
        ddb.create_table(
            TableName="t",
            KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST",
        )
        try:
            yield
        finally:
            fault_hooks.install_in_process(None)
            # inside a worker's in-process account moto's backends are the account's (an inner mock_aws does not
            # reset them on exit): the table goes, or the next test's create finds it
            ddb.delete_table(TableName="t")


def _client(service: str, attempts: int):
    config = Config(retries={"mode": "standard", "total_max_attempts": attempts})
    return boto3.client(service, region_name=REGION, config=config)


def _inject(kind: str, service: str, rate: float = 1.0) -> Injector:
    chosen = Injector(FaultPlan(rate=rate, kinds=(kind,), services=(service,), latency_s=0.01))
    fault_hooks.install_in_process(chosen)
    return chosen


def test_throttling_is_botocores_own_error_and_nothing_is_written(moto_account):
    _inject("throttle", "dynamodb")
    ddb = _client("dynamodb", attempts=1)
    with pytest.raises(ClientError) as refused:
        ddb.put_item(TableName="t", Item={"PK": {"S": "a"}})
    assert refused.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    fault_hooks.install_in_process(None)
    assert "Item" not in ddb.get_item(TableName="t", Key={"PK": {"S": "a"}})


def test_the_standard_retry_mode_carries_a_write_through_faults(moto_account):
    chosen = _inject("error", "dynamodb", rate=0.5)
    ddb = _client("dynamodb", attempts=10)
    for n in range(20):
        ddb.put_item(TableName="t", Item={"PK": {"S": f"k{n}"}})
    assert chosen.stats()["faults"] > 0  # faults were met, and retried past
    fault_hooks.install_in_process(None)
    assert ddb.scan(TableName="t")["Count"] == 20


def test_a_transaction_is_cancelled_with_a_conflict_reason(moto_account):
    _inject("conflict", "dynamodb")
    ddb = _client("dynamodb", attempts=1)
    with pytest.raises(ddb.exceptions.TransactionCanceledException) as cancelled:
        ddb.transact_write_items(
            TransactItems=[{"Put": {"TableName": "t", "Item": {"PK": {"S": k}}}} for k in ("x", "y")]
        )
    assert [r["Code"] for r in cancelled.value.response["CancellationReasons"]] == ["TransactionConflict"] * 2


def test_put_events_answers_with_some_entries_failed(moto_account):
    _inject("partial", "events")
    events = _client("events", attempts=1)
    entries = [{"Source": "t", "DetailType": "d", "Detail": json.dumps({"n": n})} for n in range(3)]
    answer = events.put_events(Entries=entries)
    assert answer["FailedEntryCount"] == 2
    assert [("EventId" in e) for e in answer["Entries"]] == [False, True, False]


def test_s3_slows_down_with_a_503(moto_account):
    boto3.client("s3", region_name=REGION).create_bucket(
        Bucket="fault-bucket", CreateBucketConfiguration={"LocationConstraint": REGION}
    )
    _inject("throttle", "s3")
    with pytest.raises(ClientError) as refused:
        _client("s3", attempts=1).put_object(Bucket="fault-bucket", Key="k", Body=b"x")
    assert refused.value.response["Error"]["Code"] == "SlowDown"
    assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 503


def test_a_timeout_applies_the_write_and_the_client_never_hears(moto_account):
    _inject("timeout", "dynamodb")
    ddb = _client("dynamodb", attempts=1)
    with pytest.raises(ReadTimeoutError):
        ddb.put_item(TableName="t", Item={"PK": {"S": "applied"}})
    fault_hooks.install_in_process(None)
    assert "Item" in ddb.get_item(TableName="t", Key={"PK": {"S": "applied"}})


def test_the_server_middleware_answers_a_fault_without_reaching_the_account():
    from werkzeug.test import Client
    from werkzeug.wrappers import Response

    reached: list[str] = []

    def account(environ, start_response):
        reached.append(environ["PATH_INFO"])
        return Response("{}", content_type="application/x-amz-json-1.0")(environ, start_response)

    chosen = Injector(FaultPlan(rate=1.0, kinds=("throttle",), services=("dynamodb",)), in_process=False)
    client = Client(fault_hooks.middleware(account, chosen))
    headers = {
        "Authorization": "AWS4-HMAC-SHA256 Credential=x/20270120/eu-west-1/dynamodb/aws4_request, Signature=s",
        "X-Amz-Target": "DynamoDB_20120810.PutItem",
    }
    answer = client.post("/", data=b"{}", headers=headers)
    assert answer.status_code == 400 and "ProvisionedThroughputExceededException" in answer.get_data(as_text=True)
    assert reached == []
    assert client.post("/", data=b"{}", headers={"X-Amz-Target": "x"}).status_code == 200  # unsigned: passed on
    assert reached == ["/"]
