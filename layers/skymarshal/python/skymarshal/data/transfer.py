"""Bring your own data: JSON Lines in and out, one `<table>.jsonl` file per operational table, plus
`DisruptionHistory.jsonl` (past disruptions and their outcomes: the generator's precedents or an airline's own).

Import validates every row of every file before writing anything — UTF-8, JSON with finite numbers, the
table's pydantic model, non-empty keys, each key once per file (`import_checks`); any bad row refuses the
whole import, naming each problem as `file:line: field: problem`. The write is all or nothing
(`import_write`: a failed write restores every row it touched). Writes are upserts on the primary key, so
importing the same folder twice changes nothing the second time.
Export uses ExportTableToPointInTime (point-in-time recovery is on for every table) — never a Scan.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from boto3.dynamodb.types import TypeDeserializer
from pydantic import ValidationError

from ..models.common import Row
from .import_checks import RowRefused, decode_utf8, describe_key, key_of, key_problems, load_line, non_finite
from .import_write import Writer, write_all_or_nothing
from .loader import upsert
from .rows import parse_row
from .schema import TRANSFER_TABLES, Naming


@dataclass
class ImportReport:
    written: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _problems(path: Path, line: int, error: ValidationError) -> list[str]:
    return [f"{path.name}:{line}: {'.'.join(str(p) for p in e['loc']) or '(row)'}: {e['msg']}" for e in error.errors()]


def read_folder(folder: Path) -> tuple[dict[str, list[Row]], list[str]]:
    """Parse and validate every `<table>.jsonl` in the folder; rows by table, and every problem found."""
    if not folder.is_dir():
        return {}, [f"{folder}: not a folder"]
    rows: dict[str, list[Row]] = {}
    errors: list[str] = []
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        errors.append(f"{folder}: no .jsonl files (expected names like {', '.join(TRANSFER_TABLES[:3])}.jsonl)")
    for path in files:
        table = path.stem
        if table not in TRANSFER_TABLES:
            errors.append(
                f"{path.name}: not an operational table or the disruption history; "
                f"expected one of: {', '.join(TRANSFER_TABLES)}"
            )
            continue
        text, problem = decode_utf8(path)
        if text is None:
            errors.append(str(problem))
            continue
        parsed: list[Row] = []
        first_line: dict[tuple[Any, ...], int] = {}  # key → the line that holds it first
        for number, line in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 may sit in a string
            if not line.strip():
                continue
            row = _parse_line(path, table, number, line, errors)
            if row is None:
                continue
            key = key_of(table, row.to_item())
            if key in first_line:  # DynamoDB would keep only the later row, silently
                errors.append(
                    f"{path.name}:{number}: (row): duplicate key {describe_key(table, key)}: "
                    f"line {first_line[key]} holds the same key"
                )
                continue
            first_line[key] = number
            parsed.append(row)
        rows[table] = parsed
    return rows, errors


def _parse_line(path: Path, table: str, number: int, line: str, errors: list[str]) -> Row | None:
    """One line → a validated row, or None with its problems appended."""
    try:
        data = load_line(line)
    except RowRefused as exc:
        errors.append(f"{path.name}:{number}: (row): {exc}")
        return None
    except json.JSONDecodeError as exc:
        errors.append(f"{path.name}:{number}: (row): not valid JSON ({exc.msg})")
        return None
    if not isinstance(data, dict):
        errors.append(f"{path.name}:{number}: (row): expected a JSON object")
        return None
    try:
        row = parse_row(table, data)
    except ValidationError as exc:
        errors.extend(_problems(path, number, exc))
        return None
    item = row.to_item()
    problems = key_problems(table, item)
    if (where := non_finite(item)) is not None:
        problems.append(f"{where}: not a finite number")
    errors.extend(f"{path.name}:{number}: {problem}" for problem in problems)
    return None if problems else row


def import_folder(folder: Path, resource: Any, naming: Naming, *, write: Writer = upsert) -> ImportReport:
    """Validate every row of every file, then write all of them or none (ImportFailed: restored)."""
    rows, errors = read_folder(Path(folder))
    report = ImportReport(errors=errors)
    if errors:
        return report  # nothing written: a partial import would leave the airline half-changed
    report.written = write_all_or_nothing(resource, naming, rows, write=write)
    return report


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def export_folder(
    folder: Path,
    client: Any,
    s3_client: Any,
    bucket: str,
    naming: Naming,
    tables: Sequence[str] = TRANSFER_TABLES,
    timeout_s: float = 1800,
) -> dict[str, int]:
    """Export each table through ExportTableToPointInTime into `bucket`, then write `<table>.jsonl`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    deserializer = TypeDeserializer()
    counts: dict[str, int] = {}
    for table in tables:
        arn = client.describe_table(TableName=naming(table))["Table"]["TableArn"]
        prefix = f"exports/{table}/{int(time.time() * 1000)}"
        export_arn = client.export_table_to_point_in_time(
            TableArn=arn, S3Bucket=bucket, S3Prefix=prefix, ExportFormat="DYNAMODB_JSON"
        )["ExportDescription"]["ExportArn"]
        deadline = time.monotonic() + timeout_s
        while (status := client.describe_export(ExportArn=export_arn)["ExportDescription"])[
            "ExportStatus"
        ] == "IN_PROGRESS":
            if time.monotonic() > deadline:
                raise TimeoutError(f"export of {table} still running after {timeout_s:.0f} s")
            time.sleep(0.2)
        if status["ExportStatus"] != "COMPLETED":
            raise RuntimeError(f"export of {table} failed: {status.get('FailureMessage')}")
        lines: list[str] = []
        for page in s3_client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
            for obj in page.get("Contents", []):
                if "/data/" not in obj["Key"]:
                    continue
                body = s3_client.get_object(Bucket=bucket, Key=obj["Key"])["Body"].read()
                for text in gzip.decompress(body).decode("utf-8").splitlines():
                    if text.strip():
                        item = json.loads(text)["Item"]
                        row = _plain({k: deserializer.deserialize(v) for k, v in item.items()})
                        lines.append(json.dumps(parse_row(table, row).to_item(), sort_keys=True))
        lines.sort()
        (folder / f"{table}.jsonl").write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
        counts[table] = len(lines)
    return counts


def write_generated(folder: Path, tables: Mapping[str, Sequence[Row]]) -> dict[str, int]:
    """Write generated rows in the import format (how a what-if case or a new airline starts)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for table, rows in tables.items():
        with (folder / f"{table}.jsonl").open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row.to_item(), sort_keys=True) + "\n")
    return {table: len(rows) for table, rows in tables.items()}
