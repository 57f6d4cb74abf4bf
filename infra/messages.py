"""The message bus: where Execute publishes an executed plan's ASM/MVT messages and its contact list for downstream
systems (workflow/execution/publish.py says why EventBridge and what an event holds).

A bus of its own, not the disruption bus reports arrive on: producers of reports are granted PutEvents there, and a
consumer's rule here sees only what SkyMarshal sent. Only the Execute Lambda may put events on it (the L2 grant:
events:PutEvents on this bus's ARN); consumers add their own rules (a station's system, a crew app, a partner's
gateway). The messages are in S3 and the audit whatever the bus does; an event it did not take is counted
(`MessagesPublishFailed`), which has an alarm (infra/alarms.py).
"""

from __future__ import annotations

from aws_cdk import aws_events as events
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from skymarshal.workflow.deployment import MESSAGE_BUS_ENV

from .config import AppConfig


class MessageBus(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, config: AppConfig) -> None:
        super().__init__(scope, construct_id)
        self.bus = events.EventBus(
            self,
            "Bus",
            event_bus_name=f"SkyMarshal-{config.stage}-messages",
            description="SkyMarshal: the ASM/MVT messages and contact lists of executed recovery plans",
        )

    def grant_publish(self, fn: lambda_.Function) -> None:
        """events:PutEvents on this bus only; the function learns the bus from its environment."""
        self.bus.grant_put_events_to(fn)
        fn.add_environment(MESSAGE_BUS_ENV, self.bus.event_bus_name)
