"""The Signer port on KMS: an asymmetric key (ECC_NIST_P256) signing the raw statement with ECDSA_SHA_256."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ...data import aws as clients
from ..ports import Signature
from .errors import service_error

SIGNING_ALGORITHM = "ECDSA_SHA_256"


class KmsSigner:
    """Signer over a KMS client (the default credentials' unless one is given)."""

    def __init__(self, client: Any = None):
        self._client = client

    @property
    def client(self) -> Any:
        self._client = self._client or clients.client("kms")
        return self._client

    def sign(self, key_id: str, message: bytes) -> Signature:
        try:
            signed = self.client.sign(
                KeyId=key_id, Message=message, MessageType="RAW", SigningAlgorithm=SIGNING_ALGORITHM
            )
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc
        return Signature(bytes(signed["Signature"]), str(signed["KeyId"]))

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        try:
            return bool(
                self.client.verify(
                    KeyId=key_id,
                    Message=message,
                    MessageType="RAW",
                    Signature=signature,
                    SigningAlgorithm=SIGNING_ALGORITHM,
                )["SignatureValid"]
            )
        except ClientError as exc:
            if exc.response["Error"]["Code"] == "KMSInvalidSignatureException":
                return False
            raise service_error(exc) from exc
        except BotoCoreError as exc:
            raise service_error(exc) from exc
