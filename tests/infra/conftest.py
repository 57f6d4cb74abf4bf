"""Synthesize the CDK app once per test session; every infra test reads that one cloud assembly.

Each synthesis pays several seconds of jsii/Node start-up, so the CDK assertions, cfn-lint and
cdk-nag tests all share the `synthesized` fixture below. Asset bundling is off (no stack is bundled), so
the Lambda layers' pip install never runs in a test; asset metadata is on, as the local runner needs it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

REPO_ROOT = Path(__file__).resolve().parents[2]  # `infra/` is importable through pyproject's pythonpath

import aws_cdk as cdk
from aws_cdk.assertions import Template

from infra import DATA_STACK_ID, KNOWLEDGE_STACK_ID, WORKFLOW_STACK_ID, SkyMarshalStacks, build_app, cdk_json_context


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


@pytest.fixture(scope="session")
def data_template_json(synthesized: Synthesized) -> dict[str, Any]:
    return synthesized.template_json(DATA_STACK_ID)


@pytest.fixture(scope="session")
def data_template(data_template_json: dict[str, Any]) -> Template:
    return Template.from_json(data_template_json)


@pytest.fixture(scope="session")
def knowledge_template_json(synthesized: Synthesized) -> dict[str, Any]:
    return synthesized.template_json(KNOWLEDGE_STACK_ID)


@pytest.fixture(scope="session")
def knowledge_template(knowledge_template_json: dict[str, Any]) -> Template:
    return Template.from_json(knowledge_template_json)


@pytest.fixture(scope="session")
def workflow_template_json(synthesized: Synthesized) -> dict[str, Any]:
    return synthesized.template_json(WORKFLOW_STACK_ID)


@pytest.fixture(scope="session")
def workflow_template(workflow_template_json: dict[str, Any]) -> Template:
    return Template.from_json(workflow_template_json)
