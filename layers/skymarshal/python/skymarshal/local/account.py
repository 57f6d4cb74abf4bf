"""The emulated account: its constants (moto's default account id, the region, the artifacts bucket, the seed
marker, moto's configuration), where local state lives (`home`), and `LocalAccount` — the tables created from the
shared specs, seeded with the synthetic airline. One definition for every module of local/."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..data import aws
from ..data.schema import CHECKPOINTS, SECTOR_DAY_INDEX, TABLES, Naming

if TYPE_CHECKING:  # the SDK and the data access load when an account is used, not when `local` is imported
    from moto.core.config import DefaultConfig

    from ..data.access import DataHandle
    from ..workflow.tables import WorkflowTables

ACCOUNT_ID = "123456789012"  # moto's default account
REGION = "us-east-1"
BUCKET = "skymarshal-local-artifacts"
MOTO_CONFIG: DefaultConfig = {"stepfunctions": {"execute_state_machine": True}, "lambda": {"use_docker": False}}
SEED_MARKER = {"PK": "SYSTEM#seed", "SK": "airline"}


def use_fake_credentials() -> None:
    """moto accepts any credentials; make sure no real ones are picked up by accident."""
    for name, value in (
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_SESSION_TOKEN", "testing"),
        ("AWS_DEFAULT_REGION", REGION),
    ):
        os.environ[name] = value
    os.environ.pop("AWS_PROFILE", None)


@dataclass
class LocalAccount:
    endpoint_url: str | None = None  # None: the in-process mock
    naming: Naming = field(default_factory=Naming)

    def client(self, service: str):
        return aws.client(service, endpoint_url=self.endpoint_url, region_name=REGION)

    def resource(self, service: str = "dynamodb"):
        return aws.resource(service, endpoint_url=self.endpoint_url, region_name=REGION)

    def handle(self, agent: str | None = None) -> DataHandle:
        from ..data.access import DataHandle

        return DataHandle(agent, naming=self.naming, resource=self.resource())

    def tables(self) -> WorkflowTables:
        """The workflow's tables in this account (what a Lambda container builds from its environment)."""
        from ..workflow.tables import WorkflowTables

        return WorkflowTables(self.resource(), self.naming)

    def existing_tables(self) -> set[str]:
        names: set[str] = set()
        for page in self.client("dynamodb").get_paginator("list_tables").paginate():
            names.update(page["TableNames"])
        return names

    def create(self, airline=None, progress: Callable[[str, int], None] | None = None) -> dict[str, int]:
        """Create every table that is missing; tables with generated rows are created by ImportTable."""
        from ..data.loader import import_new_table, table_definition

        ddb, s3 = self.client("dynamodb"), self.client("s3")
        existing = self.existing_tables()
        if BUCKET not in {b["Name"] for b in s3.list_buckets().get("Buckets", [])}:
            s3.create_bucket(Bucket=BUCKET)
        _checkpoint_lifecycle(s3)
        counts: dict[str, int] = {}
        for spec in TABLES:
            if self.naming(spec.name) in existing:
                continue
            rows = airline.tables.get(spec.name) if airline else None
            if rows:
                counts[spec.name] = import_new_table(ddb, s3, BUCKET, spec, self.naming, rows)
            else:
                ddb.create_table(**table_definition(spec, self.naming))
                counts[spec.name] = 0
            ddb.update_continuous_backups(
                TableName=self.naming(spec.name), PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True}
            )  # as in the CDK stack; exports need it
            if spec.ttl_attribute:
                ddb.update_time_to_live(
                    TableName=self.naming(spec.name),
                    TimeToLiveSpecification={"Enabled": True, "AttributeName": spec.ttl_attribute},
                )
            if progress:
                progress(spec.name, counts[spec.name])
        if airline is not None:
            self.mark_seeded(airline)
        return counts

    def add_missing_indexes(self) -> list[str]:
        """GSIs the schema declares that an existing table lacks (a local state saved by an older version),
        added with UpdateTable; the index names added."""
        from ..data.loader import table_definition

        ddb, added = self.client("dynamodb"), []
        existing = self.existing_tables()
        for spec in TABLES:
            name = self.naming(spec.name)
            if name not in existing or not spec.indexes:
                continue
            present = {
                i["IndexName"] for i in ddb.describe_table(TableName=name)["Table"].get("GlobalSecondaryIndexes", [])
            }
            definition = table_definition(spec, self.naming)
            for index in definition["GlobalSecondaryIndexes"]:
                if index["IndexName"] in present:
                    continue
                keys = {k["AttributeName"] for k in index["KeySchema"]}
                ddb.update_table(
                    TableName=name,
                    AttributeDefinitions=[a for a in definition["AttributeDefinitions"] if a["AttributeName"] in keys],
                    GlobalSecondaryIndexUpdates=[{"Create": index}],
                )
                added.append(f"{name}.{index['IndexName']}")
                if index["IndexName"] == SECTOR_DAY_INDEX:  # its key is derived: rows saved before lack it
                    self.backfill_sector_days()
        return added

    def backfill_sector_days(self, chunk: int = 200) -> int:
        """The roster's flown sectors saved before sector-day-index existed, written again as their model writes them
        (`CrewDuty.sector_day`, the index's key); how many. Read as every reader reads, by key: each type's flights
        on type-departure-index, `chunk` flights' crews at a time on flight-position-index — the local twin of `data
        export` then `data import` in AWS. A row the model cannot read is not its to mend: left as it was."""
        from boto3.dynamodb.conditions import Key
        from pydantic import ValidationError

        from ..data import schema as s
        from ..data.loader import item_of
        from ..models.fleet import AIRCRAFT_TYPES
        from ..models.operational import CrewDuty

        handle, ever = self.handle(), Key("scheduled_departure").between("0", "~")  # every ISO time sorts between
        flight_ids = [
            row["flight_id"]
            for kind in AIRCRAFT_TYPES
            for row in handle.query(s.FLIGHTS, Key("aircraft_type").eq(kind) & ever, index=s.TYPE_DEPARTURE_INDEX)
        ]
        changed = 0
        with self.resource().Table(self.naming(s.CREW_ROSTER)).batch_writer() as batch:
            for at in range(0, len(flight_ids), chunk):
                keys = {fid: Key("flight_id").eq(fid) for fid in flight_ids[at : at + chunk]}
                for rows in handle.query_each(s.CREW_ROSTER, keys, index=s.FLIGHT_POSITION_INDEX).values():
                    for item in rows:
                        try:
                            fresh = item_of(CrewDuty.model_validate(item))
                        except ValidationError:
                            continue
                        if item.get("kind") == "FLIGHT" and fresh != item:
                            batch.put_item(Item=fresh)
                            changed += 1
        return changed

    def mark_seeded(self, airline) -> None:
        item = {**SEED_MARKER, "config": airline.config.model_dump_json(), "counts": json.dumps(airline.counts())}
        self.resource().Table(self.naming(CHECKPOINTS)).put_item(Item=item)

    def seed_info(self) -> dict | None:
        """The generator config and row counts the account was seeded with, and the SSIM file its flights came
        from (`local start --schedule`; None: the generated ones), or None."""
        if self.naming(CHECKPOINTS) not in self.existing_tables():
            return None
        item = self.resource().Table(self.naming(CHECKPOINTS)).get_item(Key=SEED_MARKER).get("Item")
        if not item:
            return None
        return {
            "config": json.loads(item["config"]),
            "counts": json.loads(item["counts"]),
            "schedule": item.get("schedule"),
        }


