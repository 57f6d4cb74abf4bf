"""The debate through the synthesized state machine (issue 20 item 3): EY101's network agent proposes only plans
that break the crew's duty limits, so a third round runs with that conflict stated; the network agent withdraws
them, the agents agree, and the decision records the debate. EY123 has no such conflict: two rounds, as before."""

from __future__ import annotations

import uuid

from state_sizes import assert_every_state_fits
from workflow_helpers import DEMO

from skymarshal.api.plans import phase_spans
from skymarshal.api.views import decision_view
from skymarshal.cli.render import render_decision
from skymarshal.workflow.models import ApprovalDecision

CREW = "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time"


def _calls(calls, phase: str) -> int:
    return sum(1 for name, p in calls if name.startswith("FunctionsAgent") and p == phase)


def _to_approval(wf, prompt: str, tag: str) -> str:
    name = wf.start(prompt, disruption_id=f"t-{tag}-{uuid.uuid4().hex[:6]}")["execution_name"]
    progress = wf.follow(name, timeout_s=600)
    assert progress.awaiting_approval, (progress.status, progress.current, wf.describe(name).get("cause"))
    return name


def test_an_open_conflict_runs_a_third_round_and_the_decision_records_it(wf, calls, capsys):
    name = _to_approval(wf, CREW, "debate")
    assert (_calls(calls, "initial"), _calls(calls, "revision"), _calls(calls, "debate")) == (7, 7, 7)
    decision = wf.decision(name)
    debate = decision["debate"]
    assert debate["rounds_run"] == 3 and debate["outcome"] == "agreement", debate["reason"]
    (third,) = debate["rounds"]
    stated = third["conflict"]
    assert third["round"] == stated["round"] == 3
    (issue,) = stated["issues"]
    assert issue["kind"] == "safety_vs_business" and issue["holdouts"] == ["network"]
    assert "crew_compliance" in issue["agents"] and "breaks" in issue["text"]
    withdrawn = {p["scenario_id"] for p in issue["disputed"]["network"]}
    assert withdrawn and all(s not in {r["scenario"]["scenario_id"] for r in decision["ranked"]} for s in withdrawn)
    # who changed position: the network agent, which withdrew the plans the crew's limits rule out
    (change,) = third["changed"]
    assert change["agent"] == "network" and change["before"] != change["after"]
    # EY101's crew is over its duty limit at any delay: nothing inside the limit to propose instead
    assert all(p["inside_minutes"] is None for p in issue["disputed"]["network"])
    assert "inside the crew's duty limit" not in change["after"] and "Delay" not in change["after"]
    # agreement: every action of the recommended plan is proposed, nothing left open
    top = decision["ranked"][0]["scenario"]
    assert debate["agreement"]["status"] == "agreed" and debate["agreement"]["open_items"] == []
    assert len(debate["agreement"]["agreed_actions"]) == len(top["actions"])
    # shown to the duty manager: the API's view (the console) and the CLI, the round and what was withdrawn
    view = decision_view(name, decision, awaiting_approval=True, attempt=1)
    assert view.debate is not None and view.debate.rounds[0].changed[0].agent == "network"
    render_decision(decision)
    shown = capsys.readouterr().out
    assert "Debate: 3 rounds, agreement" in shown and "network: " in shown and "agreement: agreed" in shown
    # the console's phases: the debate round by name, no Choice state
    progress = wf.progress(name)
    names = [s for s, _ in progress.states]
    assert "Debate round: seven agents" in names and "Collate debate round" in names
    keys = [s.key for s in phase_spans(progress.states, None)]
    assert keys == ["validating", "initial", "revision", "debate", "arbitrating", "awaiting_approval"]
    # the audit trail: three rounds and the debate round's record, in order
    audit = wf.audit(name)
    assert [r["kind"] for r in audit["trail"]][:6] == ["request", "round", "round", "round", "debate", "decision"]
    assert audit["verification"]["ok"], audit["verification"]
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test run"))
    assert wf.follow(name).status == "SUCCEEDED"
    assert_every_state_fits(wf, name)  # a debate round's Map result is the largest a single flight's run makes


def test_no_conflict_keeps_exactly_two_rounds(wf, calls):
    name = _to_approval(wf, DEMO, "nodebate")
    assert (_calls(calls, "initial"), _calls(calls, "revision"), _calls(calls, "debate")) == (7, 7, 0)
    assert wf.decision(name)["debate"] is None
    names = [s for s, _ in wf.progress(name).states]
    assert "Debate or arbitrate?" in names and not any(n.startswith("Debate round") for n in names)
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test run"))
    assert wf.follow(name).status == "SUCCEEDED"


def test_a_delay_past_the_crew_agents_limit_that_answers_for_the_next_duty_is_not_argued(wf, calls):
    """EY3's crew agent says the rostered crew can take a shorter delay than the network agent's — a limit set by a
    member's rest before their next duty. The network's delay moves that next duty's report (the crew rules find it
    legal), so it is not refused at the agent's limit and nothing is left to argue: two rounds, the network's plan
    ranked, with the later duty it answers for (arbitration/bounds.py: the limit answered member by member). A
    delay past a crew's own duty limit is still argued (the EY101 case above; the inside delay the debate states:
    tests/arbitration/test_debate_rule.py)."""
    name = _to_approval(wf, "Flight EY3 on January 20 has a crew member out of duty time", "inside")
    decision = wf.decision(name)
    assert decision["debate"] is None and _calls(calls, "debate") == 0
    network = [r["scenario"] for r in decision["ranked"] if r["scenario"]["sources"] == ["network"]]
    assert network, [r["scenario"]["scenario_id"] for r in decision["ranked"]]
    (plan,) = network
    later = {a["flight_id"] for a in plan["actions"] if a["kind"] in ("rest_crew", "reassign_crew")}
    assert later - {plan["actions"][0]["flight_id"]}  # a later duty of its crew, answered in the plan
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test run"))
    assert wf.follow(name).status == "SUCCEEDED"
