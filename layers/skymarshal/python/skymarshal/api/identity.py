"""Identity tokens: verifying Cognito ID tokens, and the development users of local AWS.

In AWS, API Gateway's Cognito authorizer verifies the token for the REST API; the streaming function and
the local server verify it here (signature against the pool's JWKS, issuer, audience, expiry, token_use).
Locally the user pool is moto's: `DevIdentity` creates it with one development user per role, and its
tokens are real RS256 JWTs verified the same way — against the public key the caller names (the local
installation's own, local/pool_key.py), never the one moto publishes with its package, which anyone can
sign with. `DevVerifier` follows the pool as it is now, so a local restart or reset does not strand
`skymarshal serve`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jwt

from .roles import Role

POOL_NAME = "skymarshal-local-dev"
CLIENT_NAME = "skymarshal-console-dev"
DEV_PASSWORD = "Dev-only-Passw0rd!"  # local emulator only: printed on the console's development login
DEV_USERS = {
    Role.DUTY_MANAGER: ("dev-duty-manager", "Dev Duty Manager"),
    Role.OBSERVER: ("dev-observer", "Dev Observer"),
    Role.ADMIN: ("dev-admin", "Dev Admin"),
}


class InvalidToken(Exception):
    """The token is missing, malformed, expired, or not from this user pool."""


@dataclass(frozen=True)
class TokenVerifier:
    issuer: str
    audience: str
    jwks: dict | None = None  # the pool's keys; None: fetched from the issuer's JWKS URL

    def claims(self, authorization: str | None) -> dict[str, Any]:
        """The verified claims of an `Authorization: Bearer <ID token>` header."""
        if not authorization or not authorization.lower().startswith("bearer "):
            raise InvalidToken("send the ID token as 'Authorization: Bearer <token>'")
        token = authorization.split(None, 1)[1].strip()
        try:
            header = jwt.get_unverified_header(token)
            key = self._key(header.get("kid"))
            claims = jwt.decode(
                token,
                key=key,
                algorithms=["RS256"],
                audience=self.audience,
                issuer=self.issuer,
                options={"require": ["exp", "iss", "aud", "token_use"]},
            )
        except jwt.PyJWTError as exc:
            raise InvalidToken(f"the token was refused: {exc}") from None
        if claims.get("token_use") != "id":
            raise InvalidToken("send the ID token, not the access token")
        return claims

    def _key(self, kid: str | None):
        if self.jwks is None:
            if kid is None:
                raise InvalidToken("the token's header names no key (kid)")
            return jwt.PyJWKClient(f"{self.issuer}/.well-known/jwks.json", cache_keys=True).get_signing_key(kid).key
        for candidate in self.jwks.get("keys", []):
            if candidate.get("kid") == kid:
                return jwt.PyJWK(candidate).key
        raise InvalidToken(f"the token's key {kid!r} is not one of the user pool's")


class DevIdentity:
    """The local user pool (moto): a console client, the three groups, a development user in each."""

    def __init__(self, cognito: Any):
        self.cognito = cognito
        self.pool_id, self.client_id = self._ensure()

    def _ensure(self) -> tuple[str, str]:
        pools = self.cognito.list_user_pools(MaxResults=60)["UserPools"]
        pool_id = next((p["Id"] for p in pools if p["Name"] == POOL_NAME), None)
        if pool_id is None:
            pool_id = self.cognito.create_user_pool(PoolName=POOL_NAME)["UserPool"]["Id"]
            for role in Role:
                self.cognito.create_group(GroupName=role.value, UserPoolId=pool_id)
            for role, (username, name) in DEV_USERS.items():
                self.cognito.admin_create_user(
                    UserPoolId=pool_id,
                    Username=username,
                    MessageAction="SUPPRESS",
                    UserAttributes=[{"Name": "name", "Value": name}],
                )
                self.cognito.admin_set_user_password(
                    UserPoolId=pool_id, Username=username, Password=DEV_PASSWORD, Permanent=True
                )
                self.cognito.admin_add_user_to_group(UserPoolId=pool_id, Username=username, GroupName=role.value)
        clients = self.cognito.list_user_pool_clients(UserPoolId=pool_id, MaxResults=60)["UserPoolClients"]
        client_id = next((c["ClientId"] for c in clients if c["ClientName"] == CLIENT_NAME), None)
        if client_id is None:
            client_id = self.cognito.create_user_pool_client(
                UserPoolId=pool_id,
                ClientName=CLIENT_NAME,
                GenerateSecret=False,
                ExplicitAuthFlows=["ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"],
                ReadAttributes=["name", "email"],
            )["UserPoolClient"]["ClientId"]
        return pool_id, client_id

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.{self.cognito.meta.region_name}.amazonaws.com/{self.pool_id}"

    def verifier(self, jwks: dict) -> DevVerifier:
        """Verification against `jwks` (the pool's public keys) with this pool's issuer and client."""
        return DevVerifier(self, jwks)

    def login(self, role: Role) -> dict[str, Any]:
        username, name = DEV_USERS[role]
        try:
            result = self._authenticate(username)
        except self.cognito.exceptions.ResourceNotFoundException:
            # local AWS was reset (or restarted without its state) under a running `serve`: make the pool again
            self.pool_id, self.client_id = self._ensure()
            result = self._authenticate(username)
        return {
            "id_token": result["IdToken"],
            "expires_in": result["ExpiresIn"],
            "username": username,
            "name": name,
            "role": role.value,
        }

    def _authenticate(self, username: str) -> dict[str, Any]:
        return self.cognito.admin_initiate_auth(
            UserPoolId=self.pool_id,
            ClientId=self.client_id,
            AuthFlow="ADMIN_USER_PASSWORD_AUTH",
            AuthParameters={"USERNAME": username, "PASSWORD": DEV_PASSWORD},
        )["AuthenticationResult"]


class DevVerifier(TokenVerifier):
    """A TokenVerifier whose issuer and audience are the development pool's current ones."""

    def __init__(self, identity: DevIdentity, jwks: dict):
        super().__init__(issuer=identity.issuer, audience=identity.client_id, jwks=jwks)
        object.__setattr__(self, "identity", identity)

    def claims(self, authorization: str | None) -> dict[str, Any]:
        identity: DevIdentity = self.__dict__["identity"]
        current = TokenVerifier(issuer=identity.issuer, audience=identity.client_id, jwks=self.jwks)
        return current.claims(authorization)
