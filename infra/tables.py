"""Every DynamoDB table of skymarshal.data.schema, built from its TableSpec.

Names, keys, indexes and TTL come from the schema only, so the stack, the local emulator and the
query layer cannot drift apart. `aws_dynamodb.Table` (AWS::DynamoDB::Table) is used rather than
TableV2 (AWS::DynamoDB::GlobalTable): TableV2 with a customer-managed key refuses to synthesize in an
environment-agnostic stack, and the plain table type is also what moto and the local runner know.
"""

from __future__ import annotations

from aws_cdk import RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_kms as kms
from constructs import Construct

from skymarshal.data.schema import TABLES, Key, Naming, TableSpec

_ATTRIBUTE_TYPES = {"S": dynamodb.AttributeType.STRING, "N": dynamodb.AttributeType.NUMBER}


def _attribute(key: Key) -> dynamodb.Attribute:
    return dynamodb.Attribute(name=key.name, type=_ATTRIBUTE_TYPES[key.type])


def _construct_id(logical: str) -> str:
    """CloudFormation logical ids must be alphanumeric: 'flights' -> 'FlightsTable'."""
    return "".join(part[:1].upper() + part[1:] for part in logical.replace("-", "_").split("_")) + "Table"


class SkyMarshalTables(Construct):
    """One table per TableSpec, all encrypted with the same customer-managed key.

    `tables` maps the schema's logical name (e.g. schema.FLIGHTS) to the table, for grants.
    """

    def __init__(
        self, scope: Construct, construct_id: str, *, naming: Naming, key: kms.IKey, removal_policy: RemovalPolicy
    ) -> None:
        super().__init__(scope, construct_id)
        # Deletion protection follows the removal policy: a retained table should also survive a
        # console or API delete; a `destroy` (throw-away) stack must be deletable in one go.
        protect = removal_policy == RemovalPolicy.RETAIN
        self.tables: dict[str, dynamodb.ITable] = {
            spec.name: self._table(spec, naming, key, removal_policy, protect) for spec in TABLES
        }

    def _table(
        self, spec: TableSpec, naming: Naming, key: kms.IKey, removal_policy: RemovalPolicy, protect: bool
    ) -> dynamodb.Table:
        table = dynamodb.Table(
            self,
            _construct_id(spec.name),
            table_name=naming(spec.name),
            partition_key=_attribute(spec.partition),
            sort_key=_attribute(spec.sort) if spec.sort else None,
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            encryption=dynamodb.TableEncryption.CUSTOMER_MANAGED,
            encryption_key=key,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True
            ),
            time_to_live_attribute=spec.ttl_attribute,
            deletion_protection=protect,
            removal_policy=removal_policy,
        )
        for index in spec.indexes:
            # Projection ALL: data/queries.py builds whole pydantic rows straight from GSI query
            # results, with no follow-up GetItem, so an index must carry every attribute.
            table.add_global_secondary_index(
                index_name=index.name,
                partition_key=_attribute(index.partition),
                sort_key=_attribute(index.sort) if index.sort else None,
                projection_type=dynamodb.ProjectionType.ALL,
            )
        return table
