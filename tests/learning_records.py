"""Removing what Learn wrote for a test's runs, so the tests that count the seeded history see only the seed.

Imported as a plain module (tests/ is on the path through its conftest; the name is unique across tests/).
"""

from __future__ import annotations

from collections.abc import Iterable

from boto3.dynamodb.conditions import Attr


def forget_learning(account, names: Iterable[str]) -> None:
    """Delete each run's learning record and, for a network run, its one row per flight (`SM-{run}#{flight}`)."""
    history = account.resource().Table(account.naming("DisruptionHistory"))
    for name in names:
        history.delete_item(Key={"disruption_id": f"SM-{name}"})
        per_flight = history.scan(FilterExpression=Attr("disruption_id").begins_with(f"SM-{name}#"))["Items"]
        for item in per_flight:  # a test's read, not the app's
            history.delete_item(Key={"disruption_id": item["disruption_id"]})


def learning_ids(account) -> set[str]:
    """Every learning record Learn has written in the account (`SM-` ids; the generator's history has none)."""
    history = account.resource().Table(account.naming("DisruptionHistory"))
    found: set[str] = set()
    kwargs = {"FilterExpression": Attr("disruption_id").begins_with("SM-"), "ProjectionExpression": "disruption_id"}
    while True:
        page = history.scan(**kwargs)  # a test's read, not the app's
        found |= {item["disruption_id"] for item in page["Items"]}
        if "LastEvaluatedKey" not in page:
            return found
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def settle_runs(wf, timeout_s: float = 600) -> None:
    """Follow every running execution until it waits for approval or ends: a run rejected in a fixture's teardown
    writes its learning record after the rejection, and must have written it before the module's are forgotten."""
    pages = wf.sfn.get_paginator("list_executions").paginate(stateMachineArn=wf.arn, statusFilter="RUNNING")
    for execution in (e for page in pages for e in page["executions"]):
        wf.follow(execution["name"], timeout_s=timeout_s)


def forget_ids(account, disruption_ids: Iterable[str]) -> None:
    history = account.resource().Table(account.naming("DisruptionHistory"))
    for disruption_id in disruption_ids:
        history.delete_item(Key={"disruption_id": disruption_id})
