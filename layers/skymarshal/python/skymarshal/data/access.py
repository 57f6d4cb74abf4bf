"""The data handle: GetItem, Query (paginated) and BatchGetItem — no Scan — behind the access matrix.

A handle bound to an agent refuses any table outside the agent's row of AGENT_TABLE_ACCESS before a
request is made; the agent Lambda's IAM policy enforces the same matrix in AWS.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from boto3.dynamodb.conditions import ConditionBase, ConditionExpressionBuilder

from . import aws
from .overlay import Overlay
from .read_cache import ReadCache, condition_key
from .schema import AGENT_TABLE_ACCESS, TABLES_BY_NAME, Naming

Item = dict[str, Any]  # a DynamoDB item as boto3 returns it (boto3 ships no types)
K = TypeVar("K", bound=Hashable)
# Queries a view sends at once (query_each): a request's time is mostly waiting on the service, and botocore's
# default connection pool holds 10 connections per client.
QUERY_WORKERS = 8


class AccessDenied(PermissionError):
    """An agent asked for a table outside its row of the access matrix."""

    def __init__(self, agent: str, table: str):
        allowed = ", ".join(AGENT_TABLE_ACCESS[agent])
        super().__init__(f"agent {agent!r} may not read table {table!r}; its tables are: {allowed}")
        self.agent, self.table = agent, table


class DataHandle:
    def __init__(
        self,
        agent: str | None = None,
        *,
        naming: Naming | None = None,
        resource: Any = None,
        endpoint_url: str | None = None,
        region_name: str | None = None,
        overlay: Overlay | None = None,
        cache: ReadCache | None = None,
        _tables: dict[str, Any] | None = None,
    ):
        if agent is not None and agent not in AGENT_TABLE_ACCESS:
            raise ValueError(f"unknown agent {agent!r}; expected one of {', '.join(AGENT_TABLE_ACCESS)}")
        self.agent = agent
        self.naming = naming or Naming.from_env()
        self.resource = resource or aws.resource("dynamodb", endpoint_url=endpoint_url, region_name=region_name)
        self.calls: dict[str, int] = {}
        self._calls_lock = threading.Lock()
        self.overlay = overlay or Overlay()
        self.cache = cache  # None: every read is a request (read_cache.py says when a cache is right)
        # boto3 builds a Table's class from its JSON model each time (about a millisecond): once per name,
        # shared with the handles derived from this one (an agent Lambda builds its handle once per container)
        self._tables: dict[str, Any] = _tables if _tables is not None else {}

    def for_agent(self, agent: str) -> DataHandle:
        """The same connection, what-if overlay and read cache, restricted to one agent's tables."""
        return self._derived(agent, self.overlay, self.cache)

    def with_overlay(self, overlay: Overlay | None) -> DataHandle:
        """The same connection, agent and read cache, reading through a report's what-if overlay (data/overlay.py)."""
        return self._derived(self.agent, overlay, self.cache)

    def with_read_cache(self) -> DataHandle:
        """The same handle with a fresh read cache: for one invocation only (data/read_cache.py)."""
        return self._derived(self.agent, self.overlay, ReadCache())

    def _derived(self, agent: str | None, overlay: Overlay | None, cache: ReadCache | None) -> DataHandle:
        return DataHandle(
            agent, naming=self.naming, resource=self.resource, overlay=overlay, cache=cache, _tables=self._tables
        )

    def allowed(self, table: str) -> bool:
        return self.agent is None or table in AGENT_TABLE_ACCESS[self.agent]

    def _table(self, table: str) -> Any:  # boto3's dynamodb.Table (untyped)
        if table not in TABLES_BY_NAME:
            raise KeyError(f"unknown table {table!r}")
        if self.agent is not None and not self.allowed(table):
            raise AccessDenied(self.agent, table)
        name = self.naming(table)
        found = self._tables.get(name)
        if found is None:
            found = self._tables[name] = self.resource.Table(name)
        return found

    def _count(self, operation: str, table: str) -> None:
        key = f"{operation}:{table}"
        with self._calls_lock:  # query_each counts from several threads
            self.calls[key] = self.calls.get(key, 0) + 1

    def get(self, table: str, key: dict[str, Any]) -> Item | None:
        target = self._table(table)  # the access check comes before the cache
        known, item = self.cache.row(table, key) if self.cache is not None else (False, None)
        if not known:
            self._count("GetItem", table)
            item = target.get_item(Key=key).get("Item")
            if self.cache is not None:
                self.cache.remember_rows(table, [key], [item] if item else [], TABLES_BY_NAME[table].key_names)
        return self.overlay.got(table, key, item) if self.overlay else item

    def query(
        self,
        table: str,
        key_condition: ConditionBase,
        *,
        index: str | None = None,
        forward: bool = True,
        limit: int | None = None,
    ) -> list[Item]:
        """All pages of a Query on the table or one of its indexes (checked against the schema)."""
        if index is not None:
            TABLES_BY_NAME[table].index(index)
        target = self._table(table)
        # Only whole answers are cached: a limited one may stop before the last page.
        request = (
            (table, index, condition_key(key_condition), forward) if self.cache is not None and limit is None else None
        )
        cached = self.cache.query(request) if self.cache is not None and request is not None else None
        if cached is not None:
            return self.overlay.queried(table, cached, key_condition, index, forward) if self.overlay else cached
        # The expression is built here, by a builder of its own: the one boto3's Table shares between calls resets
        # its placeholder counters on each, so two threads' Queries (query_each) could swap placeholders.
        built = ConditionExpressionBuilder().build_expression(key_condition, is_key_condition=True)
        kwargs: dict[str, Any] = {
            "KeyConditionExpression": built.condition_expression,
            "ExpressionAttributeNames": built.attribute_name_placeholders,
            "ExpressionAttributeValues": built.attribute_value_placeholders,
            "ScanIndexForward": forward,
        }
        if index:
            kwargs["IndexName"] = index
        if limit is not None and not self.overlay:  # an overlay may drop rows: it reads on to fill the limit
            kwargs["Limit"] = limit
        items: list[Item] = []
        while True:
            self._count("Query", table)
            page = target.query(**kwargs)
            items.extend(page.get("Items", []))
            if limit is not None and len(items) >= limit and not self.overlay:
                return items[:limit]
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        if self.cache is not None and request is not None:
            self.cache.remember_query(request, items)
        if self.overlay:
            items = self.overlay.queried(table, items, key_condition, index, forward)
        return items[:limit] if limit is not None else items

    def query_each(
        self, table: str, conditions: Mapping[K, ConditionBase], *, index: str | None = None
    ) -> dict[K, list[Item]]:
        """Several whole Queries at once (one per key of `conditions`, QUERY_WORKERS at a time): what a view needs
        of many partitions — a day's flights' crews, its tails' work orders — without waiting on each in turn. boto3's
        clients are thread-safe; the Table object is built once here, before the threads share it."""
        self._table(table)
        if len(conditions) <= 1:
            return {key: self.query(table, c, index=index) for key, c in conditions.items()}
        with ThreadPoolExecutor(max_workers=QUERY_WORKERS, thread_name_prefix="query") as pool:
            answers = {key: pool.submit(self.query, table, c, index=index) for key, c in conditions.items()}
            return {key: answer.result() for key, answer in answers.items()}

    def batch_get(self, table: str, keys: Iterable[dict[str, Any]]) -> list[Item]:
        """BatchGetItem in chunks of 100, retrying unprocessed keys with backoff."""
        self._table(table)  # access check, before the cache
        name = self.naming(table)
        unique = list({tuple(sorted(k.items())): k for k in keys}.values())
        cache = self.cache
        wanted = [key for key in unique if not cache.row(table, key)[0]] if cache is not None else unique
        fetched: list[Item] = []
        for start in range(0, len(wanted), 100):
            request = {name: {"Keys": wanted[start : start + 100]}}
            for attempt in range(8):
                self._count("BatchGetItem", table)
                response = self.resource.batch_get_item(RequestItems=request)
                fetched.extend(response.get("Responses", {}).get(name, []))
                request = response.get("UnprocessedKeys") or {}
                if not request:
                    break
                time.sleep(min(2.0, 0.05 * 2**attempt))
            else:
                raise RuntimeError(f"BatchGetItem on {table} left keys unprocessed after 8 attempts")
        items = fetched
        if cache is not None:
            cache.remember_rows(table, wanted, fetched, TABLES_BY_NAME[table].key_names)
            # in the order of the keys, as the table answers a whole batch (a cached row where it was read before)
            items = [row for row in (cache.row(table, key)[1] for key in unique) if row is not None]
        return self.overlay.batch_got(table, unique, items) if self.overlay else items
