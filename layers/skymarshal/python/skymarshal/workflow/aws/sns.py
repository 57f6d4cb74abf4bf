"""The AlertTopic port on SNS (string message attributes, so a subscriber can filter on the reason)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ...data import aws as clients
from .errors import service_error


class SnsTopic:
    """AlertTopic over an SNS client (the default credentials' unless one is given)."""

    def __init__(self, client: Any = None):
        self._client = client

    @property
    def client(self) -> Any:
        self._client = self._client or clients.client("sns")
        return self._client

    def publish(self, topic: str, subject: str, message: str, attributes: Mapping[str, str]) -> None:
        try:
            self.client.publish(
                TopicArn=topic,
                Subject=subject,
                Message=message,
                MessageAttributes={k: {"DataType": "String", "StringValue": v} for k, v in attributes.items()},
            )
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc
