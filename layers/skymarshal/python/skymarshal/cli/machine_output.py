"""`--json`: stdout carries the one JSON document and nothing else, in every provider mode.

While a `--json` command runs, everything else that would reach stdout goes to stderr: a log line of a Lambda
handler run in-process (Powertools loggers write to stdout, and `handlers/workflow_steps.py` logs the Bedrock models
at import when a provider is configured), a library's print. A logger's stream handler made before the command is
moved to stderr for the command's time and put back after; one made during it is bound to the diverted stdout, and
is given the real stdout after, as it would have had without `--json`. Every exit path restores all of it.
`print_json` writes to the stdout the command started with.
"""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from contextvars import ContextVar
from typing import TextIO, cast

_DOCUMENT_OUT: ContextVar[TextIO | None] = ContextVar("document_out", default=None)


# whether the running --json command has written its document (a failure after it writes no second one)
_WRITTEN: ContextVar[list[bool] | None] = ContextVar("document_written", default=None)


def document_out() -> TextIO:
    """Where the command's one JSON document goes: the real stdout under `machine_output`, else sys.stdout. Asking
    for it is writing the document."""
    if (written := _WRITTEN.get()) is not None:
        written.append(True)
    return _DOCUMENT_OUT.get() or sys.stdout


def document_written() -> bool:
    """Has the running `--json` command written its JSON document?"""
    return bool(_WRITTEN.get())


class _Diverted(io.TextIOBase):
    """stdout during a `--json` command: writes to stderr, and is told apart from it, so a handler bound to it while
    the command ran can be found and given the real stdout back."""

    def __init__(self, target: TextIO) -> None:
        self._target = target

    def write(self, s: str) -> int:
        return self._target.write(s)

    def flush(self) -> None:
        self._target.flush()

    def isatty(self) -> bool:
        return self._target.isatty()

    def fileno(self) -> int:
        return self._target.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._target.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self._target.errors

    def __getattr__(self, name: str) -> object:  # buffer, line_buffering …: stderr's
        return getattr(self._target, name)


def _stream_handlers(keep: tuple[object, ...]) -> list[logging.StreamHandler]:
    """Every plain stream handler writing to a stream not in `keep` (a file handler keeps its file): a logger's
    handler is bound to the stdout of the moment it was made, which need not be today's sys.stdout (Powertools
    reuses the first handler of a service's logger)."""
    loggers = [logging.getLogger()]
    loggers += [lg for lg in logging.Logger.manager.loggerDict.values() if isinstance(lg, logging.Logger)]
    return [h for lg in loggers for h in lg.handlers if type(h) is logging.StreamHandler and h.stream not in keep]


def _set_stream(handler: logging.StreamHandler, stream: object) -> None:
    """`handler.setStream`, except that a closed stream (a finished test's capture, a closed file) is not flushed
    first: setStream would raise on it, and the handler still deserves the new stream."""
    if getattr(handler.stream, "closed", False):
        handler.acquire()
        try:
            handler.stream = stream
        finally:
            handler.release()
    else:
        handler.setStream(stream)


@contextmanager
def machine_output() -> Iterator[TextIO]:
    real = sys.stdout
    diverted = _Diverted(sys.stderr)
    moved = _stream_handlers((sys.stderr, sys.__stderr__))
    previous = [h.stream for h in moved]
    token = _DOCUMENT_OUT.set(real)
    written = _WRITTEN.set([])
    try:
        for handler in moved:
            _set_stream(handler, sys.stderr)
        with redirect_stdout(cast(TextIO, diverted)):
            yield real
    finally:
        _DOCUMENT_OUT.reset(token)
        _WRITTEN.reset(written)
        for handler, stream in zip(moved, previous):
            _set_stream(handler, stream)
        for handler in _stream_handlers(()):  # made during the command, on the diverted stdout
            if handler.stream is diverted:
                _set_stream(handler, real)
