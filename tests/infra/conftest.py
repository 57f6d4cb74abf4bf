"""Each stack's template from the session's one synthesis (`synthesized`, in tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest
from aws_cdk.assertions import Template

from infra import API_STACK_ID, DATA_STACK_ID, KNOWLEDGE_STACK_ID, WORKFLOW_STACK_ID


@pytest.fixture(scope="session")
def data_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(DATA_STACK_ID)


@pytest.fixture(scope="session")
def data_template(data_template_json: dict[str, Any]) -> Template:
    return Template.from_json(data_template_json)


@pytest.fixture(scope="session")
def knowledge_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(KNOWLEDGE_STACK_ID)


@pytest.fixture(scope="session")
def knowledge_template(knowledge_template_json: dict[str, Any]) -> Template:
    return Template.from_json(knowledge_template_json)


@pytest.fixture(scope="session")
def workflow_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(WORKFLOW_STACK_ID)


@pytest.fixture(scope="session")
def workflow_template(workflow_template_json: dict[str, Any]) -> Template:
    return Template.from_json(workflow_template_json)


@pytest.fixture(scope="session")
def api_template_json(synthesized) -> dict[str, Any]:
    return synthesized.template_json(API_STACK_ID)


@pytest.fixture(scope="session")
def api_template(api_template_json: dict[str, Any]) -> Template:
    return Template.from_json(api_template_json)
