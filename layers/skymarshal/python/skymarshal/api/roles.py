"""Who is calling and what they may do: Cognito groups → roles, checked per route.

API Gateway's Cognito authorizer has validated the token before the Lambda runs; its claims arrive in
`requestContext.authorizer.claims` (the local server puts the claims of a token it verified in the same
place). DutyManager approves and overrides; Observer reads; Admin configures and reads. The approver's
identity recorded with a decision is the token's, never a name from the request body.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from pydantic import BaseModel


class Role(str, Enum):
    DUTY_MANAGER = "DutyManager"
    OBSERVER = "Observer"
    ADMIN = "Admin"


READERS = (Role.DUTY_MANAGER, Role.OBSERVER, Role.ADMIN)
DECIDERS = (Role.DUTY_MANAGER,)


class Caller(BaseModel):
    username: str
    name: str  # what the audit trail records as the decider
    email: str | None = None
    roles: frozenset[Role]


def parse_groups(value: Any) -> frozenset[Role]:
    """`cognito:groups` as API Gateway passes it: a list, or a string such as "DutyManager,Observer" or
    "[DutyManager Observer]"; unknown groups are ignored."""
    names = value if isinstance(value, list) else re.split(r"[\s,\[\]]+", str(value or ""))
    known = {role.value: role for role in Role}
    return frozenset(known[n] for n in names if n in known)


def caller_from_claims(claims: dict | None) -> Caller | None:
    if not claims or not (claims.get("cognito:username") or claims.get("sub")):
        return None
    username = str(claims.get("cognito:username") or claims["sub"])
    return Caller(
        username=username,
        name=str(claims.get("name") or username),
        email=claims.get("email"),
        roles=parse_groups(claims.get("cognito:groups")),
    )
