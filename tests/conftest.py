"""Session fixtures: the synthetic airline (generated once) and one emulated account seeded with it; the tiers.

Every test gets one tier marker from what it uses (`tier_of`): `system` (the state machine, the API, the
browser), `infra` (the CDK synthesis, cfn-lint, cdk-nag), `integration` (the seeded account, the whole
airline, moto, a socket) or `unit` (none of these; sockets off). `make test-unit` runs the unit tier alone.
Under pytest-xdist each worker seeds its own account and synthesizes once (cheap at the test volume), so
the tests spread evenly over the workers.

SKYMARSHAL_TEST_LOAD_FACTOR sets the passenger volume of the session's airline (the smallest that holds the
demo situations by default; `make test-full` runs at the production default, 0.78).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_socket
from hypothesis import settings

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

import aws_cdk as cdk
from account_guard import changes, fingerprint
from learning_records import forget_ids, forget_learning, learning_ids, settle_runs

from infra import SkyMarshalStacks, build_app, cdk_json_context
from skymarshal.data.generator import GeneratorConfig, generate
from skymarshal.data.schema import Naming
from skymarshal.local import control
from skymarshal.local import workflow as local_workflow
from skymarshal.local.emulator import LocalAccount, in_process_account
from skymarshal.local.template import WORKFLOW_TEMPLATE
from skymarshal.workflow.tables import WorkflowTables

# Property tests judge what an example does, never how fast: speed lives in the benchmarks, and a per-example
# deadline fails on a loaded 2-core machine (CI, or the suite beside a benchmark) for nothing the code did.
settings.register_profile("skymarshal", deadline=None)
settings.load_profile("skymarshal")

LOAD_FACTOR = float(os.environ.get("SKYMARSHAL_TEST_LOAD_FACTOR", "0.1"))
# The network agent's optimizer searches to its time budget (5 s a round by default) in every flight run that
# reaches a second tail: the suite checks its path, `make bench-recovery` its quality. Local servers inherit it.
os.environ.setdefault("SKYMARSHAL_NETWORK_OPTIMIZER_SECONDS", "1")

# What puts a test in a tier, highest tier first: the fixtures it uses (directly or through others).
TIER_FIXTURES: dict[str, frozenset[str]] = {
    "system": frozenset({"wf", "call", "server", "calls", "restore"}),
    "infra": frozenset({"synthesized", "make_app"}),
    "integration": frozenset({"account", "airline", "handle", "blank_account", "local", "ckpt_aws", "fake_bedrock"}),
}
TIERS = ("system", "infra", "integration", "unit")


def tier_of(item: pytest.Item) -> str:
    """The test's tier: one it declares (a heavy test with no heavy fixture), else from its fixtures; a module
    using moto itself or a test allowed sockets is integration."""
    for tier in TIERS:
        if item.get_closest_marker(tier):
            return tier
    used = set(getattr(item, "fixturenames", ()))
    for tier, fixtures in TIER_FIXTURES.items():
        if used & fixtures:
            return tier
    module = getattr(item, "module", None)
    if item.get_closest_marker("enable_socket") or (module is not None and "mock_aws" in vars(module)):
        return "integration"
    return "unit"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test marked with its tier; modules holding a heavier tier first, each module's tests together and in
    their order. `make test` hands whole modules to its workers in this order (--dist loadscope): the state
    machine's runs start at once on both cores and the tail is unit modules, not a three-minute sequence
    that the alphabet put last; a module's fixtures are set up by one worker only."""
    heaviest: dict[str, int] = {}
    for item in items:
        tier = tier_of(item)
        if not item.get_closest_marker(tier):
            item.add_marker(getattr(pytest.mark, tier))
        module = item.nodeid.split("::")[0]
        heaviest[module] = min(heaviest.get(module, len(TIERS)), TIERS.index(tier))
    items.sort(key=lambda item: heaviest[item.nodeid.split("::")[0]])  # stable: the order within a module kept


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Unit tests run with sockets off (pytest-socket): a unit test that reaches the network fails."""
    if item.get_closest_marker("unit"):
        pytest_socket.disable_socket(allow_unix_socket=True)


def pytest_runtest_teardown(item: pytest.Item) -> None:
    pytest_socket.enable_socket()


def _uses(request, fixture: str) -> bool:
    module = request.node.nodeid
    return any(fixture in item.fixturenames for item in request.session.items if item.nodeid.startswith(module + "::"))


@pytest.fixture(scope="module", autouse=True)
def seeded_airline_unchanged(request):
    """A module leaves the session's seeded airline as it found it (tests/account_guard.py says why). module_learning
    asks for it, so it checks after the module's learning records are forgotten."""
    if not _uses(request, "account"):
        yield
        return
    account = request.getfixturevalue("account")
    before = fingerprint(account.naming)
    yield
    left = changes(before, fingerprint(account.naming))
    assert not left, f"{request.node.nodeid} left the session's airline changed: " + "; ".join(left)


