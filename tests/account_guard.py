"""What a test module leaves changed in the session's seeded airline.

Every module on an xdist worker shares one seeded account, and which modules share a worker changes from run to
run (--dist loadscope hands modules to whichever worker is free). A module that executes a plan, claims a reserve
or re-positions a spare and does not put the rows back moves the decisions of whatever runs after it on that
worker: a test then fails only in some runs of the suite. The fingerprint is taken from moto's tables directly
(the items' stored strings, by reference: no copy, no decoding, no request). It covers the tables a decision
reads its resources from and an execution changes first (a plan that moves passengers also changes its flights);
the volume tables (bookings, passengers, bags, shipments, weather: 250,000 rows at the test volume) would cost
each module seconds.
"""

from __future__ import annotations

from typing import Any

import orjson

from skymarshal.data import schema as s
from skymarshal.local.account import ACCOUNT_ID, REGION
from skymarshal.local.moto_compact import unpack

GUARDED_TABLES = (
    s.FLIGHTS,
    s.CREW_MEMBERS,
    s.CREW_ROSTER,
    s.MAINTENANCE_WORK_ORDERS,
    s.MAINTENANCE_STAFF,
    s.MAINTENANCE_ROSTER,
    s.AIRCRAFT_AVAILABILITY,
    s.CARGO_FLIGHT_ASSIGNMENTS,
    s.AIRPORTS,
    s.DISRUPTION_HISTORY,
)
Fingerprint = dict[str, dict[tuple[Any, Any], Any]]


def _stored(item: Any) -> Any:
    """The item as it is kept: its (possibly compressed) string, else its decoded attributes as JSON."""
    state = item.__dict__
    return (
        state.get("_sm_raw")
        or orjson.dumps({k: v.to_json() for k, v in item.attrs.items()}, option=orjson.OPT_SORT_KEYS).decode()
    )  # a str, as an uncompressed stored string is (bytes are zlib's)


def fingerprint(naming: s.Naming) -> Fingerprint:
    from moto.dynamodb.models import dynamodb_backends

    tables = dynamodb_backends[ACCOUNT_ID][REGION].tables
    taken: Fingerprint = {}
    for logical in GUARDED_TABLES:
        table = tables.get(naming(logical))
        if table is None:
            continue
        rows = taken[logical] = {}
        for hash_set in list(table.items.values()):
            for item in list(hash_set.values()) if table.range_key_attr else [hash_set]:
                rows[(item.hash_key.value, item.range_key.value if item.range_key else None)] = _stored(item)
    return taken


def _same(a: Any, b: Any) -> bool:
    """The same stored item: the same string, or one re-encoded after a read with the same attributes."""
    return a is b or a == b or orjson.loads(unpack(a)) == orjson.loads(unpack(b))


def changes(before: Fingerprint, after: Fingerprint, limit: int = 8) -> list[str]:
    """One line per changed table: how many rows were added, removed and changed, and the first keys."""
    lines = []
    for logical in GUARDED_TABLES:
        old, new = before.get(logical, {}), after.get(logical, {})
        added = [k for k in new if k not in old]
        removed = [k for k in old if k not in new]
        changed = [k for k in new if k in old and not _same(old[k], new[k])]
        if added or removed or changed:
            keys = ", ".join(str(k[0] if k[1] is None else k) for k in (changed + added + removed)[:limit])
            lines.append(f"{logical}: {len(added)} added, {len(removed)} removed, {len(changed)} changed ({keys})")
    return lines
