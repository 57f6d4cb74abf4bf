"""The chat-webhook subscriber of the duty-manager alert topic: each SNS record becomes one POST of `{"text"}`
(Slack, Microsoft Teams workflows and Google Chat accept that body) to the URL kept in an SSM SecureString
parameter — the URL is a credential, so it is neither in the template nor in the function's environment.

A failed POST raises: SNS retries the asynchronous invocation, and the function's Errors alarm reaches the other
subscriptions (e-mail, SMS).
"""

from __future__ import annotations

import os
from typing import Any

from aws_lambda_powertools import Logger

from ..workflow.alerts import chat_message, post_webhook
from ..workflow.deployment import WEBHOOK_PARAMETER_ENV

logger = Logger(service="skymarshal-alert-webhook")
URL_CACHE_S = 300  # a rotated webhook URL is read again within five minutes


@logger.inject_lambda_context(log_event=False)
def webhook(event: dict, context: Any) -> dict:
    from aws_lambda_powertools.utilities import parameters

    url = str(parameters.get_parameter(os.environ[WEBHOOK_PARAMETER_ENV], decrypt=True, max_age=URL_CACHE_S))
    records = event.get("Records") or []
    for record in records:
        status = post_webhook(url, chat_message(record))
        logger.info(
            "alert posted to the chat webhook",
            extra={"status": status, "subject": record.get("Sns", {}).get("Subject")},
        )
    return {"posted": len(records)}
