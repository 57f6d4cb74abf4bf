"""The local pool's tokens: signed with this installation's key, and a key anyone has is refused.

moto ships one RSA private key for every user pool (moto/cognitoidp/resources/jwks-private.json); a
DutyManager token signed with it was accepted by `skymarshal serve` and approved a run. Now the local
pool signs with a key generated per installation (local/pool_key.py) and serve trusts only that one.
"""

from __future__ import annotations

import time

import httpx
from joserfc import jwk, jwt
from moto.utilities.utils import load_resource

from skymarshal.api.identity import DevIdentity
from skymarshal.api.roles import Role
from skymarshal.local import pool_key


def _forged(identity: DevIdentity, key: dict, kid: str) -> str:
    now = int(time.time())
    claims = {
        "sub": "forger",
        "iss": identity.issuer,
        "aud": identity.client_id,
        "token_use": "id",
        "cognito:username": "forger",
        "cognito:groups": [Role.DUTY_MANAGER.value],
        "name": "Forged Duty Manager",
        "iat": now,
        "exp": now + 3600,
    }
    return jwt.encode({"alg": "RS256", "kid": kid}, claims, jwk.RSAKey.import_key(key))


def test_a_duty_manager_token_signed_with_motos_bundled_key_is_401(server, identity):
    for kid in ("dummy", pool_key.private_jwk()["kid"]):  # moto's kid, and ours (the key must not matter less)
        token = _forged(identity, load_resource("cognitoidp/resources/jwks-private.json"), kid)
        reply = httpx.get(f"{server}/api/disruptions", headers={"Authorization": f"Bearer {token}"})
        assert reply.status_code == 401, kid
    # the same claims signed with the installation's key pass: the refusal above is the key, not the claims
    genuine = _forged(identity, pool_key.private_jwk(), pool_key.private_jwk()["kid"])
    assert httpx.get(f"{server}/api/disruptions", headers={"Authorization": f"Bearer {genuine}"}).status_code == 200


def test_the_pool_signs_with_the_installation_key(identity):
    token = identity.login(Role.OBSERVER)["id_token"]
    header = jwt.decode(token, jwk.RSAKey.import_key(pool_key.private_jwk())).header
    assert header["kid"] == pool_key.private_jwk()["kid"] != "dummy"
    assert pool_key.key_file().stat().st_mode & 0o077 == 0  # readable by its owner only


def test_the_development_login_follows_the_pool_after_local_aws_lost_it(account):
    identity = DevIdentity(account.client("cognito-idp"))
    verifier = identity.verifier(pool_key.public_jwks())
    account.client("cognito-idp").delete_user_pool(UserPoolId=identity.pool_id)  # a reset under a running serve
    token = identity.login(Role.DUTY_MANAGER)["id_token"]  # made the pool again instead of a 500
    assert verifier.claims(f"Bearer {token}")["cognito:groups"] == [Role.DUTY_MANAGER.value]
