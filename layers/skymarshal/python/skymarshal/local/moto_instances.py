"""moto keeps every model object it ever made; the local emulator's moto forgets them as Python would.

moto 5.2.5's `BaseModel.__new__` appends each new instance of every model class to a list on its class
(`instances_tracked`), only so that its dashboard (`/moto-api/data.json`) can list them, and nothing but a
full reset empties it. Every DynamoDB `Item` ever built (each write, each decoded copy, each transaction's
backup), every `Table` copy a transaction makes as its backup, every S3 key with its bytes, stays reachable
for the life of the process. A long-running local server leaked everything it ever replaced:

- executing the AUH fog closure at load factor 0.1: 110 transaction backups still alive (136 MB of item maps
  in 110 blocks, from moto_transact's copy of the bookings map), reached through `Table.instances_tracked`;
  the server grew from 0.9 GB to 5 GB in 33 s (killed at the cap) and to 24 GB at 0.78;
- runs in sequence, and a journal's replay after a crash (which makes the same objects again), the same way.

Here `BaseModel.__new__` builds the instance without remembering it, and the lists already filled are
emptied: an object lives as long as the account refers to it. The dashboard's data.json lists nothing;
nothing in the project reads it. moto is pinned (requirements.txt): this relies on `BaseModel.__new__`
and `model_data` being where they are.
"""

from __future__ import annotations

from typing import Any

_installed = False


def _new(cls: type, *args: Any, **kwargs: Any) -> Any:
    return object.__new__(cls)


def forget() -> int:
    """Empty every model class's list of instances; returns how many references were dropped."""
    from moto.core.model_instances import model_data

    dropped = 0
    for models in model_data.values():
        for model in models.values():
            tracked = model.__dict__.get("instances_tracked")
            if tracked:
                dropped += len(tracked)
                tracked.clear()
    return dropped


def install() -> None:
    """Idempotent; never undone (objects made meanwhile were never listed)."""
    from moto.core.common_models import BaseModel

    global _installed
    if _installed:
        return
    _installed = True
    BaseModel.__new__ = _new  # type: ignore[method-assign]
    forget()


def tracked() -> int:
    """How many model instances moto's classes still list (0 once installed): for the tests."""
    from moto.core.model_instances import model_data

    return sum(len(m.__dict__.get("instances_tracked", ())) for ms in model_data.values() for m in ms.values())
