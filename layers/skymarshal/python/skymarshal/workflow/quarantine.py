"""The quarantine in the account: an inbound message a feed could not take (an MVT for a flight the data does not
hold, one whose tail or station contradicts the flight's) is parked with its reason as an item of the Checkpoints
table, beside the run it would have started, and counted (RECORDS_QUARANTINED_METRIC, with its own alarm). The run
still fails on its one line; nothing else in the feed waits for it.

  PK = "QUARANTINE"   SK = "<parked at>#<source>#<where>#<line>"   newest first by a Query

A file import parks locally in a folder (data/quarantine.py); `skymarshal quarantine` lists both. Parked records are
few (a malformed message is an exception, not a stream), so one partition is no hot spot, and every read is a Query.
"""

from __future__ import annotations

import logging

from ..data.quarantine import Parked
from .aws.dynamodb import Key
from .aws.errors import BotoCoreError, ClientError
from .tables import WorkflowTables

log = logging.getLogger("skymarshal.workflow.quarantine")
PARTITION = "QUARANTINE"


def park_item(record: Parked, *, tables: WorkflowTables) -> bool:
    """Put one parked record in the table; False (logged, never raised) when the table refused it."""
    sort = f"{record.parked_at:%Y-%m-%dT%H:%M:%S.%f}#{record.source}#{record.file}#{record.line}"  # sorts as time
    try:
        tables.checkpoints.put_item(Item={"PK": PARTITION, "SK": sort, "parked": record.model_dump_json()})
    except (ClientError, BotoCoreError) as exc:
        log.error("not parked (%s): %s line %s: %s", exc, record.file, record.line, record.reason)
        return False
    return True


def parked_items(*, tables: WorkflowTables, limit: int = 200) -> list[Parked]:
    """The newest `limit` parked records, oldest first (as the local folder lists them)."""
    query = {"KeyConditionExpression": Key("PK").eq(PARTITION), "ScanIndexForward": False, "Limit": limit}
    items = tables.checkpoints.query(**query)["Items"][::-1]  # oldest first, in the order they were parked
    return [Parked.model_validate_json(str(i["parked"])) for i in items]