@pytest.fixture(scope="module", autouse=True)
def module_learning(request, seeded_airline_unchanged):  # set up after the guard, so finalized before it checks
    """A module running the state machine on the session's account leaves no learning record behind: precedent is
    read from DisruptionHistory, so the records one module's runs wrote would move the next module's rankings.
    Autouse, so set up before and finalized after the module's own fixtures (its runs left waiting, rejected)."""
    if not _uses(request, "wf"):
        yield
        return
    account = request.getfixturevalue("account")
    before = learning_ids(account)
    yield
    settle_runs(request.getfixturevalue("wf"))
    forget_ids(account, learning_ids(account) - before)


@pytest.fixture(scope="session")
def airline():
    return generate(GeneratorConfig(load_factor=LOAD_FACTOR))


@pytest.fixture(scope="session")
def account(airline):
    with in_process_account(airline) as seeded:
        yield seeded


@pytest.fixture
def handle(account):
    return account.handle()


@pytest.fixture
def blank_account(account) -> LocalAccount:
    """Empty tables under a fresh name prefix in the same emulated account: isolated, no second mock."""
    isolated = LocalAccount(naming=Naming(prefix=f"t{uuid.uuid4().hex[:8]}-"))
    isolated.create()
    return isolated


@pytest.fixture
def local(account, monkeypatch):
    """CLI commands run against the session's seeded account (instead of starting one), offline."""

    @contextmanager
    def session_account(echo=print, allow_temporary=False, **slice_):  # the whole airline, never a slice
        yield account

    monkeypatch.setattr(control, "account", session_account)
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")


# ---------------------------------------------------------------------------------------------------
# The CDK app, synthesized once per session: each synthesis pays several seconds of jsii/Node start-up,
# so the CDK assertions, cfn-lint, cdk-nag and the state machine run in moto all read this one assembly.


@dataclass
class Synthesized:
    app: cdk.App
    stacks: SkyMarshalStacks
    outdir: Path
    # app.synth() raises RuntimeError("ValidationFailed ...") when cdk-nag reports a finding; the
    # templates are written before validation runs, so the other tests still have something to read.
    error: Exception | None

    def template_files(self) -> list[Path]:
        return sorted(self.outdir.glob("*.template.json"))

    def template_json(self, artifact_id: str) -> dict[str, Any]:
        return json.loads((self.outdir / f"{artifact_id}.template.json").read_text())

    def validation_report(self) -> dict[str, Any] | None:
        path = self.outdir / "validation-report.json"
        return json.loads(path.read_text()) if path.exists() else None


# Bundle no stack: the deps layer's local bundling would pip-download ~100 MB of wheels at every synth.
# Asset metadata (`aws:asset:path` on each function) is what the local runner imports handlers from.
TEST_CONTEXT: dict[str, Any] = {"aws:cdk:bundling-stacks": [], "aws:cdk:enable-asset-metadata": True}


def new_app(outdir: Path, **context: Any) -> cdk.App:
    """An App with cdk.json's context (as `app.py` gets it), no bundling, plus overrides for one test."""
    return cdk.App(outdir=str(outdir), context={**cdk_json_context(), **TEST_CONTEXT, **context})


@pytest.fixture(scope="session")
def make_app():
    """`new_app` for tests that need an App of their own (importing from conftest is fragile)."""
    return new_app


@pytest.fixture(scope="session")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> Synthesized:
    outdir = tmp_path_factory.mktemp("cdk.out")
    app = new_app(outdir)
    stacks = build_app(app)
    try:
        app.synth()
        error = None
    except RuntimeError as exc:
        error = exc
    return Synthesized(app=app, stacks=stacks, outdir=outdir, error=error)


