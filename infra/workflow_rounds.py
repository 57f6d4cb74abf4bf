"""The agent rounds of the state machine: a Map over the agents (one LambdaInvoke per agent, each with its Catch),
used by the initial, the revision and the debate rounds; and the debate loop after the revision round.

The debate (issue 20 item 3): Collate revision says whether a conflict stays open (`$.phase2.debate_again`, from
the debate rule in arbitration/debate/rule.py); if so the debate state is copied to `$.debate`, a debate round runs
the same agent Lambdas (phase "debate", the round number and the stated conflict in the payload), Collate debate
collates it and asks the rule again, and "Debate again?" loops — at most to round 5, the rule's hard maximum —
or arbitrates. Each round has the agents' own deadline below their Lambda timeout, like the first two.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aws_cdk import Duration
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_stepfunctions as sfn
from aws_cdk import aws_stepfunctions_tasks as tasks
from constructs import Construct

from skymarshal.data.schema import AGENTS

AGENT_TITLES = {agent: agent.replace("_", " ").capitalize() for agent in AGENTS}
OBJECT_FIELDS = frozenset({"others", "disruption", "overlay", "conflict"})  # passed as JSON, not strings
NUMBER_FIELDS = frozenset({"round"})
# Transient Lambda errors (throttling, service faults) are retried with backoff; a handler's own
# exception is not — it is a bug or bad input, and a retry would only repeat it.
TRANSIENT = [
    "Lambda.ServiceException",
    "Lambda.AWSLambdaException",
    "Lambda.SdkClientException",
    "Lambda.TooManyRequestsException",
    "Lambda.ClientExecutionTimeoutException",
]
DEBATE_TITLE = "Debate round"  # the console's phase marker (workflow/runs/client.py, api/plans.py)
Invoke = Callable[[str, lambda_.IFunction, dict, "str | None"], tasks.LambdaInvoke]


def round_items(phase: str) -> str:
    """The round's Map items: all seven agents, or on a retry the ones that run again (workflow/runs/retry.py)."""
    return "$.request.agents" if phase == "initial" else "$.request.revision_agents"


def agent_item() -> dict[str, Any]:
    """The agent item's keys every round shares (handlers/agent.AgentEvent reads them)."""
    return {
        "agent": sfn.JsonPath.string_at("$$.Map.Item.Value"),
        "prompt": sfn.JsonPath.string_at("$.request.prompt"),
        "execution_id": sfn.JsonPath.string_at("$$.Execution.Name"),
        "disruption_id": sfn.JsonPath.string_at("$.request.disruption_id"),
        # the report's facts and their what-if overlay, resolved once at Validate: no agent re-reads the prompt
        "disruption": sfn.JsonPath.object_at("$.request.disruption"),
        "overlay": sfn.JsonPath.object_at("$.request.overlay"),
        # the report's moment: a call-out, a rest or a re-decision is timed from it, as the arbitrator times it
        "reported_at": sfn.JsonPath.string_at("$.request.reported_at"),
    }


def retry_transient(task: tasks.LambdaInvoke, *, max_attempts: int) -> None:
    """Retry the transient Lambda errors with full-jitter exponential backoff (2 s, ×2)."""
    task.add_retry(
        errors=TRANSIENT,
        interval=Duration.seconds(2),
        max_attempts=max_attempts,
        backoff_rate=2.0,
        jitter_strategy=sfn.JitterType.FULL,
    )


def _item_field(key: str) -> Any:
    if key in OBJECT_FIELDS:
        return sfn.JsonPath.object_at(f"$.{key}")
    if key in NUMBER_FIELDS:
        return sfn.JsonPath.number_at(f"$.{key}")
    return sfn.JsonPath.string_at(f"$.{key}")


