"""Typed reasons: why a thing was refused or what a planner must know about it (audit trail).

Each rule module narrows ``code`` to its own ``Literal`` of reason codes, so a reason is always one of a
known list and the message is the human sentence.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Reason(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str
    message: str
