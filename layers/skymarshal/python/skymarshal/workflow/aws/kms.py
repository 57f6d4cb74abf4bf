"""The Signer port on KMS: an asymmetric key (ECC_NIST_P256) signing the raw statement with ECDSA_SHA_256."""

from __future__ import annotations

from ..ports import Signature
from .errors import Adapter, call

SIGNING_ALGORITHM = "ECDSA_SHA_256"


class KmsSigner(Adapter):
    """Signer over a KMS client."""

    service = "kms"

    def sign(self, key_id: str, message: bytes) -> Signature:
        signed = call(
            lambda: self.client.sign(
                KeyId=key_id, Message=message, MessageType="RAW", SigningAlgorithm=SIGNING_ALGORITHM
            )
        )
        return Signature(bytes(signed["Signature"]), str(signed["KeyId"]))

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        answer = call(
            lambda: self.client.verify(
                KeyId=key_id,
                Message=message,
                MessageType="RAW",
                Signature=signature,
                SigningAlgorithm=SIGNING_ALGORITHM,
            ),
            {"KMSInvalidSignatureException": {"SignatureValid": False}},
        )
        return bool(answer["SignatureValid"])
