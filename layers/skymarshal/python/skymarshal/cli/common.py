"""Helpers shared by the subcommands: argument types and JSON output."""

from __future__ import annotations

import argparse
import json
from datetime import date
from typing import Any


def iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid date {text!r}: use YYYY-MM-DD, e.g. 2027-01-20") from None


def print_json(value: Any) -> None:
    print(json.dumps(value, indent=2, sort_keys=True, default=str))
