// The debate the agents had after the revision round, when a conflict stayed open: each round's stated conflict
// and who moved, how it ended, and — when they agreed only partly — the agreed actions and the open ones; and the
// duty manager's instruction for alternatives, read back.
import { el } from "./dom.js";

export function debateView(debate) {
  if (!debate) return [];
  // One line per round, its conflict and moves folded inside; a conflict stated as in the round before is said once.
  let previous = null;
  const rounds = debate.rounds.map((r) => {
    const conflict = r.conflict.issues.map((i) => i.text).join(" ");
    const same = conflict === previous;
    previous = conflict;
    const moved = r.changed.length ? `${r.changed.length} agent${r.changed.length > 1 ? "s" : ""} moved` : "nobody changed position";
    return el("li", { dataset: { round: r.round } }, el("details", {},
      el("summary", {}, `Round ${r.round}: ${moved}${same ? " (same conflict as the round before)" : ""}`),
      same ? null : el("p", {}, conflict),
      r.changed.length ? el("ul", {}, ...r.changed.map((c) => el("li", {}, `${c.agent}: ${c.before} → ${c.after}`))) : null));
  });
  const parts = [
    el("strong", {}, `Debate: ${debate.rounds_run} rounds, ${debate.outcome.replace("_", " ")} — ${debate.reason}`),
    el("ol", { class: "debate-rounds" }, ...rounds),
  ];
  const agreement = debate.agreement;
  if (agreement) {
    parts.push(el("div", { dataset: { testid: "debate-agreement" } }, `Agreement: ${agreement.status}`));
    if (agreement.agreed_actions.length) parts.push(el("ul", { class: "agreed" }, ...agreement.agreed_actions.map((a) => el("li", {}, `agreed: ${a}`))));
    if (agreement.open_items.length) parts.push(el("ul", { class: "open" }, ...agreement.open_items.map((a) => el("li", { class: "refused" }, `open: ${a}`))));
  }
  return parts;
}

// The duty manager's instruction shown back: what it became, what it removed, what was refused or not understood.
export function instructionRead(view) {
  const read = view.instruction;
  if (!read) return [];
  const items = [];
  if (read.refused) items.push(el("li", { class: "refused" }, `refused: ${read.refused.constraint} (${read.refused.clause})`));
  for (const c of read.constraints) items.push(el("li", {}, `${c.hard ? "" : "preference: "}${c.words}`));
  for (const words of read.not_understood) items.push(el("li", { class: "unread" }, `not understood: “${words}”`));
  for (const r of view.removed_by_instruction) items.push(el("li", { class: "removed" }, `removed ${r.title} — ${r.constraint}`));
  return [el("strong", {}, `Your instruction: “${read.text}”`), el("ul", {}, ...items)];
}
