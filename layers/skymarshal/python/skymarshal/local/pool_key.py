"""The local user pool's signing key: one per installation, never the key that ships with moto.

moto signs every user pool's tokens with one RSA key published in its own package
(`moto/cognitoidp/resources/jwks-private.json`), so anyone could forge a DutyManager token that a
verifier trusting moto's public key accepts. Here the key is generated on first use and kept in
$SKYMARSHAL_HOME/local/pool-signing-key.json (mode 0600); moto's pools sign with it (`install`), its
JWKS endpoint publishes its public half, and `skymarshal serve` verifies against that public half only.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Any

from .account import home

_installed: dict[str, Any] = {}


def key_file() -> Path:
    return home() / "local" / "pool-signing-key.json"


def private_jwk() -> dict:
    """The installation's private JWK, created (RSA 2048, a random kid) the first time."""
    path = key_file()
    try:
        return json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        pass
    from joserfc.jwk import RSAKey

    key = RSAKey.generate_key(
        2048, parameters={"kid": f"skymarshal-{secrets.token_hex(8)}", "alg": "RS256", "use": "sig"}
    )
    data = key.as_dict(private=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(data, out)
    tmp.replace(path)
    return data


def public_jwks() -> dict:
    """The JWKS a verifier should trust for the local pool."""
    public = {k: v for k, v in private_jwk().items() if k in ("kty", "n", "e", "kid", "alg", "use")}
    return {"keys": [public]}


class _Signer:
    """Stands in for joserfc's `jwt` module inside moto.cognitoidp.models: signs with the installation's
    key and names it in the header (moto hard-codes kid "dummy", its own key's)."""

    def __init__(self, real):
        self._real = real

    def encode(self, header: dict, claims: dict, key: Any, *args: Any, **kwargs: Any) -> str:
        return self._real.encode({**header, "kid": key.kid}, claims, key, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def install() -> None:
    """Make moto's user pools (existing and new) sign with, and publish, this installation's key."""
    import moto.cognitoidp.models as models
    import moto.cognitoidp.responses as responses
    from joserfc import jwk

    key = jwk.RSAKey.import_key(private_jwk())
    if _installed.get("kid") == key.kid:
        return
    if "init" not in _installed:
        _installed["init"] = models.CognitoIdpUserPool.__init__
        models.jwt = _Signer(models.jwt)  # type: ignore[assignment]

    def init(self, *args: Any, **kwargs: Any) -> None:
        _installed["init"](self, *args, **kwargs)
        self.json_web_key = jwk.RSAKey.import_key(private_jwk())

    models.CognitoIdpUserPool.__init__ = init  # type: ignore[method-assign]
    responses.CognitoIdpJsonWebKeyResponse.json_web_key = json.dumps(public_jwks()).encode()
    _installed["kid"] = key.kid
