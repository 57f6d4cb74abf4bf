"""A local state saved before the schema gained an index gets it at start (UpdateTable), and answers on it."""

from __future__ import annotations

from boto3.dynamodb.conditions import Key

from skymarshal.data import schema as s
from skymarshal.local.emulator import LocalAccount


def test_missing_indexes_are_added_to_existing_tables(account):
    old = LocalAccount(naming=s.Naming(prefix="older-state-"))
    old.create(None)
    client = old.client("dynamodb")
    flights = old.naming(s.FLIGHTS)
    client.update_table(
        TableName=flights, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": s.TYPE_DEPARTURE_INDEX}}]
    )
    old.resource().Table(flights).put_item(
        Item={"flight_id": "F1", "aircraft_type": "A320", "scheduled_departure": "2027-01-20T08:00:00Z"}
    )

    assert old.add_missing_indexes() == [f"{flights}.{s.TYPE_DEPARTURE_INDEX}"]
    assert old.add_missing_indexes() == []  # once only
    rows = (
        old.resource()
        .Table(flights)
        .query(IndexName=s.TYPE_DEPARTURE_INDEX, KeyConditionExpression=Key("aircraft_type").eq("A320"))["Items"]
    )
    assert [r["flight_id"] for r in rows] == ["F1"]