def home() -> Path:
    """Where local state lives (`SKYMARSHAL_HOME`, default `.skymarshal`)."""
    return Path(os.environ.get("SKYMARSHAL_HOME", ".skymarshal"))


def _checkpoint_lifecycle(s3) -> None:
    """The artifacts bucket's checkpoint expiry rule, as the data stack declares it (infra/storage.py): the
    checkpoint saver finds it by id and never writes the bucket's lifecycle itself."""
    from botocore.exceptions import ClientError

    from ..checkpoint.config import CHECKPOINT_LIFECYCLE_RULE_ID, CHECKPOINT_S3_PREFIX, CHECKPOINT_TTL_DAYS

    try:
        rules = s3.get_bucket_lifecycle_configuration(Bucket=BUCKET)["Rules"]
    except ClientError as exc:
        if exc.response["Error"]["Code"] != "NoSuchLifecycleConfiguration":
            raise
        rules = []
    if any(rule.get("ID") == CHECKPOINT_LIFECYCLE_RULE_ID for rule in rules):
        return
    rule = {
        "ID": CHECKPOINT_LIFECYCLE_RULE_ID,
        "Filter": {"Prefix": f"{CHECKPOINT_S3_PREFIX}/"},
        "Status": "Enabled",
        "Expiration": {"Days": CHECKPOINT_TTL_DAYS},
    }
    s3.put_bucket_lifecycle_configuration(Bucket=BUCKET, LifecycleConfiguration={"Rules": [*rules, rule]})
