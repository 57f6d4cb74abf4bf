"""One emulated AWS account: tables created from the shared specs, seeded with the synthetic airline.

In-process (`in_process_account`) for tests and one-off commands; as a background moto server on
127.0.0.1 (`skymarshal local start`, see server.py) so consecutive commands share one account.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager

from ..data.schema import Naming
from .account import BUCKET, MOTO_CONFIG, REGION, SEED_MARKER, LocalAccount, use_fake_credentials

# The account's names, for the modules that read them from here (defined once in account.py).
__all__ = [
    "BUCKET",
    "MOTO_CONFIG",
    "REGION",
    "SEED_MARKER",
    "LocalAccount",
    "in_process_account",
    "use_fake_credentials",
]


@contextmanager
def in_process_account(
    airline=None, naming: Naming | None = None, tables: Collection[str] | None = None
) -> Iterator[LocalAccount]:
    """A fresh emulated account for the duration of the block (with `tables`, only those hold the airline's
    rows; every table exists)."""
    from moto import mock_aws

    from . import pool_key
    from .moto_speedups import install

    use_fake_credentials()
    install()
    pool_key.install()  # the pool signs with this installation's key, not the one moto ships
    from .seeding import seed_in_place

    with mock_aws(config=MOTO_CONFIG):
        account = LocalAccount(naming=naming or Naming())
        if airline is None:
            account.create(None)
        else:  # moto runs in this process: its table model takes the rows directly, as the server's seeding does
            seed_in_place(account, airline, tables=tables)
        # SKYMARSHAL_LOCAL_FAULTS: a share of the calls made from here on fails as AWS would (local/faults.py)
        from .fault_hooks import from_env, install_in_process

        install_in_process(from_env(in_process=True))
        try:
            yield account
        finally:
            install_in_process(None)
