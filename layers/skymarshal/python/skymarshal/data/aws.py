"""Every AWS client the library builds, built here with one botocore retry configuration (issue 48).

Why one place: a throttled DynamoDB write, an S3 503 or SlowDown, a PutEvents or SendTaskSuccess that fails once
are retried by botocore itself — its `standard` mode retries throttling errors, 5xx answers, transient
connection errors and DynamoDB's TransactionConflict with full-jitter exponential backoff, capped by a retry
quota — instead of by hand-written sleep loops scattered over the steps. Set once, here, so every client
(the steps', the local account's, the CLI's) behaves alike and a change is one line.

- `SKYMARSHAL_AWS_RETRY_MODE`: `standard` (default) or `adaptive` (standard plus a client-side rate limiter that
  slows a client after throttling; botocore calls it experimental, so it is opt-in).
- `SKYMARSHAL_AWS_MAX_ATTEMPTS`: total attempts, the first included (default 5: with standard's base of 1 s
  and cap of 20 s the backoffs add to at most ~1+2+4+8 s, well inside every step's Lambda timeout).

A caller with its own deadline (the model calls, llm/provider.py) builds its Config from `config(...)` with
fewer attempts; nothing else sets `retries` of its own.
"""

from __future__ import annotations

import os
from typing import Any

from botocore.config import Config

RETRY_MODE_ENV = "SKYMARSHAL_AWS_RETRY_MODE"
MAX_ATTEMPTS_ENV = "SKYMARSHAL_AWS_MAX_ATTEMPTS"
MODES = ("standard", "adaptive")
DEFAULT_ATTEMPTS = 5


def retries() -> dict[str, Any]:
    """botocore's `retries` setting from the environment; a bad value is one clear ValueError."""
    mode = os.environ.get(RETRY_MODE_ENV, "standard").strip() or "standard"
    if mode not in MODES:
        raise ValueError(f"{RETRY_MODE_ENV}={mode!r}: one of {', '.join(MODES)}")
    raw = os.environ.get(MAX_ATTEMPTS_ENV, str(DEFAULT_ATTEMPTS)).strip()
    try:
        attempts = int(raw)
    except ValueError:
        raise ValueError(f"{MAX_ATTEMPTS_ENV}={raw!r} is not a whole number") from None
    if attempts < 1:
        raise ValueError(f"{MAX_ATTEMPTS_ENV}={attempts}: at least 1 (the first attempt)")
    return {"mode": mode, "total_max_attempts": attempts}


def config(**overrides: Any) -> Config:
    """The library's botocore Config; `overrides` (timeouts, retries for a deadline-bound caller) win."""
    return Config(**{"retries": retries(), **overrides})


def client(service: str, **kwargs: Any) -> Any:
    """A boto3 client with the library's Config (merged under a `config=` the caller passes)."""
    import boto3

    given = kwargs.pop("config", None)
    merged = config().merge(given) if given is not None else config()
    return boto3.client(service, config=merged, **kwargs)


def resource(service: str, **kwargs: Any) -> Any:
    """A boto3 resource (DynamoDB's) with the library's Config."""
    import boto3

    given = kwargs.pop("config", None)
    merged = config().merge(given) if given is not None else config()
    return boto3.resource(service, config=merged, **kwargs)
