"""A checkpoint saver that tells a store outage from anything else: every failure of the real saver (DynamoDB or S3
unreachable, throttled past its retries, access denied) surfaces as `CheckpointStoreDown`, so the agent runner can
continue the agent in memory instead of failing it (seed 003), while a bug in the agent still fails the agent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from langgraph.checkpoint.memory import InMemorySaver

T = TypeVar("T")


class CheckpointStoreDown(RuntimeError):
    """The checkpoint store failed; the message names the operation and the store's error."""


class GuardedSaver(BaseCheckpointSaver):
    def __init__(self, inner: BaseCheckpointSaver):
        super().__init__(serde=inner.serde)
        self.inner = inner

    def _guard(self, operation: str, call: Callable[[], T]) -> T:
        try:
            return call()
        except Exception as exc:  # whatever the store raised: the runner decides, with the reason kept
            raise CheckpointStoreDown(f"{operation}: {type(exc).__name__}: {exc}") from exc

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self._guard("get", lambda: self.inner.get_tuple(config))

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        found = self._guard("list", lambda: [*self.inner.list(config, filter=filter, before=before, limit=limit)])
        return iter(found)

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        return self._guard("put", lambda: self.inner.put(config, checkpoint, metadata, new_versions))

    def put_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        self._guard("put_writes", lambda: self.inner.put_writes(config, writes, task_id, task_path))

    def get_next_version(self, current: Any, channel: Any) -> Any:
        return self.inner.get_next_version(current, channel)


def memory_copy_of_last(inner: BaseCheckpointSaver, config: Any) -> tuple[InMemorySaver, bool]:
    """An in-memory saver holding the thread's last checkpoint if the store still gives it (True), else empty."""
    memory = InMemorySaver()
    try:
        last = inner.get_tuple(config)
    except Exception:  # the store is down for reads too: the retry starts from the beginning
        return memory, False
    if last is None:
        return memory, False
    memory.put(last.config, last.checkpoint, last.metadata, last.checkpoint.get("channel_versions", {}))
    return memory, True
