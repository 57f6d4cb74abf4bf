"""A local state saved before the schema gained an index gets it at start (UpdateTable), and answers on it."""

from __future__ import annotations

import row_builders
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


def test_rows_saved_before_an_index_get_its_derived_key(account):
    """A roster saved before sector-day-index existed: its FLIGHT rows gain `sector_day` when the index is added (found
    through their flights, by Query: no Scan), and a day's crews are read on it; a standby row stays out."""
    old = LocalAccount(naming=s.Naming(prefix="older-roster-"))
    old.create(None)
    client, roster = old.client("dynamodb"), old.naming(s.CREW_ROSTER)
    client.update_table(TableName=roster, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": s.SECTOR_DAY_INDEX}}])
    sector = row_builders.sector_item()
    standby = {**sector, "crew_id": "C2", "kind": "STANDBY", "duty_key": "2027-01-20T22:00:00Z#STANDBY#"}
    del standby["flight_id"], standby["sector_departure"]
    for item in (sector, standby):
        old.resource().Table(roster).put_item(Item=item)
    flight = {
        "flight_id": sector["flight_id"],
        "aircraft_type": "B789",
        "scheduled_departure": sector["sector_departure"],
    }
    old.resource().Table(old.naming(s.FLIGHTS)).put_item(Item=flight)  # the backfill finds sectors by their flights

    assert old.add_missing_indexes() == [f"{roster}.{s.SECTOR_DAY_INDEX}"]
    rows = (
        old.resource()
        .Table(roster)
        .query(IndexName=s.SECTOR_DAY_INDEX, KeyConditionExpression=Key("sector_day").eq("2027-01-20"))["Items"]
    )
    assert [(r["crew_id"], r["sector_day"]) for r in rows] == [("C1", "2027-01-20")]
    assert old.backfill_sector_days() == 0  # written once: nothing left to change
