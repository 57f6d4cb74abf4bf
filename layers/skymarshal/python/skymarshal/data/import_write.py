"""Writing a validated import all or nothing: the rows it will replace are read first, and a failed write puts
them back.

DynamoDB has no transaction larger than 100 items, and an airline's import is hundreds of thousands of rows,
so the write is a batch upsert with a compensating rollback: before the first write every key the import
holds is read (BatchGetItem on the primary key, never a Scan); when any write fails, each key written or
attempted is restored — the earlier row put back, a new row deleted — and the failure is reported on one
line. A writer that changes the same rows during the import is not isolated from it (the rollback restores
what was read before): imports are an operator's action on a quiet table, not a concurrent workflow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..models.common import Row
from .import_checks import key_of
from .loader import item_of, upsert
from .schema import TABLES_BY_NAME, Naming

_GET_BATCH = 100  # BatchGetItem's limit per request
Writer = Callable[[Any, Naming, str, Iterable[Row]], int]


class ImportFailed(RuntimeError):
    """A write failed; the message says whether the tables were restored."""


def snapshot(
    resource: Any, naming: Naming, table: str, rows: Sequence[Row]
) -> dict[tuple[Any, ...], dict[str, Any] | None]:
    """The current item under each row's key (None: no item yet), read by key in batches."""
    names = TABLES_BY_NAME[table].key_names
    physical = naming(table)
    keys = list(dict.fromkeys(key_of(table, item_of(row)) for row in rows))
    before: dict[tuple[Any, ...], dict[str, Any] | None] = dict.fromkeys(keys)
    for start in range(0, len(keys), _GET_BATCH):
        request: dict[str, Any] = {
            physical: {"Keys": [dict(zip(names, key)) for key in keys[start : start + _GET_BATCH]]}
        }
        while request:
            # boto3's resource-level batch_get_item deserializes; the client's does not, so use the resource's.
            answer = resource.batch_get_item(RequestItems=request)
            for item in answer.get("Responses", {}).get(physical, []):
                before[key_of(table, item)] = item
            request = answer.get("UnprocessedKeys") or {}
    return before


def _restore(
    resource: Any, naming: Naming, table: str, before: Mapping[tuple[Any, ...], dict[str, Any] | None]
) -> None:
    names = TABLES_BY_NAME[table].key_names
    with resource.Table(naming(table)).batch_writer() as writer:
        for key, item in before.items():
            if item is None:
                writer.delete_item(Key=dict(zip(names, key)))
            else:
                writer.put_item(Item=item)


def write_all_or_nothing(
    resource: Any, naming: Naming, rows: Mapping[str, Sequence[Row]], *, write: Writer = upsert
) -> dict[str, int]:
    """Upsert every table's rows; on any failure restore every table touched and raise ImportFailed."""
    before = {table: snapshot(resource, naming, table, table_rows) for table, table_rows in rows.items()}
    written: dict[str, int] = {}
    touched: list[str] = []
    try:
        for table, table_rows in rows.items():
            touched.append(table)  # a batch may have landed in part before it failed
            written[table] = write(resource, naming, table, table_rows)
    except Exception as exc:
        cause = f"{type(exc).__name__}: {exc}".splitlines()[0]
        try:
            for table in touched:
                _restore(resource, naming, table, before[table])
        except Exception as again:
            raise ImportFailed(
                f"writing {touched[-1]} failed ({cause}) and the rollback failed too "
                f"({type(again).__name__}: {str(again).splitlines()[0] if str(again) else ''}): "
                f"tables {', '.join(touched)} may hold part of the import; import the folder again"
            ) from None
        raise ImportFailed(
            f"writing {touched[-1]} failed ({cause}); rolled back: {', '.join(touched)} are as they were"
        ) from None
    return written
