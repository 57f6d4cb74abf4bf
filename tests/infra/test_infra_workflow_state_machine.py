"""CDK assertions on the synthesized workflow stack's state machine: logging and tracing, the two Map rounds over
the agents and the debate loop, retries and catches, the approval wait, the escalations, the safety gate and the duty manager's
decision, and deadlines below the Lambda timeouts. The fixtures are in tests/infra/conftest.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from aws_cdk.assertions import Match, Template
from workflow_stack_helpers import AGENT_TASK, DEBATE_MAP, ROUND_MAPS, TRANSIENT, task_states

from skymarshal.data.schema import AGENTS


def test_one_standard_state_machine_with_full_logging_and_tracing(workflow_template: Template) -> None:
    workflow_template.resource_count_is("AWS::StepFunctions::StateMachine", 1)
    workflow_template.has_resource_properties(
        "AWS::StepFunctions::StateMachine",
        {
            "StateMachineType": "STANDARD",
            "LoggingConfiguration": Match.object_like(
                {
                    "Level": "ALL",
                    "IncludeExecutionData": True,
                    "Destinations": [
                        {"CloudWatchLogsLogGroup": {"LogGroupArn": {"Fn::GetAtt": [Match.any_value(), "Arn"]}}}
                    ],
                }
            ),
            "TracingConfiguration": {"Enabled": True},
        },
    )


def test_two_rounds_and_the_debate_round_each_a_map_over_the_agents(definition) -> None:
    maps = {name for name, state in definition["States"].items() if state["Type"] == "Map"}
    assert maps == {*ROUND_MAPS.values(), DEBATE_MAP}
    for phase, name in ROUND_MAPS.items():
        state = definition["States"][name]
        # all seven agents; a retry lists only the ones that run again (workflow/runs/retry.py)
        assert state["ItemsPath"] == ("$.request.agents" if phase == "initial" else "$.request.revision_agents")
        selector = state["ItemSelector"]
        assert selector["agent.$"] == "$$.Map.Item.Value"
        assert selector["phase"] == phase
        assert selector["prompt.$"] == "$.request.prompt"
        assert ("others.$" in selector) == (phase == "revision")
    assert definition["States"][ROUND_MAPS["revision"]]["ItemSelector"]["others.$"] == "$.phase1.collation"


def test_the_debate_loops_over_the_agents_with_the_conflict_stated_and_always_ends_in_arbitration(definition) -> None:
    """After the revision round: debate only when the rule said so; each debate round gets the round before's
    collation and the conflict; after it, the safety gate first, then another round or Arbitrate (the rule's
    maximum bounds the loop: tests/arbitration/test_debate_rule.py)."""
    states = definition["States"]
    gate = states["Debate or arbitrate?"]
    (opens,) = gate["Choices"]
    assert opens["Variable"] == "$.phase2.debate_again" and opens["BooleanEquals"] is True
    assert gate["Default"] == "Arbitrate"
    selector = states[DEBATE_MAP]["ItemSelector"]
    assert selector["phase"] == "debate" and selector["agent.$"] == "$$.Map.Item.Value"
    assert (selector["others.$"], selector["conflict.$"], selector["round.$"]) == (
        "$.debate.collation",
        "$.debate.conflict",
        "$.debate.next_round",
    )
    assert states[DEBATE_MAP]["Next"] == "Collate debate round"
    assert states["Collate debate round"]["Next"] == "Debate again?"
    again = states["Debate again?"]
    safety, loop = again["Choices"]
    assert safety["Variable"] == "$.debate.safety_failed" and safety["Next"] != DEBATE_MAP
    assert (loop["Variable"], loop["Next"]) == ("$.debate.again", DEBATE_MAP)
    assert again["Default"] == "Arbitrate"


@pytest.mark.parametrize("phase", [*ROUND_MAPS, "debate"])
def test_each_agent_task_catches_everything_and_retries_transient_errors(definition, functions, phase) -> None:
    processor = definition["States"][ROUND_MAPS.get(phase, DEBATE_MAP)]["ItemProcessor"]["States"]
    tasks = dict(task_states(processor))
    assert set(tasks) == {f"{AGENT_TASK[agent]} ({phase})" for agent in AGENTS}
    for agent in AGENTS:
        task = tasks[f"{AGENT_TASK[agent]} ({phase})"]
        # Wired to this agent's own function, and given every key of the Map item.
        assert task["Resource"] == f"<{functions[agent]}.Arn>"
        assert "agent.$" in task["Parameters"] and ("others.$" in task["Parameters"]) == (phase != "initial")
        assert task["Catch"] == [
            {"ErrorEquals": ["States.ALL"], "ResultPath": "$.failure", "Next": f"Agent failed ({phase})"}
        ]
        assert processor[f"Agent failed ({phase})"]["Type"] == "Pass"
        assert any(set(r["ErrorEquals"]) >= TRANSIENT and r["BackoffRate"] == 2 for r in task["Retry"])


def test_every_task_state_retries(definition) -> None:
    tasks = dict(task_states(definition["States"]))
    # three agent rounds (initial, revision, debate); Validate, three Collates, Arbitrate, Await approval, Execute, Learn,
    # and Learn again on the failure path (Record failed run, infra/workflow_failures.py)
    assert len(tasks) == 3 * len(AGENTS) + 9
    for name, task in tasks.items():
        assert task.get("Retry"), f"{name} has no Retry"
        assert all(r["BackoffRate"] == 2 and "States.ALL" not in r["ErrorEquals"] for r in task["Retry"]), name


def test_approval_waits_for_a_task_token_and_escalates_on_timeout(definition, functions) -> None:
    approval = definition["States"]["Await duty manager approval"]
    assert approval["Resource"] == "arn:aws:states:::lambda:invoke.waitForTaskToken"
    assert approval["Parameters"]["FunctionName"] == f"<{functions['approval']}.Arn>"
    assert approval["Parameters"]["Payload"]["task_token.$"] == "$$.Task.Token"
    assert approval["TimeoutSecondsPath"] == "$.request.approval_timeout_seconds"
    # the timeout first (Catches are tried in order), then any other failure to the failure path
    catches = [(tuple(c["ErrorEquals"]), c["Next"]) for c in approval["Catch"]]
    assert catches == [(("States.Timeout",), "Escalate: approval timed out"), (("States.ALL",), "Escalate: run failed")]
    assert approval["Next"] == "Duty manager's decision"


def test_a_failed_arbitration_escalates_to_a_duty_manager(definition, functions) -> None:
    arbitrate = definition["States"]["Arbitrate"]
    assert {tuple(c["ErrorEquals"]): c["Next"] for c in arbitrate["Catch"]} == {
        ("States.ALL",): "Escalate: arbitration failed"
    }
    escalate = definition["States"]["Escalate: arbitration failed"]
    assert escalate["Result"]["reason"] == "ARBITRATION_FAILED" and escalate["ResultPath"] == "$.escalation"
    assert escalate["Next"] == "Learn and record outcome"


def test_internal_deadlines_sit_below_the_lambda_timeouts(workflow_template_json, functions) -> None:
    from skymarshal.handlers.agent import DEADLINE_MARGIN_MS

    for name, logical in functions.items():
        props = workflow_template_json["Resources"][logical]["Properties"]
        env = props["Environment"]["Variables"]
        for key in ("SKYMARSHAL_AGENT_DEADLINE_SECONDS", "SKYMARSHAL_ARBITRATOR_DEADLINE_SECONDS"):
            if key in env:
                assert float(env[key]) + DEADLINE_MARGIN_MS / 1000 < props["Timeout"], name
    arbitrator = workflow_template_json["Resources"][functions["arbitrator"]]["Properties"]
    assert "SKYMARSHAL_ARBITRATOR_DEADLINE_SECONDS" in arbitrator["Environment"]["Variables"]


def _choices(state: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(c["Variable"], str(c.get("StringEquals", c.get("BooleanEquals")))): c["Next"] for c in state["Choices"]}


def test_safety_gate_escalates_when_a_safety_agent_failed(definition) -> None:
    gate = definition["States"]["Safety gate"]
    assert gate["Type"] == "Choice"
    assert _choices(gate) == {("$.phase2.safety_failed", "True"): "Escalate: safety agent failed"}
    assert gate["Default"] == "Debate or arbitrate?"  # no debate before the safety gate has passed
    assert definition["States"]["Collate revision round"]["Next"] == "Safety gate"
    # a debate round has the same gate: a safety agent failing in it escalates rather than arbitrates
    debate_gate = _choices(definition["States"]["Debate again?"])
    assert debate_gate[("$.debate.safety_failed", "True")] == "Escalate: safety agent failed"


def test_duty_manager_decision_rejects_asks_for_alternatives_or_executes(definition) -> None:
    decision = definition["States"]["Duty manager's decision"]
    assert decision["Type"] == "Choice"
    assert _choices(decision) == {
        ("$.approval.action", "reject"): "Learn and record outcome",
        ("$.approval.action", "alternatives"): "Arbitrate",
        ("$.approval.action", "exclude"): "Arbitrate",  # a network plan with flights left as scheduled
    }
    assert decision["Default"] == "Execute plan"
    assert definition["States"]["Execute plan"]["Next"] == "Plan still fits the operation?"
    # a plan refused because the operation changed under it (another run took its spare) is decided again
    still_fits = definition["States"]["Plan still fits the operation?"]
    assert _choices(still_fits) == {("$.execution.redecide", "True"): "Arbitrate"}
    assert still_fits["Default"] == "Learn and record outcome"


# ----------------------------------------------------------------------------------------- functions


def test_a_network_disruption_escalates_when_no_network_plan_is_legal(definition) -> None:
    """An airport or airspace scope runs the same rounds (the agents analyse every flight of the window) and
    Arbitrate plans the network; no legal network plan, or a report the planner refuses, escalates
    NETWORK_DISRUPTION — before the flight-scope NO_VALID_PLAN branch, which would catch it first."""
    assert definition["States"]["Validate disruption"]["Next"] == "Initial round done before?"
    plan = definition["States"]["Any valid plan?"]
    (refused,) = [c for c in plan["Choices"] if "And" in c]
    assert {(c["Variable"], str(c.get("StringEquals", c.get("BooleanEquals")))) for c in refused["And"]} == {
        ("$.decision.scope", "network"),
        ("$.decision.has_plan", "False"),
    }
    escalate = definition["States"][refused["Next"]]
    assert refused["Next"] == "Escalate: network disruption" and "NETWORK_DISRUPTION" in json.dumps(escalate)
    assert plan["Choices"].index(refused) < next(
        i for i, c in enumerate(plan["Choices"]) if c.get("Variable") == "$.decision.has_plan"
    )


def test_every_step_after_validate_ends_a_failure_through_learn_which_frees_the_flight(definition) -> None:
    """Issue 48 item 5: a step failing past its retries goes to "Escalate: run failed" → "Record failed run" (Learn)
    → Fail; Learn's own failure ends the run (the next claim sweeps the flight). Validate stays uncaught: its failure
    is the refusal of the report."""
    top = definition["States"]
    caught = {
        name
        for name, state in top.items()
        if state["Type"] in ("Task", "Map")
        and any(
            c["ErrorEquals"] == ["States.ALL"] and c["Next"] == "Escalate: run failed" for c in state.get("Catch", [])
        )
    }
    steps = {n for n, st in top.items() if st["Type"] in ("Task", "Map")}
    uncaught = steps - caught - {"Validate disruption", "Arbitrate", "Learn and record outcome", "Record failed run"}
    assert not uncaught, uncaught
    assert {*ROUND_MAPS.values(), DEBATE_MAP, "Execute plan", "Await duty manager approval"} <= caught
    escalate = top["Escalate: run failed"]
    assert escalate["Parameters"]["reason"] == "RUN_FAILED" and escalate["Next"] == "Record failed run"
    record = top["Record failed run"]
    assert record["Next"] == "Run failed, flight released" and top[record["Next"]]["Type"] == "Fail"
    for learn in ("Learn and record outcome", "Record failed run"):
        (catch,) = top[learn]["Catch"]
        assert top[catch["Next"]]["Type"] == "Fail"
