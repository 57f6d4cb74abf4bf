"""What `skymarshal analyze` prints of a decision: the top three with explanations, compliance and sources."""

from __future__ import annotations

from reported import reported

from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.arbitration.models import ArbitratorOutput
from skymarshal.cli.render import render_decision
from skymarshal.models.disruption import Disruption, Fact, Scope


def test_the_decision_shows_the_top_three_with_explanations_and_sources(capsys, account, demo_collations):
    prompt, revised = demo_collations["mechanical"]
    decision = arbitrate(
        revised, prompt, handle=account.handle(), llm=None, disruption=reported(account.handle(), prompt)
    )
    render_decision(decision.model_dump(mode="json"))
    out = capsys.readouterr().out
    assert "#1 Swap to A6-BLT" in out and len(decision.ranked) >= 2
    assert all(f"#{r.rank} {r.scenario.title}" in out for r in decision.ranked[:3])  # the top three, or all there are
    assert "[legal] tail swap eligibility" in out and "precedent:" in out and "sensitivity:" in out
    assert "AIRCRAFT_NOT_AIRWORTHY" in out and "Sources (local):" in out and "§" in out


def test_no_decision_says_the_run_ended_before_arbitration(capsys):
    render_decision(None)
    assert "ended before arbitration" in capsys.readouterr().out


def test_what_was_understood_comes_before_the_decision(capsys):
    facts = Disruption.of_code(
        41,
        cause="mechanical",
        scope=Scope(kind="flight", flight_numbers=["EY123"]),
        facts=[Fact(name="aircraft_defect", value=41, source="stated", evidence="mechanical", span=(35, 45))],
    )
    output = ArbitratorOutput(
        final_decision="Escalate EY123",
        recommendations=[],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification="",
        reasoning="",
        confidence=0.0,
        status="escalated",
        disruption=facts,
    )
    render_decision(output.model_dump(mode="json"))
    out = capsys.readouterr().out
    assert out.index("Understood: mechanical (AHM 730 code 41, technical) - flight EY123") < out.index("Decision [")
    assert "aircraft_defect = 41  [stated: mechanical]" in out
