"""What an import file must be before anything is written: UTF-8, one JSON object a line with finite numbers,
non-empty keys, and each primary key once.

Each check returns problems worded `file:line: field: problem` (or `file: …` for the whole file), so the
import can report every one of them at once and write nothing. These are the rows DynamoDB itself would
refuse half way through a batch (NaN, an empty key) or silently collapse (two rows with one key: the
second overwrites the first), found before the first write instead.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from .schema import TABLES_BY_NAME


class RowRefused(ValueError):
    """A value JSON Lines may hold but a table must not (the message names it)."""


def decode_utf8(path: Path) -> tuple[str | None, str | None]:
    """The file's text, or the problem naming the first byte that is not UTF-8 (offset and line)."""
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return None, (
            f"{path.name}:{line}: (file): not UTF-8: byte 0x{raw[exc.start]:02x} at offset {exc.start}; "
            "save the file as UTF-8"
        )


def _constant(name: str) -> Any:
    raise RowRefused(f"{name} is not a number a table can hold")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as infinity
        raise RowRefused(f"{text} is out of range (not a finite number)")
    return value


def load_line(text: str) -> Any:
    """json.loads that refuses NaN, Infinity and numbers beyond a float (Python's json accepts them)."""
    return json.loads(text, parse_constant=_constant, parse_float=_finite)


def key_problems(table: str, item: dict[str, Any]) -> list[str]:
    """An empty primary or index key: DynamoDB refuses the row at write time, after earlier rows went in."""
    spec = TABLES_BY_NAME[table]
    problems = [f"{name}: the table's key is empty" for name in spec.key_names if item.get(name) in (None, "")]
    for index in spec.indexes:
        for key in (index.partition, index.sort):
            if key is not None and item.get(key.name) == "":
                problems.append(f"{key.name}: empty, and it is a key of the index {index.name}")
    return problems


def non_finite(value: Any, where: str = "") -> str | None:
    """The first NaN or infinite float in an item (a model may compute one from finite inputs)."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "(row)"
    if isinstance(value, dict):
        return next((w for k, v in value.items() if (w := non_finite(v, f"{where}.{k}" if where else k))), None)
    if isinstance(value, list):
        return next((w for i, v in enumerate(value) if (w := non_finite(v, f"{where}.{i}"))), None)
    return None


def key_of(table: str, item: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(item.get(name) for name in TABLES_BY_NAME[table].key_names)


def describe_key(table: str, key: tuple[Any, ...]) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in zip(TABLES_BY_NAME[table].key_names, key))
