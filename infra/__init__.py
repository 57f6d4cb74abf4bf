"""CDK stacks and constructs only: table names, keys and indexes come from skymarshal.data.schema."""

from .config import AppConfig, cdk_json_context
from .data_stack import DataStack
from .stacks import DATA_STACK_ID, SkyMarshalStacks, build_app

__all__ = ["AppConfig", "DATA_STACK_ID", "DataStack", "SkyMarshalStacks", "build_app", "cdk_json_context"]