# ---------------------------------------------------------------------------------------------------
# The synthesized state machine installed in the session's account, run by moto with the real handlers
# (tests/workflow, tests/api). Runs change the airline, so `restore` puts back what a test executed.
@pytest.fixture(scope="session")
def workflow_template(synthesized):
    """The session's one synthesis (bundling off, asset metadata on), as `skymarshal` synthesizes locally."""
    return synthesized.outdir / WORKFLOW_TEMPLATE


@pytest.fixture(scope="session")
def synthesized_home(workflow_template):
    """Gives a fresh SKYMARSHAL_HOME the session's synthesis as its cached template (local/template.py keys it by
    the app's inputs, which are the same): a local server started there skips `python app.py`, several seconds of
    Node start-up per server."""
    from skymarshal.local.template import REPO_ROOT, _fingerprint

    key = _fingerprint(REPO_ROOT)

    def link(home: Path) -> None:
        (home / "cdk.out").mkdir(parents=True, exist_ok=True)
        (home / "cdk.out" / key).symlink_to(workflow_template.parent, target_is_directory=True)

    return link


@pytest.fixture(scope="session")
def wf(account, workflow_template):
    saved = dict(os.environ)
    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
    # The session replays the same demo flights test after test (some leave a run waiting for approval): one
    # run per flight is off here, and on in the tests that hold it (tests/reliability/test_one_run_per_flight.py).
    os.environ["SKYMARSHAL_ONE_RUN_PER_FLIGHT"] = "0"
    local_workflow.install(account, workflow_template)
    yield local_workflow.local_client(account)
    os.environ.clear()
    os.environ.update(saved)


@pytest.fixture
def calls():
    """Every local Lambda invocation of the test, as (function logical id, phase or None)."""
    registry = local_workflow.registry()
    seen: list[tuple[str, str | None]] = []
    registry.wrap = None

    def record(name, handler, event):
        seen.append((name, event.get("phase")))
        return handler(event, local_workflow._Context(name))

    registry.wrap = record
    yield seen
    registry.wrap = None


@pytest.fixture
def restore(account, request):
    """Undo the executions a test makes: every changed row goes back to its before-image, and the learning
    record each run wrote is removed. A run of the state machine still executing (a test that approved and did not
    wait) is waited for first: undone mid-way, the groups it applied after would stay in the session's airline."""
    from skymarshal.workflow.execution.execute import undo
    from skymarshal.workflow.runs.client import RunNotFound
    from skymarshal.workflow.steps.attempts import MAX_ATTEMPTS, attempt_id

    names: list[str] = []
    yield names
    wf = request.getfixturevalue("wf") if "wf" in request.fixturenames else None
    for name in names:
        deadline = time.monotonic() + 300
        with contextlib.suppress(RunNotFound):  # a plan executed directly, not by a run
            while wf and wf.describe(name)["status"] == "RUNNING" and not wf.pending(name):
                assert time.monotonic() < deadline, f"{name} still running 300 s after its test"
                time.sleep(0.2)
    # Last executed first: a later plan's before-images are the earlier plan's after-images, so undoing in the
    # order executed would put the earlier plan's changes back (a re-decision on top of its first decision).
    for name in reversed(names):
        for attempt in range(MAX_ATTEMPTS, 0, -1):  # a plan decided again after a refusal: its own record
            undo(attempt_id(name, attempt), tables=WorkflowTables(account.resource(), account.naming))
    forget_learning(account, names)  # Learn's records: other tests count the seeded history


@pytest.fixture
def fake_bedrock(monkeypatch):
    """The local Bedrock Runtime fake (tests/fake_bedrock.py) in eu-west-1, with the bedrock provider on:
    chat models built now go through langchain-aws and botocore to it."""
    from fake_bedrock import FakeBedrock, bedrock_env

    from skymarshal.llm.provider import chat_model

    fake = FakeBedrock(region="eu-west-1").start()
    bedrock_env(monkeypatch, fake)
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "bedrock")
    chat_model.cache_clear()
    yield fake
    fake.stop()
    chat_model.cache_clear()
