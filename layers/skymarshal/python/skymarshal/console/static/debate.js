// The debate the agents had after the revision round, when a conflict stayed open: each round's stated conflict
// and who moved, how it ended, and — when they agreed only partly — the agreed actions and the open ones.
import { el } from "./dom.js";

export function debateView(debate) {
  if (!debate) return [];
  const rounds = debate.rounds.map((r) => el("li", {},
    `Round ${r.round}: ${r.conflict.issues.map((i) => i.text).join(" ")}`,
    r.changed.length
      ? el("ul", {}, ...r.changed.map((c) => el("li", {}, `${c.agent}: ${c.before} → ${c.after}`)))
      : el("div", { class: "unread" }, "nobody changed position")));
  const parts = [
    el("strong", {}, `Debate: ${debate.rounds_run} rounds, ${debate.outcome.replace("_", " ")} — ${debate.reason}`),
    el("ol", {}, ...rounds),
  ];
  const agreement = debate.agreement;
  if (agreement) {
    parts.push(el("div", { dataset: { testid: "debate-agreement" } }, `Agreement: ${agreement.status}`));
    if (agreement.agreed_actions.length) parts.push(el("ul", { class: "agreed" }, ...agreement.agreed_actions.map((a) => el("li", {}, `agreed: ${a}`))));
    if (agreement.open_items.length) parts.push(el("ul", { class: "open" }, ...agreement.open_items.map((a) => el("li", { class: "refused" }, `open: ${a}`))));
  }
  return parts;
}
