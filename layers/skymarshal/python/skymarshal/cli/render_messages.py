"""`analyze` at approval: what each ranked plan will send — its ASM/MVT messages and who must be told."""

from __future__ import annotations

from collections import Counter

from ..messages.models import PlanMessages

SHOWN_MESSAGES = 4  # a network plan sends dozens: the first few in full, then the count by kind


def render_messages(plans: list[PlanMessages]) -> None:
    """Plain print (never Rich markup): message texts hold slashes and brackets as sent."""
    for rank, plan in enumerate(plans, start=1):
        t = plan.totals
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(Counter(m.action for m in plan.messages).items()))
        print(
            f"\n#{rank} [{plan.scenario_id}] will send {t.messages} message(s)"
            + (f" ({kinds})" if kinds else "")
            + f"; tell {t.crew} crew, {t.stations} station(s), {t.passengers} passenger(s)"
        )
        for message in plan.messages[:SHOWN_MESSAGES]:
            print(
                f"   {message.standard} {message.flight_number} ({message.why}): "
                + " / ".join(message.text.splitlines())
            )
        if len(plan.messages) > SHOWN_MESSAGES:
            print(f"   ... and {len(plan.messages) - SHOWN_MESSAGES} more")
        for refused in plan.refused:
            print(f"   NOT SENT {refused.standard} {refused.flight_id}: {refused.problem}")
        changes = Counter(c.change for c in plan.crew)
        if changes:
            print("   crew: " + ", ".join(f"{n} {change.replace('_', ' ')}" for change, n in sorted(changes.items())))
        groups: Counter[str] = Counter()
        for g in plan.passengers:
            groups[g.change] += g.passengers
        if groups:
            print("   passengers: " + ", ".join(f"{n} {change}" for change, n in sorted(groups.items())))
        if plan.stations:
            print("   stations: " + ", ".join(s.station for s in plan.stations))
