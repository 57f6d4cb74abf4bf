"""Builds the whole CDK app: every stack, tags, and the cdk-nag checks.

`app.py` calls `build_app(cdk.App(...))`; tests call it with their own App (an `outdir` of their own)
and synthesize in-process. New stacks (workflow, API, knowledge base) are added here and receive the
data stack to grant their functions access.
"""

from __future__ import annotations

from dataclasses import dataclass

import aws_cdk as cdk
from cdk_nag import AwsSolutionsChecks

from .api_stack import ApiStack
from .config import AppConfig
from .data_stack import DataStack
from .knowledge_stack import KnowledgeStack
from .workflow_stack import WorkflowStack

PROJECT = "SkyMarshal"
DATA_STACK_ID = "SkyMarshal-Data"  # construct id: the template file is SkyMarshal-Data.template.json
KNOWLEDGE_STACK_ID = "SkyMarshal-Knowledge"
WORKFLOW_STACK_ID = "SkyMarshal-Workflow"
API_STACK_ID = "SkyMarshal-Api"


@dataclass(frozen=True)
class SkyMarshalStacks:
    config: AppConfig
    data: DataStack
    knowledge: KnowledgeStack
    workflow: WorkflowStack
    api: ApiStack


def build_app(app: cdk.App) -> SkyMarshalStacks:
    """Add every SkyMarshal stack to `app`; the app is synthesized by the caller."""
    config = AppConfig.from_context(app.node)

    data = DataStack(app, DATA_STACK_ID, config=config, stack_name=f"{PROJECT}-{config.stage}-Data")
    # Independent of the data stack: its own buckets (SSE-S3, see the module) and vector store.
    knowledge = KnowledgeStack(app, KNOWLEDGE_STACK_ID, config=config, stack_name=f"{PROJECT}-{config.stage}-Knowledge")

    workflow = WorkflowStack(
        app,
        WORKFLOW_STACK_ID,
        config=config,
        data=data,
        knowledge_base_id=knowledge.knowledge_base_id,
        stack_name=f"{PROJECT}-{config.stage}-Workflow",
    )
    knowledge.grant_retrieve(workflow.fns.arbitrate)
    api = ApiStack(
        app, API_STACK_ID, config=config, data=data, workflow=workflow, stack_name=f"{PROJECT}-{config.stage}-Api"
    )

    for stack in (data, knowledge, workflow, api):
        cdk.Tags.of(stack).add("Project", PROJECT)
        cdk.Tags.of(stack).add("Stage", config.stage)

    # cdk-nag 3.x is a policy-validation plugin, not an Aspect: it runs inside app.synth(), and any
    # finding that is not acknowledged with Validations.of(construct).acknowledge(...) — warning or
    # error — fails synthesis (RuntimeError "ValidationFailed") and lands in validation-report.json.
    # write_suppressions_to_cloud_formation copies each acknowledgement and its reason into the
    # resource's template Metadata, so the audit trail ships with the template.
    cdk.Validations.of(app).add_plugins(
        AwsSolutionsChecks(app, verbose=True, write_suppressions_to_cloud_formation=True)
    )
    return SkyMarshalStacks(config=config, data=data, knowledge=knowledge, workflow=workflow, api=api)
