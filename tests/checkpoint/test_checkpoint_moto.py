"""The moto behaviour that conftest.py relies on: a nested mock_aws shares the backend and resets nothing."""

from __future__ import annotations

import uuid

from moto import mock_aws
from moto.core.models import MockAWS


def _tables(ckpt_aws) -> list[str]:
    return ckpt_aws.client("dynamodb").list_tables()["TableNames"]


def test_nested_mock_shares_and_keeps_the_outer_backend(ckpt_aws):
    assert MockAWS._nested_count >= 1  # the module fixture's mock (maybe inside the session's)
    inner_table = f"nested-{uuid.uuid4().hex[:8]}"
    with mock_aws():
        assert ckpt_aws.table_name in _tables(ckpt_aws)  # entering did not reset
        ckpt_aws.client("dynamodb").create_table(
            TableName=inner_table,
            BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
        )
    tables = _tables(ckpt_aws)
    assert ckpt_aws.table_name in tables and inner_table in tables  # leaving did not reset either
    assert ckpt_aws.bucket in {b["Name"] for b in ckpt_aws.client("s3").list_buckets()["Buckets"]}
    ckpt_aws.client("dynamodb").delete_table(TableName=inner_table)
