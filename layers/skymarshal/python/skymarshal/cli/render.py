"""What the workflow commands print: live progress, the arbitrator's decision (with a network decision's per-flight
table), the outcome, the audit file."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..local import control

if TYPE_CHECKING:
    from ..models.debate import DebateRecord
    from ..models.network_plan import FlightAction, NetworkDecision, NetworkPlan, ValidatedNetworkPlan

_STATUS_STYLE = {"ok": "green", "degraded": "yellow", "error": "red", "input_error": "red", "running": "cyan"}


class Progress:
    """Prints each state as it is entered and each agent as it finishes (on stderr, so --json stays clean).

    Rich reads `[...]` as markup: every text that comes from a user or the data (the prompt, names, comments,
    messages) goes through `escape`, so "[/bold]" in a prompt prints as written instead of raising MarkupError.
    """

    def __init__(self, quiet: bool = False):
        self.console = Console(stderr=True, highlight=False, emoji=False, quiet=quiet)
        self.seen_states = 0
        self.done: set[tuple[str, str]] = set()

    def header(self, name: str, prompt: str, started: bool) -> None:
        verb = "started" if started else "already exists (same id): following it"
        self.console.print(f'[bold]Run {escape(name)}[/] {verb}\n  "{escape(prompt)}"')

    def update(self, progress) -> None:
        for state, _at in progress.states[self.seen_states :]:
            if (
                "round" in state
                or state
                in (
                    "Validate disruption",
                    "Safety gate",
                    "Arbitrate",
                    "Execute plan",
                    "Learn and record outcome",
                    "Await duty manager approval",
                )
                or "Escalate" in state
            ):
                self.console.print(f"[bold]▶ {escape(state)}[/]")
        self.seen_states = len(progress.states)
        for key, agent in sorted(progress.agents.items()):
            if agent.status != "running" and key not in self.done:
                self.done.add(key)
                style = _STATUS_STYLE.get(agent.status, "white")
                seconds = f"{agent.seconds:5.1f} s" if agent.seconds is not None else "      "
                self.console.print(
                    f"    {escape(agent.phase):8s} {escape(agent.agent):17s} [{style}]{escape(agent.status):11s}[/] {seconds}"
                )

    def note(self, text: str) -> None:
        self.console.print(f"  [bold]duty manager:[/] {escape(text)}")

    def finish(self, result: dict) -> None:
        out = Console(highlight=False, emoji=False)
        status = result["status"]
        out.print(f"\n[bold]Outcome: {escape(status.upper())}[/]  (run {escape(result['execution'])})")
        if result.get("message"):
            out.print(f"  {result['message']}", markup=False)
        outcome = result.get("outcome") or {}
        if outcome.get("message"):
            out.print(f"  {outcome['message']}", markup=False)
        approval = result.get("approval") or {}
        if approval:
            out.print(
                f"  decided by {approval.get('decided_by')}: {approval.get('action')} "
                f"{approval.get('scenario_id') or ''}"
                + (f' — "{approval["comment"]}"' if approval.get("comment") else ""),
                markup=False,
            )
        for line in result.get("actions") or []:
            out.print(f"  ✓ {line}", markup=False)
        out.print(f"  audit: {result['audit_path']}", markup=False)


def render_understood(disruption: dict) -> None:
    """The report as facts, each with its source; user words printed as they are (no markup)."""
    from ..models.disruption import Disruption

    d = Disruption.model_validate(disruption)
    out = Console(highlight=False, emoji=False)
    out.print(f"\nUnderstood: {d.summary()}", markup=False)
    for fact in d.facts:
        out.print(f"   {fact.name} = {fact.value}  [{fact.source}: {fact.evidence}]", markup=False)
    for c in d.corrections:  # the duty manager's, with what had been read
        out.print(f"   corrected {c.key}: {c.read or '(nothing read)'} -> {c.value}  by {c.by}", markup=False)
    for u in d.unsure:  # asked, not guessed: the fact that would settle it
        out.print(f"   UNSURE {u.message} — correct it with --fact {u.key}=...", markup=False)


def render_decision(decision: dict | None) -> None:
    from ..arbitration.models import ArbitratorOutput

    if not decision:
        print("\nNo decision: the run ended before arbitration.")
        return
    d = ArbitratorOutput.model_validate(decision)
    if d.disruption is not None:  # what was understood, before what is proposed
        render_understood(d.disruption.model_dump(mode="json"))
    if d.instruction is not None:  # shown back: what the duty manager's words became
        read = d.instruction
        print(f"\nInstruction: {read.text}")
        if read.refused is not None:
            print(f"   refused: {read.refused.message}")
        for constraint in read.constraints:
            print(f"   = {constraint.describe()}" + ("" if constraint.hard else "  (a preference: reorders only)"))
        for words in read.not_understood:
            print(f"   ? not understood: {words}")
        for removed in d.removed_by_instruction:
            print(f"   removed {removed.title} [{removed.scenario_id}]: {removed.constraint}")
    if d.debate is not None:
        render_debate(d.debate)
    print(f"\nDecision [{d.status}]: {d.final_decision}  (confidence {d.confidence:.0%})")
    for e in d.escalations:
        print(f"  ESCALATE {e.code}: {e.message}")
    if d.estimate is not None and d.redecide_at is not None:  # issue 46: when the cause clears, when to look again
        est = d.estimate
        print(
            f"  Cause clears ({est.kind.replace('_', ' ')}): expected {est.expected:%H:%MZ}, at the latest "
            f"{est.latest:%H:%MZ} ({est.source}: {est.evidence}); look again at {d.redecide_at:%H:%MZ}"
        )
    if d.network is not None:
        render_network(d.network, {r.scenario.scenario_id: r.rank for r in d.ranked})
    for r in d.ranked:
        s = r.scenario
        print(f"\n#{r.rank} {s.title}  [{s.scenario_id}]  score {r.score:.2f}  confidence {r.confidence:.0%}")
        print(f"   delay {s.delay_minutes} min, {s.passengers_impacted} passengers, USD {s.cost_usd:,.0f}")
        if s.passenger_minutes is not None:  # what the day scorecard counts (arbitration/day_cost.py)
            print(
                f"   the day: {s.passenger_minutes:,} passenger-minutes at final destinations, "
                f"{s.overnight_passengers} overnight, USD {s.knock_on_usd:,.0f} owed on the knock-on"
            )
        for line in r.pros:
            print(f"   + {line}")
        for line in r.cons:
            print(f"   - {line}")
        for check in r.compliance:
            if check.source == "rules":
                print(f"   [{check.status}] {check.constraint}: {check.message} ({check.clause})")
        print(f"   precedent: {r.precedent}")
        sens = r.sensitivity
        print(
            f"   sensitivity: {sens.delay_plus_30}; {sens.delay_minus_30}; {sens.one_spare_fewer}; {sens.one_reserve_more}"
        )
    print(f"\n{len(d.rejected)} scenario(s) rejected:")
    for v in d.rejected:
        print(f"   x {v.scenario.title}: " + "; ".join(f"{r.code} {r.message}" for r in v.rejections[:2]))
    print(f"\nJustification: {d.justification}")
    print(f"Reasoning: {d.reasoning}")
    print(f"Sources ({d.knowledge_mode}):")
    for c in d.citations:
        print(f"   {c.document} § {c.section}")


def write_audit(name: str, document: dict) -> Path:
    path = control.home() / "audit" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, sort_keys=True, default=str))
    return path.resolve()


def render_debate(debate: DebateRecord) -> None:
    """The rounds after the revision round: what each was told, who moved, how it ended, what was agreed."""
    print(f"\nDebate: {debate.rounds_run} rounds, {debate.outcome.replace('_', ' ')} — {debate.reason}")
    for r in debate.rounds:
        print(f"   round {r.round}: " + " ".join(i.text for i in r.conflict.issues))
        for change in r.changed:
            print(f"      {change.agent}: {change.before} -> {change.after}")
        if not r.changed:
            print("      nobody changed position")
    if debate.agreement is not None:
        print(f"   agreement: {debate.agreement.status}")
        for action in debate.agreement.agreed_actions:
            print(f"   + agreed: {action}")
        for item in debate.agreement.open_items:
            print(f"   ? open: {item}")


def _console() -> Console:
    out = Console(highlight=False, emoji=False)
    # Piped or captured, Rich assumes 80 columns and would fold every row: a log keeps each row on one line.
    return out if out.is_terminal else Console(highlight=False, emoji=False, width=200)


def render_network(network: NetworkDecision, ranks: dict[str, int]) -> None:
    """The restriction, the duty manager's exclusions (and a refused one), the recommended plan's per-flight table
    and a totals line per plan. Cells are Text, never markup: reasons and names come from the data and the user."""
    from ..api.views import restriction_summary

    out = _console()
    print(
        f"\nNetwork: {restriction_summary(network.restriction)} — {network.flights_affected} flights in the window, "
        f"{network.flights_inheriting} inheriting a delay"
    )
    for flight_id, why in network.excluded.items():
        print(f"   excluded {flight_id}: {why}")
    if network.exclusion_refused:
        print(f"   EXCLUSION REFUSED: {network.exclusion_refused}")
    recommended = min(ranks, key=lambda plan_id: ranks[plan_id]) if ranks else None
    shown = next((v.plan for v in network.plans if v.plan.plan_id == recommended), None)
    if shown is not None:
        out.print(flight_table(shown, network.excluded))
    print("Plans:")
    for v in network.plans:
        print(f"   {totals_line(v, ranks.get(v.plan.plan_id))}")


def _when(at: datetime, same_day_as: datetime | None = None) -> str:
    return f"{at:%H:%M}" if same_day_as is not None and at.date() == same_day_as.date() else f"{at:%d %b %H:%M}"


def _row(a: FlightAction, excluded: dict[str, str]) -> list[Text]:
    departure = _when(a.scheduled_departure)
    if a.new_departure is None:
        departure += " → cancelled"
    elif a.new_departure != a.scheduled_departure:
        departure += f" → {_when(a.new_departure, a.scheduled_departure)}"
    tail = a.registration
    if a.new_registration != a.registration:
        tail += f" → {a.new_registration or '—'}"
    crew = "\n".join(f"{c.rank} {c.replaced} → {c.reserve}" for c in a.crew_changes)
    moved = a.passengers_reaccommodated or a.passengers_stranded_overnight
    reason = f"EXCLUDED ({excluded[a.flight_id]})" if a.flight_id in excluded else a.reason
    cells = [
        a.flight_number,
        f"{a.origin}→{a.destination}",
        a.action,
        departure,
        tail,
        crew or "—",
        str(a.passengers),
        f"{a.passengers_reaccommodated} / {a.passengers_stranded_overnight}" if moved else "—",
        reason,
    ]
    return [Text(c) for c in cells]


def flight_table(plan: NetworkPlan, excluded: dict[str, str]) -> Table:
    table = Table(title=Text(f"{plan.title} [{plan.plan_id}], flight by flight (UTC)"), title_justify="left")
    for name in ("Flight", "Route", "Action", "Departure", "Tail", "Crew changes", "Pax", "Re-acc./overnight"):
        table.add_column(name, no_wrap=name != "Crew changes")
    table.add_column("Reason", overflow="fold")
    for a in plan.actions:
        table.add_row(*_row(a, excluded))
    return table


def totals_line(v: ValidatedNetworkPlan, rank: int | None) -> str:
    p, t = v.plan, v.plan.totals
    if v.rejections:
        first = v.rejections[0]
        more = f" and {len(v.rejections) - 1} more" if len(v.rejections) > 1 else ""
        return f"x {p.title} [{p.plan_id}]: REJECTED — {first.flight_id} {first.code}: {first.message}{more}"
    standing = f"rank {rank}" if rank is not None else "valid, set aside"
    return (
        f"{'*' if rank == 1 else '-'} {p.title} [{p.plan_id}] ({standing}): {t.flights} flights, {t.operated} operated, "
        f"{t.delay_minutes} min of delay (at most {t.max_delay_minutes}), {t.cancellations} cancelled, "
        f"{t.tail_swaps} tail swap(s), {t.reserves_called} reserve(s), {t.passengers_reaccommodated} re-accommodated, "
        f"{t.passengers_stranded_overnight} overnight, USD {t.cost_usd:,.0f}"
    )
