"""Deployment settings, read from CDK context (cdk.json defaults, overridden with `-c key=value`).

`python app.py` (used by `make synth` and the tests) does not read cdk.json — only the CDK CLI does —
so `cdk_json_context()` feeds the same file to `cdk.App(context=...)`. Values the CLI passes still win,
because the App applies constructor context first and the CLI's context over it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aws_cdk as cdk
from constructs import Node

from skymarshal.data.schema import TABLES, Naming
from skymarshal.llm.profiles import GEOGRAPHY_CHOICES

REPO_ROOT = Path(__file__).resolve().parent.parent
CDK_JSON = REPO_ROOT / "cdk.json"

REMOVAL_POLICIES = {"retain": cdk.RemovalPolicy.RETAIN, "destroy": cdk.RemovalPolicy.DESTROY}

# DynamoDB table names: 3–255 characters of [A-Za-z0-9_.-]; the prefix must keep every name legal.
_TABLE_NAME_CHARS = re.compile(r"^[A-Za-z0-9_.-]*$")
_STAGE = re.compile(r"^[a-z][a-z0-9-]{0,19}$")
# S3 Object Lock takes a default retention of at most 36,500 days (100 years).
MAX_RETENTION_DAYS = 36_500
# Alert subscriptions (infra/alerts.py): an address, an E.164 number, an SSM parameter name.
_EMAIL = re.compile(r"^[^@\s,]+@[^@\s,]+\.[^@\s,]+$")
_PHONE = re.compile(r"^\+[1-9][0-9]{6,14}$")
_PARAMETER = re.compile(r"^/?[A-Za-z0-9_.\-/]{1,1011}$")


def _listed(value: Any) -> tuple[str, ...]:
    """A context list: a JSON list (cdk.json) or a comma-separated string (`-c alertEmails=a@x.com,b@x.com`)."""
    items = value if isinstance(value, list | tuple) else str(value or "").split(",")
    return tuple(str(item).strip() for item in items if str(item).strip())


def cdk_json_context(path: Path = CDK_JSON) -> dict[str, Any]:
    """The `context` block of cdk.json: feature flags and deployment defaults."""
    return dict(json.loads(path.read_text()).get("context", {}))


@dataclass(frozen=True)
class AppConfig:
    stage: str = "dev"
    table_prefix: str = ""
    removal_policy: str = "retain"
    checkpoint_expiry_days: int = (
        90  # seed 001: checkpoints kept 90 days (S3 offload objects and the saver's ttl_seconds)
    )
    approval_timeout_minutes: int = 30  # a duty manager's approval window; the run escalates after it
    # How long each audit chain's anchor (infra/storage.py, AuditAnchorStorage) is under COMPLIANCE Object Lock.
    # Neither the README nor DESIGN names an audit retention, so 400 days: a year of runs plus a month for the
    # yearly audit that reviews them, and longer than the S3 access logs (365 days) that show who read them.
    # COMPLIANCE cannot be shortened by anyone once an object is written; a change applies to new anchors only.
    audit_anchor_retention_days: int = 400
    llm_provider: str = "bedrock"  # offline | bedrock (SKYMARSHAL_LLM_PROVIDER of every function)
    # Which inference profiles serve the models (skymarshal/llm/profiles.py): regional (by the deployment's
    # region, resolved at deploy time), configured (ids as written), or global | us | eu | apac.
    bedrock_geography: str = "regional"
    # Lambda Web Adapter (awslabs/aws-lambda-web-adapter) layer version for the streaming function, x86_64
    web_adapter_layer_version: int = 25
    # Duty-manager alerts (infra/alerts.py): who the alert topic reaches. E-mail addresses and SMS numbers
    # (E.164) subscribe directly; a chat webhook (Slack, Teams, Google Chat: a JSON {"text"} POST) is called by a
    # small Lambda that reads its URL from this SSM SecureString parameter (the URL is a credential).
    alert_emails: tuple[str, ...] = ()
    alert_sms: tuple[str, ...] = ()
    alert_webhook_parameter: str = ""
    # The duty manager console's URL, for the link in an alert (unset: the execution in the Step Functions console)
    console_url: str = ""

    def __post_init__(self) -> None:
        if not _STAGE.match(self.stage):
            raise ValueError(f"stage {self.stage!r}: lower-case letters, digits and '-', at most 20")
        if not _TABLE_NAME_CHARS.match(self.table_prefix):
            raise ValueError(f"tablePrefix {self.table_prefix!r}: only letters, digits, '_', '.', '-'")
        longest = max(len(t.name) for t in TABLES)
        if len(self.table_prefix) + longest > 255:
            raise ValueError(f"tablePrefix {self.table_prefix!r} makes a table name longer than 255")
        if self.removal_policy not in REMOVAL_POLICIES:
            raise ValueError(f"removalPolicy {self.removal_policy!r}: expected one of {sorted(REMOVAL_POLICIES)}")
        if self.checkpoint_expiry_days < 1:
            raise ValueError("checkpointExpiryDays must be at least 1")
        if not 1 <= self.approval_timeout_minutes <= 24 * 60:
            raise ValueError("approvalTimeoutMinutes must be between 1 and 1440")
        if not 1 <= self.audit_anchor_retention_days <= MAX_RETENTION_DAYS:
            raise ValueError(f"auditAnchorRetentionDays must be between 1 and {MAX_RETENTION_DAYS}")
        if self.llm_provider not in ("offline", "bedrock"):
            raise ValueError(f"llmProvider {self.llm_provider!r}: expected offline or bedrock")
        for email in self.alert_emails:
            if not _EMAIL.match(email):
                raise ValueError(f"alertEmails: {email!r} is not an e-mail address")
        for phone in self.alert_sms:
            if not _PHONE.match(phone):
                raise ValueError(f"alertSms: {phone!r} is not an E.164 number (+ country code and number)")
        if self.alert_webhook_parameter and not _PARAMETER.match(self.alert_webhook_parameter):
            raise ValueError(f"alertWebhookParameter {self.alert_webhook_parameter!r} is not an SSM parameter name")
        if self.console_url and not self.console_url.startswith("https://"):
            raise ValueError(f"consoleUrl {self.console_url!r} must be an https:// URL")
        if self.bedrock_geography not in GEOGRAPHY_CHOICES:
            raise ValueError(
                f"bedrockGeography {self.bedrock_geography!r}: expected one of {', '.join(GEOGRAPHY_CHOICES)}"
            )

    @classmethod
    def from_context(cls, node: Node) -> AppConfig:
        """Read the settings; `-c` values arrive as strings, so numbers are converted here."""

        def get(key: str, default: Any) -> Any:
            value = node.try_get_context(key)
            return default if value is None else value

        return cls(
            stage=str(get("stage", cls.stage)),
            table_prefix=str(get("tablePrefix", cls.table_prefix)),
            removal_policy=str(get("removalPolicy", cls.removal_policy)).lower(),
            checkpoint_expiry_days=int(get("checkpointExpiryDays", cls.checkpoint_expiry_days)),
            approval_timeout_minutes=int(get("approvalTimeoutMinutes", cls.approval_timeout_minutes)),
            audit_anchor_retention_days=int(get("auditAnchorRetentionDays", cls.audit_anchor_retention_days)),
            llm_provider=str(get("llmProvider", cls.llm_provider)).lower(),
            bedrock_geography=str(get("bedrockGeography", cls.bedrock_geography)).lower(),
            web_adapter_layer_version=int(get("webAdapterLayerVersion", cls.web_adapter_layer_version)),
            alert_emails=_listed(get("alertEmails", ())),
            alert_sms=_listed(get("alertSms", ())),
            alert_webhook_parameter=str(get("alertWebhookParameter", cls.alert_webhook_parameter)),
            console_url=str(get("consoleUrl", cls.console_url)),
        )

    @property
    def naming(self) -> Naming:
        return Naming(prefix=self.table_prefix)

    @property
    def cdk_removal_policy(self) -> cdk.RemovalPolicy:
        return REMOVAL_POLICIES[self.removal_policy]

    @property
    def destroy_on_delete(self) -> bool:
        return self.removal_policy == "destroy"
