"""Seeding the local server's tables in place: the generated rows straight into moto's table model.

The server process *is* moto, so it needs neither the S3 staging nor ImportTable's parser that the
loader uses against a real account: each row becomes the compact item moto_compact stores (its
DynamoDB-JSON string) with the keys moto indexes it by. That took the seed of the default airline from
about 150 s (ImportTable, in moto) to the cost of encoding the rows. The tables themselves are created
through the API from the shared schema (`LocalAccount.create`), so keys, GSIs, TTL and PITR are as
everywhere else; the rows pass the same checks the generator's tests hold them to.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

import orjson

from ..data.loader import bulk_allocation, item_attributes
from ..data.schema import TABLES
from .account import ACCOUNT_ID, REGION, LocalAccount
from .moto_compact import MAX_ITEM_BYTES, pack


class SeedError(RuntimeError):
    """A generated row that moto would refuse (a missing key, an oversized item)."""


def moto_table(name: str):
    from moto.dynamodb.models import dynamodb_backends

    return dynamodb_backends[ACCOUNT_ID][REGION].tables[name]


def seed_in_place(
    account: LocalAccount,
    airline,
    progress: Callable[[str, int], None] | None = None,
    tables: Collection[str] | None = None,
) -> dict[str, int]:
    """Create every table (empty, through the API), then put the airline's rows into moto's tables (only
    those of `tables`, when given: a command that reads a few tables need not pay for the rest)."""
    account.create(None)
    with bulk_allocation():
        counts = _put_rows(account, airline, progress, tables)
    account.mark_seeded(airline)
    return counts


def _put_rows(account: LocalAccount, airline, progress, tables: Collection[str] | None) -> dict[str, int]:
    from moto.dynamodb.models.dynamo_type import DynamoType, Item

    counts: dict[str, int] = {}
    for spec in TABLES:
        wanted = tables is None or spec.name in tables
        rows = (airline.tables.get(spec.name) or []) if wanted else []
        table = moto_table(account.naming(spec.name))
        hash_attr, range_attr = table.hash_key_attr, table.range_key_attr
        for row in rows:
            attrs = item_attributes(row)
            encoded = orjson.dumps(attrs)  # UTF-8 bytes: their length is at least DynamoDB's size of the item
            raw = encoded.decode()
            if hash_attr not in attrs or (range_attr and range_attr not in attrs) or len(encoded) > MAX_ITEM_BYTES:
                raise SeedError(f"{spec.name}: a generated row moto would refuse: {raw[:160]}")
            item: Any = Item.__new__(Item)  # built as moto's __init__ would, minus the decoding
            item.hash_key = DynamoType(attrs[hash_attr])
            item.range_key = DynamoType(attrs[range_attr]) if range_attr else None
            item.__dict__["_sm_raw"] = pack(raw)
            if range_attr:
                table.items[item.hash_key][item.range_key] = item
            else:
                table.items[item.hash_key] = item
        counts[spec.name] = len(rows)
        if progress:
            progress(spec.name, len(rows))
    return counts
