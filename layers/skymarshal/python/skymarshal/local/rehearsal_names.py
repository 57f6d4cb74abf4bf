"""The deploy rehearsal's names, shared by the deployment (rehearsal.py) and the demo run on it (rehearsal_demo.py):
the account and region (the emulated account's, account.py), the CDK bootstrap's asset bucket and version
parameter, the demo's report, the marker of what was skipped, and the one-line failure."""

from __future__ import annotations

from collections.abc import Callable

from .account import ACCOUNT_ID, REGION

ACCOUNT, QUALIFIER = ACCOUNT_ID, "hnb659fds"  # moto's account; the CDK bootstrap's default qualifier
ASSET_BUCKET = f"cdk-{QUALIFIER}-assets-{ACCOUNT}-{REGION}"
VERSION_PARAMETER = f"/cdk-bootstrap/{QUALIFIER}/version"
DEMO_PROMPT = "Flight EY123 on January 20th had a mechanical failure"
SKIPPED = "rehearsal-skipped"
Echo = Callable[[str], None]


class RehearsalError(RuntimeError):
    """A stack did not deploy, or the demo did not finish; the message says which and why, in one line."""
