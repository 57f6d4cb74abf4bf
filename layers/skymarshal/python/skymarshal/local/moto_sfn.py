"""moto's Step Functions interpreter, made to parse each JSONPath once per process.

moto 5.2.5 evaluates every InputPath, OutputPath, ItemsPath and Parameters path with
`jsonpath_ng.ext.parse(path)`, and that function builds a new PLY parser, grammar tables included, on
every call: about 5 ms each, hundreds per disruption run (a quarter of the interpreter's own CPU). A parsed
path holds no state of its own (`find` reads the data it is given), so one parse per distinct path string
answers the same. The state machine has a few dozen distinct paths; the cache is bounded all the same.
moto is pinned (requirements.txt): this relies on where it imports `parse`.
"""

from __future__ import annotations

import functools
from typing import Any

_original: dict[str, Any] = {}


def install() -> None:
    """Idempotent; never undone (the answers are the same either way)."""
    from jsonpath_ng.ext import parse
    from moto.stepfunctions.parser.asl.utils import json_path

    if _original:
        return
    _original["parse"] = json_path.parse
    json_path.parse = functools.lru_cache(maxsize=1024)(parse)
