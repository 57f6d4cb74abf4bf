"""Names the CDK app and the running workflow share: environment variables and the trigger's event.

Kept apart from the workflow's logic so `infra/` can read them without importing any agent code.
"""

STATE_MACHINE_ENV = "SKYMARSHAL_STATE_MACHINE_ARN"
AUDIT_KEY_ENV = "SKYMARSHAL_AUDIT_KEY_ID"  # a KMS key id, ARN or alias; unset: the head is left unsigned
APPROVAL_TIMEOUT_ENV = "SKYMARSHAL_APPROVAL_TIMEOUT_SECONDS"
TRIGGER_DLQ_ENV = "SKYMARSHAL_TRIGGER_DLQ_URL"  # where the Trigger sends an event it refuses, with the reason
FLIGHT_HOLD_ENV = "SKYMARSHAL_FLIGHT_HOLD_MINUTES"  # a recovered flight refuses a new run this long (Validate)

# The EventBridge rule's pattern and what the Trigger accepts.
SOURCE = "skymarshal.disruptions"
DETAIL_TYPE = "Flight Disruption Reported"
# An IATA movement message (MVT, MVA, DIV) on the same bus: detail {"message": "MVT\n..."} (intake/movement.py).
MOVEMENT_DETAIL_TYPE = "Flight Movement Message"
DETAIL_TYPES = (DETAIL_TYPE, MOVEMENT_DETAIL_TYPE)

# What Execute publishes for downstream systems (workflow/execution/publish.py): one event per ASM/MVT message of the executed
# plan, and one with its contact list, on a bus of their own that only Execute may put events on.
MESSAGE_BUS_ENV = "SKYMARSHAL_MESSAGE_BUS"  # the bus's name; unset: the messages stay in S3 and the audit only
MESSAGE_SOURCE = "skymarshal.messages"
MESSAGE_DETAIL_TYPES = {"ASM": "Schedule Change Sent", "MVT": "Movement Message Sent"}  # not the inbound types
CONTACTS_DETAIL_TYPE = "Contact List Sent"

# Duty-manager alerts (workflow/alerts.py): the SNS topic an escalation is published to, and the console a
# run's link points at (unset: the link is the Step Functions console's).
ALERT_TOPIC_ENV = "SKYMARSHAL_ALERT_TOPIC_ARN"
CONSOLE_URL_ENV = "SKYMARSHAL_CONSOLE_URL"

# Metrics (Powertools, EMF) the CloudWatch alarms of infra/alarms.py watch: one name, read by both sides.
METRICS_NAMESPACE = "SkyMarshal"
WORKFLOW_SERVICE = "skymarshal-workflow"  # the step Lambdas' Powertools service (its metrics' dimension)
ESCALATION_REASONS = (
    "SAFETY_AGENT_FAILED",
    "NO_VALID_PLAN",
    "APPROVAL_TIMEOUT",
    "ARBITRATION_FAILED",
    "NETWORK_DISRUPTION",
    "RUN_FAILED",  # a step failed past its retries (infra/workflow_stack.py's Catch): the flight is released
)
BEDROCK_FALLBACK_METRIC = "BedrockFallback"  # a model call failed and the rules' text stood in
ALERT_FAILED_METRIC = "AlertPublishFailed"  # an escalation's alert could not be published
MESSAGES_FAILED_METRIC = "MessagesPublishFailed"  # events of an executed plan the message bus did not take
RECORDS_QUARANTINED_METRIC = "RecordsQuarantined"  # an inbound message parked with its reason (workflow/quarantine.py)


def escalation_metric(reason: str) -> str:
    """One metric per escalation code: `EscalationSafetyAgentFailed` for SAFETY_AGENT_FAILED."""
    return "Escalation" + "".join(word.capitalize() for word in reason.split("_"))


WEBHOOK_PARAMETER_ENV = "SKYMARSHAL_ALERT_WEBHOOK_PARAMETER"  # the SSM SecureString holding the chat webhook URL
