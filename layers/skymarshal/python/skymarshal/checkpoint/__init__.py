"""LangGraph checkpoint persistence: the saver chosen from the environment, thread ids, thread registry.

saver.py: `checkpointer_from_env()`, which returns a DynamoDBSaver, an InMemorySaver or None.
threads.py: `thread_id()` / `parse_thread_id()` and `InMemoryThreadRegistry`; registry_dynamodb.py:
`ThreadRegistry` (Checkpoints table). config.py: the environment variables and the TTL / S3 constants that
infra shares.
"""

from .config import (
    BACKENDS,
    CHECKPOINT_LIFECYCLE_RULE_ID,
    CHECKPOINT_S3_PREFIX,
    CHECKPOINT_TTL_DAYS,
    CheckpointSettings,
    lifecycle_rule_id,
)
from .registry_dynamodb import ThreadRegistry, thread_registry_from_env
from .registry_memory import InMemoryThreadRegistry
from .saver import build_checkpointer, checkpointer_from_env
from .threads import (
    EVENTS,
    PHASES,
    THREAD_STATUSES,
    TRANSITIONS,
    BaseThreadRegistry,
    ConcurrentUpdate,
    IllegalTransition,
    ThreadClosed,
    ThreadError,
    ThreadEvent,
    ThreadInfo,
    ThreadKey,
    UnknownThread,
    parse_thread_id,
    thread_id,
)

__all__ = [
    "BACKENDS",
    "CHECKPOINT_LIFECYCLE_RULE_ID",
    "CHECKPOINT_S3_PREFIX",
    "CHECKPOINT_TTL_DAYS",
    "EVENTS",
    "PHASES",
    "THREAD_STATUSES",
    "TRANSITIONS",
    "BaseThreadRegistry",
    "CheckpointSettings",
    "ConcurrentUpdate",
    "IllegalTransition",
    "InMemoryThreadRegistry",
    "ThreadClosed",
    "ThreadError",
    "ThreadEvent",
    "ThreadInfo",
    "ThreadKey",
    "ThreadRegistry",
    "UnknownThread",
    "build_checkpointer",
    "checkpointer_from_env",
    "lifecycle_rule_id",
    "parse_thread_id",
    "thread_id",
    "thread_registry_from_env",
]
