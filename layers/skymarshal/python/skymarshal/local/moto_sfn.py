"""moto's Step Functions interpreter, made to parse each JSONPath and build each AWS client once per process.

1. moto 5.2.5 evaluates every InputPath, OutputPath, ItemsPath and Parameters path with
`jsonpath_ng.ext.parse(path)`, and that function builds a new PLY parser, grammar tables included, on
every call: about 5 ms each, hundreds per disruption run (a quarter of the interpreter's own CPU). A parsed
path holds no state of its own (`find` reads the data it is given), so one parse per distinct path string
answers the same. The state machine has a few dozen distinct paths; the cache is bounded all the same.
2. Every Task state that invokes a Lambda builds a new boto3 client (`boto_client_for`), SSL context and
endpoint resolution included: about 0.1 s each, 21 per run. Clients are thread-safe and moto's are all
alike (fixed fake keys and config), so one per region, service and target (in-process or server port).
3. The interpreter deep-copies the state's data (`copy.deepcopy`) each time a state reads its input, the
context, a path or a result, and again when it resets a state's input or enters a Map: a third of a disruption run's CPU in the
bench profile, as a run's state carries the agents' answers. That data is JSON (parsed from the execution
input and the Lambdas' answers), and a copy that knows it is JSON walks dicts and lists directly instead
of deepcopy's memo and dispatch per node; anything else is left to deepcopy.
4. The interpreter appends every thread it starts (each execution, state, Map iteration and timeout: about 70 a
run) to a module-level list, `TMP_THREADS`, that nothing reads and nothing empties: `forget_finished_threads` drops
the finished ones when a run ends (a running thread is kept alive by the interpreter, not by the list).
5. StopExecution is final in AWS (ABORTED, no Catch runs). moto's interpreter marks the run stopped, but the state
that was running then fails to set its next state, and that error (caught by the state machine's Catch, or not)
replaces the stop: the run ends FAILED after a Record-failed-run path AWS would never take. `_stop_is_final` keeps
a stopped program stopped.
6. Every execution parses the state machine's definition again with the ANTLR grammar (pure Python): about 2 s
of CPU per run here, a tenth of the interpreter's. The parse tree of a definition is read, never changed, by the
preprocessor that builds the evaluation components, so one tree per definition text is kept (bounded) and each
execution still gets components of its own (`_parse`).
moto is pinned (requirements.txt): this relies on where it imports `parse`, `boto_client_for`, `copy` and
`TMP_THREADS`, on `Environment.set_error`, and on `AmazonStateLanguageParser.parse`'s two steps.
"""

from __future__ import annotations

import copy
import functools
import sys
import threading
from types import SimpleNamespace
from typing import Any

_original: dict[str, Any] = {}
_clients: dict[tuple[Any, ...], Any] = {}
_lock = threading.Lock()


def _client_for(region: str, service: str, state_credentials: Any = None) -> Any:  # moto's signature
    from moto.core.models import botocore_stubber
    from moto.settings import moto_server_port

    # the original ignores the credentials too: its clients differ only by these
    key = (region, service, botocore_stubber.enabled, moto_server_port())
    with _lock:  # boto3's default session is not safe to build clients from in parallel
        if key not in _clients:
            _clients[key] = _original["client"](region, service, state_credentials)
        return _clients[key]


_SCALARS = (str, int, float, bool, type(None))


def json_copy(value: Any) -> Any:
    """`copy.deepcopy` of JSON data (dicts, lists, strings, numbers, booleans, null), without the memo;
    any other value inside is deep-copied by `copy.deepcopy`."""
    kind = type(value)
    if kind is dict:
        return {key: json_copy(item) for key, item in value.items()}
    if kind is list:
        return [json_copy(item) for item in value]
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)


@functools.lru_cache(maxsize=32)
def _tree(definition: str) -> Any:
    """The ANTLR parse tree of a definition, as moto's parser builds it (a syntax error raises, uncached)."""
    from antlr4 import CommonTokenStream, InputStream  # type: ignore[import-untyped]
    from moto.stepfunctions.parser.asl.antlr.runtime.ASLLexer import ASLLexer
    from moto.stepfunctions.parser.asl.antlr.runtime.ASLParser import ASLParser
    from moto.stepfunctions.parser.asl.parse.asl_parser import ASLParserException, SyntaxErrorListener

    listener = SyntaxErrorListener()
    parser = ASLParser(CommonTokenStream(ASLLexer(InputStream(definition))))
    parser.removeErrorListeners()
    parser.addErrorListener(listener)
    tree = parser.state_machine()
    if listener.errors:
        raise ASLParserException(errors=listener.errors)
    return tree


def _parse(definition: str) -> tuple[Any, Any]:
    """AmazonStateLanguageParser.parse: the tree once per definition, fresh evaluation components every time."""
    from moto.stepfunctions.parser.asl.parse.preprocessor import Preprocessor

    tree = _tree(definition)
    return Preprocessor().visit(tree), tree


def install() -> None:
    """Idempotent; never undone (the answers are the same either way)."""
    from jsonpath_ng.ext import parse
    from moto.stepfunctions.parser.asl.utils import json_path

    if _original:
        return
    _original["parse"] = json_path.parse
    json_path.parse = functools.lru_cache(maxsize=1024)(parse)
    from moto.stepfunctions.parser.asl.component.state.exec.state_task import lambda_eval_utils  # noqa: F401
    from moto.stepfunctions.parser.asl.utils import boto_client

    _original["client"] = boto_client.boto_client_for
    # each module imported the function by name: replace it where it was imported
    for name, module in list(sys.modules.items()):
        if name.startswith("moto.stepfunctions") and getattr(module, "boto_client_for", None) is _original["client"]:
            module.boto_client_for = _client_for  # type: ignore[attr-defined]
    from moto.stepfunctions.parser.asl.component.common.path import result_path
    from moto.stepfunctions.parser.asl.component.common.string import string_expression
    from moto.stepfunctions.parser.asl.component.state.exec.state_map import state_map
    from moto.stepfunctions.parser.asl.eval import states

    for module in (states, string_expression, result_path, state_map):  # each copies only the state's data
        module.copy = SimpleNamespace(deepcopy=json_copy)  # type: ignore[attr-defined]
    from moto.stepfunctions.parser.asl.eval.environment import Environment

    _original["set_error"] = Environment.set_error
    Environment.set_error = _stop_is_final  # type: ignore[method-assign,assignment]
    from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser

    _original["asl_parse"] = AmazonStateLanguageParser.parse
    AmazonStateLanguageParser.parse = staticmethod(_parse)  # type: ignore[method-assign]


def _stop_is_final(env: Any, error: Any) -> None:
    """Environment.set_error, except on a program already stopped (StopExecution): it stays ABORTED, as in AWS."""
    from moto.stepfunctions.parser.asl.eval.program_state import ProgramStopped

    if isinstance(env._program_state, ProgramStopped):
        env.program_state_event.set()  # whoever waits on the state sees it settled
        env.program_state_event.clear()
        return
    _original["set_error"](env, error)


def forget_finished_threads() -> int:
    """Drop the finished threads from moto's `TMP_THREADS`; returns how many. A thread started while this runs
    may be dropped from the list too, which nothing notices: nothing reads it."""
    from moto.stepfunctions.parser.utils import TMP_THREADS

    finished = [thread for thread in TMP_THREADS if not thread.is_alive()]
    for thread in finished:
        TMP_THREADS.remove(thread)
    return len(finished)
