"""botocore's per-request work that the emulated account does not need, done once or not at all.

botocore 1.44 builds the User-Agent header twice for every request (when the request is made and again before it
is sent), walking the SDK, platform, config and feature metadata each time: 4 % of a local run's CPU in the profile
of `python -m bench.workflow --profile`, more than moto's whole Query. The string depends only on the client's
`UserAgentString` (fixed once the client exists: a client config makes a copy) and on the feature ids of the
request (a paginator, a waiter, the retry mode), so it is built once per pair and remembered for as long as the
client lives. The header sent is the same string: `tests/local/test_client_speedups.py` compares them.

botocore parses every DynamoDB answer by walking its output shape, each attribute value an `AttributeValue`
structure looked up member by member: 13 % of a local run's CPU in the same profile (`_handle_map`), more than
moto's whole side of a Query. An item's attributes come off the wire already in the form the parser returns
(`{"S": "..."}`, `{"N": "12"}`, `{"M": {...}}`: strings stay strings, numbers stay text), so a map of attribute
values whose every value is of that form (`moto_wire.is_wire`) is kept as `json.loads` built it; one with a binary
value (base64 on the wire, bytes once parsed) or anything unknown takes botocore's own path. The test parses the
same answers both ways.

Each new botocore session reads its endpoints and service models from JSON again (a fresh `Loader`): LangGraph's
DynamoDB checkpointer makes a session for every agent it checkpoints, moto's EC2 module three at import, so each run of
the state machine parsed the same files again and again (3 % of a workflow module's CPU, 1.2 s of each local server's
start). Here every session with the same data path shares one `Loader`, as one session's clients already share
theirs: the files are read once a process, and a session whose data path differs gets its own.

Installed with the other speed-ups of the local emulator (moto_speedups.install); a deployed Lambda never imports
`local/`.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

from .moto_wire import is_wire

_built: weakref.WeakKeyDictionary[Any, dict[frozenset[str], str]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_original: list[Callable[[Any], str]] = []
_original_map: list[Callable[[Any, Any, Any], Any]] = []
_original_loader: list[Callable[[str | None], Any]] = []
_loaders: dict[str | None, Any] = {}


def _features(user_agent: Any) -> frozenset[str]:
    from botocore.context import get_context

    context = get_context()
    return frozenset(user_agent._client_features or ()) | frozenset(context.features if context else ())


def _to_string(self: Any) -> str:
    """`UserAgentString.to_string`, remembered per instance and request features."""
    features = _features(self)
    with _lock:
        known = _built.get(self)
        if known is not None and features in known:
            return known[features]
    built = _original[0](self)
    with _lock:
        _built.setdefault(self, {})[features] = built
    return built


_DYNAMODB_VALUE = frozenset({"S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"})


def _handle_map(self: Any, shape: Any, value: Any) -> Any:
    """`BaseJSONParser._handle_map`, a map of DynamoDB attribute values already in parsed form kept as it is (another
    service's `AttributeValue`, a tagged union of other members, takes botocore's path)."""
    target = shape.value
    if (
        target.name == "AttributeValue"
        and isinstance(value, dict)
        and target.members.keys() == _DYNAMODB_VALUE
        and all(map(is_wire, value.values()))
    ):
        return value
    return _original_map[0](self, shape, value)


def _shared_loader(search_path_string: str | None = None) -> Any:
    """`botocore.loaders.create_loader`, one `Loader` per data path for the whole process."""
    with _lock:
        loader = _loaders.get(search_path_string)
        if loader is None:
            loader = _loaders[search_path_string] = _original_loader[0](search_path_string)
    return loader


def installed() -> bool:
    return bool(_original)


def install() -> None:
    """Idempotent."""
    import botocore.session
    from botocore.parsers import BaseJSONParser
    from botocore.useragent import UserAgentString

    if _original:
        return
    _original.append(UserAgentString.to_string)
    UserAgentString.to_string = _to_string
    _original_map.append(BaseJSONParser._handle_map)
    BaseJSONParser._handle_map = _handle_map
    _original_loader.append(botocore.session.create_loader)
    botocore.session.create_loader = _shared_loader


def uninstall() -> None:
    import botocore.session
    from botocore.parsers import BaseJSONParser
    from botocore.useragent import UserAgentString

    if _original:
        UserAgentString.to_string = _original.pop()
        BaseJSONParser._handle_map = _original_map.pop()
        botocore.session.create_loader = _original_loader.pop()
        _built.clear()
        _loaders.clear()
