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
