"""The revision round: an agent reads the full initial collation of the others and may revise; a debate round
(3 to 5) reads the previous round's collation and the conflict stated to it, and withdraws what that conflict
shows breaks a binding constraint.

What can change an analysis is the delay it prices: a grounded aircraft's estimated release (maintenance),
the time the weather at the destination clears (regulatory), or a crew that must be replaced (crew
compliance). The agent re-runs its analysis at that delay and records what changed. A safety agent's
binding constraints from the first round are kept: a revision can add constraints, never relax one.
"""

from __future__ import annotations

from ..models.agent_response import RecoveryProposal, Revision
from ..models.debate import StatedConflict, proposal_matches
from ..models.operational import Flight


def delay_from_collation(flight: Flight, others: dict[str, dict]) -> tuple[int | None, str | None]:
    """The delay the other agents' findings imply for this flight, and who said so."""
    maintenance = others.get("maintenance") or {}
    for constraint in maintenance.get("constraints", []):
        release = constraint.get("estimated_release")
        if constraint.get("airworthy") is False and release:
            from datetime import datetime

            minutes = int(
                (datetime.fromisoformat(release.replace("Z", "+00:00")) - flight.scheduled_departure).total_seconds()
                // 60
            )
            return max(0, minutes), f"maintenance: {flight.aircraft_registration} released at {release}"
    regulatory = others.get("regulatory") or {}
    for proposal in regulatory.get("proposals", []):
        if proposal.get("kind") == "delay" and proposal.get("estimated_delay_minutes"):
            return int(proposal["estimated_delay_minutes"]), "regulatory: weather at the destination clears later"
    return None, None


def describe_revision(before: dict, after: dict, considered: list[str], basis: str | None) -> Revision:
    changes = []
    if before.get("recommendation") != after.get("recommendation"):
        changes.append(f"recommendation changed ({basis}): {after.get('recommendation')}")
    if after.get("impact") is not None and before.get("impact") != after.get("impact"):
        changes.append(f"impact re-assessed ({basis}): {after.get('impact')}")
    added = sorted(set(after.get("binding_constraints", [])) - set(before.get("binding_constraints", [])))
    if added:
        changes.append(f"{len(added)} binding constraint(s) added ({basis})")
    return Revision(revised=bool(changes), changes=changes, considered=considered)


def concede(agent: str, proposals: list[RecoveryProposal], conflict: StatedConflict | None) -> tuple[list, list[str]]:
    """A debate round: the agent's proposals less those the stated conflict says break a binding safety constraint,
    and a sentence for each one withdrawn. Legality is computed, not argued: an agent told its plan breaks a binding
    constraint withdraws it (a model may say why it regrets it, never keep it). A delay withdrawn for the rostered
    crew's duty limit is proposed again at the longest delay the conflict says is inside it — the agent argues
    within the constraint, and the arbitrator validates the new proposal like any other."""
    if conflict is None:
        return proposals, []
    disputed = [plan for issue in conflict.issues for plan in issue.disputed.get(agent, [])]
    kept, notes, instead = [], [], []
    for proposal in proposals:
        plan = next((p for p in disputed if proposal_matches(proposal.model_dump(mode="json"), p)), None)
        if plan is None:
            kept.append(proposal)
            continue
        notes.append(f"withdrew '{proposal.title}' in debate round {conflict.round}: it breaks {plan.constraint}")
        if plan.inside_minutes is not None:
            instead.append(_inside_the_limit(proposal, plan.inside_minutes))
    for proposal in instead:
        minutes = proposal.estimated_delay_minutes
        if all(p.kind != "delay" or p.estimated_delay_minutes != minutes for p in kept):
            kept.append(proposal)
            notes.append(f"proposed '{proposal.title}' in debate round {conflict.round}, inside the crew's duty limit")
    return kept, notes


def _inside_the_limit(withdrawn: RecoveryProposal, minutes: int) -> RecoveryProposal:
    return RecoveryProposal(
        kind="delay",
        title=f"Delay {minutes} min (inside the crew's duty limit)",
        detail=f"Instead of '{withdrawn.title}': the longest delay the rostered crew may legally take.",
        parameters={**withdrawn.parameters, "delay_minutes": minutes},
        estimated_delay_minutes=minutes,
    )
