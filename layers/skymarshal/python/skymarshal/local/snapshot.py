"""Whole-service snapshots of the local account: moto's backends pickled to files, and read back.

DynamoDB and S3 are snapshotted at a quiet moment (after the seed, at start after a replay, at a clean
stop) and journaled in between (journal.py). KMS keys and the Cognito pool cannot be replayed from their
requests — CreateKey and CreateUserPool draw fresh random keys and ids — so those two small backends are
written whole after every request that changes them (a few KB, a few times a session).

moto's objects pickle as they are but for three things handled here: the cryptography private keys
(pickled as PKCS#8 DER), DynamoDB's ImportTable threads (finished imports are dropped: their tables
are what matters), and nothing else was found at moto 5.2.5 (the version is pinned).
"""

from __future__ import annotations

import copyreg
import os
import pickle
from pathlib import Path
from typing import Any

from .account import ACCOUNT_ID, REGION

DATA_SERVICES = ("dynamodb", "s3")  # snapshotted with the journal
KEY_SERVICES = ("kms", "cognito-idp")  # snapshotted whole after each change


def _backend(service: str):
    if service == "dynamodb":
        from moto.dynamodb.models import dynamodb_backends

        return dynamodb_backends[ACCOUNT_ID][REGION]
    if service == "s3":
        from moto.s3.models import s3_backends

        return s3_backends[ACCOUNT_ID]["aws"]
    if service == "kms":
        from moto.kms.models import kms_backends

        return kms_backends[ACCOUNT_ID][REGION]
    if service == "cognito-idp":
        from moto.cognitoidp.models import cognitoidp_backends

        return cognitoidp_backends[ACCOUNT_ID][REGION]
    raise ValueError(f"no snapshot for {service}")


def _load_private_key(der: bytes):
    from cryptography.hazmat.primitives.serialization import load_der_private_key

    return load_der_private_key(der, password=None)


def _reduce_private_key(key: Any):
    from cryptography.hazmat.primitives import serialization

    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return _load_private_key, (der,)


def _register_key_pickling() -> None:
    # pickle meets the Rust classes behind cryptography's abstract key types (cryptography is pinned)
    from cryptography.hazmat.bindings._rust import openssl

    for cls in (openssl.rsa.RSAPrivateKey, openssl.ec.ECPrivateKey, openssl.ed25519.Ed25519PrivateKey):
        copyreg.pickle(cls, _reduce_private_key)


_registered = False


def state_of(service: str) -> dict:
    """The backend's attributes as they can be pickled."""
    global _registered
    if not _registered:
        _register_key_pickling()
        _registered = True
    state = dict(_backend(service).__dict__)
    if service == "dynamodb":
        state["table_imports"] = {}  # threads; the tables they filled are in `tables`
    return state


def restore(service: str, state: dict) -> None:
    _backend(service).__dict__.update(state)


def write(path: Path, services: tuple[str, ...] | list[str]) -> int:
    """Pickle the services' backends to `path` atomically; returns the bytes written."""
    tmp = path.with_suffix(".tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    with tmp.open("wb") as out:
        pickle.dump({service: state_of(service) for service in services}, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()
        os.fsync(out.fileno())
    tmp.replace(path)
    return path.stat().st_size


def read(path: Path) -> list[str]:
    """Restore the services pickled in `path`; returns their names."""
    _register_key_pickling()
    with path.open("rb") as source:
        states = pickle.load(source)
    for service, state in states.items():
        restore(service, state)
    return list(states)
