"""CDK stacks and constructs only: table names, keys and indexes come from skymarshal.data.schema."""

from .config import AppConfig, cdk_json_context
from .data_stack import DataStack
from .knowledge_stack import KnowledgeStack
from .stacks import API_STACK_ID, DATA_STACK_ID, KNOWLEDGE_STACK_ID, WORKFLOW_STACK_ID, SkyMarshalStacks, build_app

__all__ = [
    "API_STACK_ID",
    "DATA_STACK_ID",
    "KNOWLEDGE_STACK_ID",
    "WORKFLOW_STACK_ID",
    "AppConfig",
    "DataStack",
    "KnowledgeStack",
    "SkyMarshalStacks",
    "build_app",
    "cdk_json_context",
]
