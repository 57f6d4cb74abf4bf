"""Run settings an Admin changes at run time (the API's PUT /settings), read by Validate for each new run.

One item in the Checkpoints table (PK "SETTINGS", SK "run"), versioned: a save names the version it read,
so two Admins editing at once cannot silently overwrite each other. Without the item, the deployment's
environment decides (SKYMARSHAL_APPROVAL_TIMEOUT_SECONDS, set from CDK's approvalTimeoutMinutes).
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict, Field

from .aws.errors import ClientError
from .tables import WorkflowTables

KEY = {"PK": "SETTINGS", "SK": "run"}


class RunSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    approval_timeout_minutes: int = Field(
        ge=1, le=24 * 60, description="a duty manager's approval window; the run escalates after it"
    )


class StoredSettings(RunSettings):
    version: int = Field(ge=0, description="0: never saved (the deployment's defaults)")
    updated_by: str | None = None
    updated_at: datetime | None = None


class SettingsConflict(Exception):
    """Someone saved the settings since they were read."""


def load(*, tables: WorkflowTables) -> StoredSettings | None:
    """The saved settings, or None when no Admin has saved any."""
    item = tables.checkpoints.get_item(Key=KEY).get("Item")
    if item is None:
        return None
    return StoredSettings(
        approval_timeout_minutes=int(item["approval_timeout_minutes"]),
        version=int(item["version"]),
        updated_by=item.get("updated_by"),
        updated_at=item.get("updated_at"),
    )


def save(settings: RunSettings, *, expected_version: int, actor: str, tables: WorkflowTables) -> StoredSettings:
    """Write the settings if they are still at `expected_version`; SettingsConflict otherwise."""
    now = datetime.now(UTC)
    item = {
        **KEY,
        **settings.model_dump(),
        "version": expected_version + 1,
        "updated_by": actor,
        "updated_at": now.isoformat(),
    }
    condition = "attribute_not_exists(PK)" if expected_version == 0 else "version = :v"
    extra = {} if expected_version == 0 else {"ExpressionAttributeValues": {":v": expected_version}}
    try:
        tables.checkpoints.put_item(Item=item, ConditionExpression=condition, **extra)
    except ClientError as exc:
        if exc.response["Error"]["Code"] == "ConditionalCheckFailedException":
            raise SettingsConflict(
                f"the settings changed since version {expected_version} was read: "
                "reload them and apply your change again"
            ) from None
        raise
    return StoredSettings(**settings.model_dump(), version=expected_version + 1, updated_by=actor, updated_at=now)
