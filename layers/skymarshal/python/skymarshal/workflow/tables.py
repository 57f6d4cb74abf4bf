"""The tables the workflow writes, from one boto3 resource: built once per Lambda container (and by the
local runner and the API), then handed to every workflow module, as `DataHandle` is for reads.

Checkpoints holds approvals, execution logs and run settings; DisruptionHistory the learning records;
AuditTrail the hash chain. Execution also changes the operational tables named by its plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..data import aws
from ..data.schema import AUDIT_TRAIL, CHECKPOINTS, DISRUPTION_HISTORY, Naming


@dataclass(frozen=True)
class WorkflowTables:
    resource: Any  # a boto3 DynamoDB ServiceResource (moto's locally)
    naming: Naming
    # boto3 builds a Table's class from its JSON model on every Table() call: once per name is enough
    _built: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_env(cls, endpoint_url: str | None = None) -> WorkflowTables:
        """The deployment's tables: the table prefix from the environment, the default credentials."""
        return cls(aws.resource("dynamodb", endpoint_url=endpoint_url), Naming.from_env())

    def table(self, logical_name: str) -> Any:
        """A boto3 Table of this deployment by its logical name (e.g. `flights`, `Checkpoints`)."""
        name = self.naming(logical_name)
        found = self._built.get(name)
        if found is None:
            found = self._built[name] = self.resource.Table(name)
        return found

    @property
    def checkpoints(self) -> Any:
        return self.table(CHECKPOINTS)

    @property
    def history(self) -> Any:
        return self.table(DISRUPTION_HISTORY)

    @property
    def audit_trail(self) -> Any:
        return self.table(AUDIT_TRAIL)
