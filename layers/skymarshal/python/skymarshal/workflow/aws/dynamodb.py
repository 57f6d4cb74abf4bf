"""DynamoDB's expression builders and type (de)serializer, named once for the workflow's writes: the execution
rooms compose guarded transactions over the operational tables, which are DynamoDB by design."""

from __future__ import annotations

from boto3.dynamodb.conditions import Attr, AttributeBase, ConditionBase, ConditionExpressionBuilder, Key
from boto3.dynamodb.types import TypeDeserializer

__all__ = ["Attr", "AttributeBase", "ConditionBase", "ConditionExpressionBuilder", "Key", "TypeDeserializer"]
