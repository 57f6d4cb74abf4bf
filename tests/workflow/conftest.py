"""The synthesized state machine installed in the session's emulated account, run by moto.

The template is the session's one synthesis (tests/conftest.py);
`wf` installs it — functions created in moto, handlers imported from their asset folders — and gives a
WorkflowClient. Runs change the airline (an executed plan swaps an aircraft), so `restore` puts back
every row a test's executions changed, from the before-images their reports carry.
"""

from __future__ import annotations

import os

import pytest

from skymarshal.local import workflow as local_workflow
from skymarshal.local.template import WORKFLOW_TEMPLATE

@pytest.fixture(scope="session")
def workflow_template(synthesized):
    """The session's one synthesis (bundling off, asset metadata on), as `skymarshal` synthesizes locally."""
    return synthesized.outdir / WORKFLOW_TEMPLATE


@pytest.fixture(scope="session")
def wf(account, workflow_template):
    saved = dict(os.environ)
    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
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
def restore(account):
    """Undo the executions a test makes: every changed row goes back to its before-image."""
    from skymarshal.workflow.execution import undo

    names: list[str] = []
    yield names
    for name in names:
        undo(name, resource=account.resource(), naming=account.naming)
