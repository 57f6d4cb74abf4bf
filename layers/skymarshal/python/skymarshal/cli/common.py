"""Helpers shared by the subcommands: the one-line failure (`CliError`), argument types and JSON output."""

from __future__ import annotations

import argparse
import json
from datetime import date
from typing import Any


class CliError(Exception):
    """A failure to report on one line (exit 1)."""


def iso_date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid date {text!r}: use YYYY-MM-DD, e.g. 2027-01-20") from None


def load_factor(text: str) -> float:
    """A mean seat load factor as the generator takes it (data/generator/config.py: 0.05 to 1)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0.05 <= value <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"invalid load factor {text!r}: a number from 0.05 to 1, e.g. 0.78")
    return value


def print_json(value: Any) -> None:
    """The command's JSON document, on the stdout it started with (cli/machine_output.py keeps it the only thing)."""
    from .machine_output import document_out

    print(json.dumps(value, indent=2, sort_keys=True, default=str), file=document_out(), flush=True)
