"""The AlertTopic port on SNS (string message attributes, so a subscriber can filter on the reason)."""

from __future__ import annotations

from collections.abc import Mapping

from .errors import Adapter, call


class SnsTopic(Adapter):
    """AlertTopic over an SNS client."""

    service = "sns"

    def publish(self, topic: str, subject: str, message: str, attributes: Mapping[str, str]) -> None:
        typed = {k: {"DataType": "String", "StringValue": v} for k, v in attributes.items()}
        call(lambda: self.client.publish(TopicArn=topic, Subject=subject, Message=message, MessageAttributes=typed))
