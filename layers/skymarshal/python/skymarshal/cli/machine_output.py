"""`--json`: stdout carries the one JSON document and nothing else, in every provider mode.

While a `--json` command runs, everything else that would reach stdout goes to stderr: a log line of a Lambda
handler run in-process (Powertools loggers write to stdout, and `handlers/workflow_steps.py` logs the Bedrock models
at import when a provider is configured), a library's print. A logger created during the command takes the
redirected stdout; one created before it has its stream handler moved to stderr for the command's time and put
back after.
`print_json` writes to the stdout the command started with.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from contextvars import ContextVar
from typing import TextIO

_DOCUMENT_OUT: ContextVar[TextIO | None] = ContextVar("document_out", default=None)


def document_out() -> TextIO:
    """Where the command's one JSON document goes: the real stdout under `machine_output`, else sys.stdout."""
    return _DOCUMENT_OUT.get() or sys.stdout


def _stream_handlers() -> list[logging.StreamHandler]:
    """Every handler writing to a stream other than stderr (a file handler keeps its file): a logger's handler is
    bound to the stdout of the moment it was made, which need not be today's sys.stdout (Powertools reuses the first
    handler of a service's logger)."""
    loggers = [logging.getLogger()]
    loggers += [lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)]
    return [
        h
        for lg in loggers
        for h in lg.handlers
        if type(h) is logging.StreamHandler and h.stream not in (sys.stderr, sys.__stderr__)
    ]


@contextmanager
def machine_output() -> Iterator[TextIO]:
    real = sys.stdout
    moved = _stream_handlers()
    previous = [h.stream for h in moved]
    for handler in moved:
        handler.setStream(sys.stderr)
    token = _DOCUMENT_OUT.set(real)
    try:
        with redirect_stdout(sys.stderr):
            yield real
    finally:
        _DOCUMENT_OUT.reset(token)
        for handler, stream in zip(moved, previous):
            handler.setStream(stream)
