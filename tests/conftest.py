"""Session fixtures: the synthetic airline (generated once) and one emulated account seeded with it.

SKYMARSHAL_TEST_LOAD_FACTOR lowers the passenger volume for a quick local loop; CI uses the default.
"""

from __future__ import annotations

import os
import uuid
from contextlib import contextmanager

import pytest

from skymarshal.data.generator import GeneratorConfig, generate
from skymarshal.data.schema import Naming
from skymarshal.local import control
from skymarshal.local.emulator import LocalAccount, in_process_account

LOAD_FACTOR = float(os.environ.get("SKYMARSHAL_TEST_LOAD_FACTOR", "0.78"))


@pytest.fixture(scope="session")
def airline():
    return generate(GeneratorConfig(load_factor=LOAD_FACTOR))


@pytest.fixture(scope="session")
def account(airline):
    with in_process_account(airline) as seeded:
        yield seeded


@pytest.fixture
def handle(account):
    return account.handle()


@pytest.fixture
def blank_account(account) -> LocalAccount:
    """Empty tables under a fresh name prefix in the same emulated account: isolated, no second mock."""
    isolated = LocalAccount(naming=Naming(prefix=f"t{uuid.uuid4().hex[:8]}-"))
    isolated.create()
    return isolated


@pytest.fixture
def local(account, monkeypatch):
    """CLI commands run against the session's seeded account (instead of starting one), offline."""
    @contextmanager
    def session_account(echo=print):
        yield account
    monkeypatch.setattr(control, "account", session_account)
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