def agent_round(
    scope: Construct,
    agents: Mapping[str, lambda_.IFunction],
    *,
    phase: str,
    title: str,
    items_path: str,
    selector: dict[str, Any],
    result_path: str,
) -> sfn.Map:
    """A Map over `items_path` (agent names) invoking each agent's own function with the `selector` item."""
    round_map = sfn.Map(
        scope,
        f"{title}: seven agents",
        items_path=items_path,
        item_selector=selector,
        result_path=result_path,
        max_concurrency=len(AGENTS),
    )
    # One Catch per agent task turns any failure into a degraded entry the collation marks failed.
    failed = sfn.Pass(
        scope,
        f"Agent failed ({phase})",
        parameters={
            "agent_name": sfn.JsonPath.string_at("$.agent"),
            "status": "error",
            "error": sfn.JsonPath.string_at("$.failure.Error"),
            "cause": sfn.JsonPath.string_at("$.failure.Cause"),
        },
    )
    which = sfn.Choice(scope, f"Which agent? ({phase})")
    item = {key: _item_field(key) for key in selector}
    for agent in AGENTS:
        task = tasks.LambdaInvoke(
            scope,
            f"{AGENT_TITLES[agent]} agent ({phase})",
            lambda_function=agents[agent],
            payload=sfn.TaskInput.from_object(item),
            payload_response_only=True,
            retry_on_service_exceptions=False,
        )
        retry_transient(task, max_attempts=3)
        task.add_catch(failed, errors=["States.ALL"], result_path="$.failure")
        which.when(sfn.Condition.string_equals("$.agent", agent), task)
    which.otherwise(failed)
    round_map.item_processor(which)
    return round_map


def debate_loop(
    scope: Construct,
    agents: Mapping[str, lambda_.IFunction],
    collate: lambda_.IFunction,
    invoke: Invoke,
    *,
    common: dict[str, Any],
    safety_escalation: sfn.IChainable,
    arbitrate: sfn.IChainable,
    on_failure: sfn.IChainable | None = None,
) -> sfn.Choice:
    """The Choice after the safety gate: into the debate, or straight to Arbitrate (no open conflict — a run
    without one keeps exactly its two rounds). `common`: the agent item's keys every round shares."""
    opened = sfn.Pass(
        scope,
        f"{DEBATE_TITLE}: conflict stated",
        input_path="$.phase2.debate",
        result_path="$.debate",
    )
    selector = {
        **common,
        "phase": "debate",
        "round": sfn.JsonPath.number_at("$.debate.next_round"),
        "conflict": sfn.JsonPath.object_at("$.debate.conflict"),
        # the round before's collation: the revision round's, then each debate round's
        "others": sfn.JsonPath.object_at("$.debate.collation"),
    }
    debate_map = agent_round(
        scope,
        agents,
        phase="debate",
        title=DEBATE_TITLE,
        items_path="$.debate.agents",
        selector=selector,
        result_path="$.debate.results",
    )
    # The debate as the round before left it, without this round's raw results (they are `results`).
    previous = {
        key: sfn.JsonPath.object_at(f"$.debate.{key}")
        for key in ("round", "max_rounds", "again", "reason", "next_round", "conflict", "issues", "positions")
    } | {key: sfn.JsonPath.list_at(f"$.debate.{key}") for key in ("rounds", "agents")}
    collate_debate = invoke(
        "Collate debate round",
        collate,
        {
            "phase": "debate",
            "results": sfn.JsonPath.list_at("$.debate.results"),
            "request": sfn.JsonPath.object_at("$.request"),
            "debate": previous,
            "disruption_id": sfn.JsonPath.string_at("$.request.disruption_id"),
            "execution_name": sfn.JsonPath.string_at("$$.Execution.Name"),
        },
        "$.debate",
    )
    again = (
        sfn.Choice(scope, "Debate again?")
        .when(sfn.Condition.boolean_equals("$.debate.safety_failed", True), safety_escalation)
        .when(sfn.Condition.boolean_equals("$.debate.again", True), debate_map)
        .otherwise(arbitrate)
    )
    if on_failure is not None:  # a round or its Collate failing past its retries (infra/workflow_failures.py)
        for failing in (debate_map, collate_debate):
            failing.add_catch(on_failure, errors=["States.ALL"], result_path="$.failure")
    opened.next(debate_map)
    debate_map.next(collate_debate)
    collate_debate.next(again)
    return (
        sfn.Choice(scope, "Debate or arbitrate?")
        .when(sfn.Condition.boolean_equals("$.phase2.debate_again", True), opened)
        .otherwise(arbitrate)
    )
