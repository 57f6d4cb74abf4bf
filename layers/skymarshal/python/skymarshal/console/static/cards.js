// The why beside every plan: each card's figures, rationale, the binding findings it keeps (one row per distinct
// finding with its clause and sentence), what would change its rank and the precedent; below the cards the plans
// refused, grouped by their typed reason; above everything an escalation banner saying what can be done.
import { bothZones, el, money, pct } from "./dom.js";

const SENSITIVITY = [
  ["delay_plus_30", "30 min more delay"],
  ["delay_minus_30", "30 min less delay"],
  ["one_spare_fewer", "one spare aircraft fewer"],
  ["one_reserve_more", "one reserve more"],
];

export const cardLabel = (plan) => `Plan ${plan.rank}: ${plan.title}. Delay ${plan.delay_minutes} minutes, cost `
  + `${money(plan.cost_usd)}, ${plan.passengers_impacted} passengers, confidence ${pct(plan.confidence)}.`;

function findingsTable(plan) {
  const rows = plan.findings || [];
  const who = (f) => (f.subjects.length ? `${f.subjects.slice(0, 4).join(", ")}${f.subjects.length > 4 ? ` +${f.subjects.length - 4}` : ""}` : "");
  return el("table", { class: "findings", dataset: { testid: `findings-${plan.rank}` } },
    el("caption", {}, `Binding findings it keeps (${rows.length} findings, from ${plan.compliance.length} checks)`),
    el("thead", {}, el("tr", {}, ["status", "constraint", "clause", "finding", "about"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map((f) => el("tr", { class: f.status },
      el("td", {}, f.status.replace("_", " ")),
      el("td", {}, f.constraint, f.count > 1 ? el("span", { class: "count" }, ` ×${f.count}`) : null),
      el("td", {}, f.clause),
      el("td", { class: "message" }, f.message, f.messages.length > 1
        ? el("details", {}, el("summary", {}, `${f.messages.length - 1} more`), el("ul", {}, f.messages.slice(1).map((m) => el("li", {}, m))))
        : null),
      el("td", {}, who(f))))));
}

function sensitivityList(plan) {
  const s = plan.sensitivity || {};
  const items = SENSITIVITY.filter(([key]) => s[key]).map(([key, label]) => el("li", {}, el("strong", {}, `${label}: `), s[key]));
  return items.length ? el("ul", { class: "sensitivity", dataset: { testid: `sensitivity-${plan.rank}` } }, items) : null;
}

export function card(plan, { canDecide, onApprove }) {
  // Named by its visible words (a voice user says "click Approve #2"); the plan's title describes it.
  const approve = el("button", { class: "approve", dataset: { testid: `approve-${plan.rank}` },
    "aria-describedby": `card-title-${plan.rank}`, onclick: () => onApprove(plan) }, `Approve #${plan.rank}`);
  approve.hidden = !canDecide;
  const broken = (plan.findings || []).filter((f) => f.status !== "legal").length;
  const sensitivity = sensitivityList(plan);
  return el("article", { class: "card", dataset: { rank: plan.rank, scenario: plan.scenario_id }, "aria-label": cardLabel(plan) },
    el("h4", { id: `card-title-${plan.rank}` }, `#${plan.rank} ${plan.title}`),
    el("p", { class: "figures" }, `score ${plan.score.toFixed(2)} · confidence ${pct(plan.confidence)} · `
      + `${plan.scenario_id.startsWith("network:") ? "longest departure delay" : "departure delay"} ${plan.delay_minutes} min · cost ${money(plan.cost_usd)} · ${plan.passengers_impacted} pax`),
    el("p", { class: "rationale" }, plan.rationale),
    el("div", { class: "pros-cons" },
      el("ul", { class: "pros" }, plan.pros.map((p) => el("li", {}, p))),
      el("ul", { class: "cons" }, plan.cons.map((c) => el("li", {}, c)))),
    el("h5", {}, "Why it is legal"),
    (plan.findings || []).length
      ? el("details", { open: broken ? "" : null }, el("summary", {}, `${plan.findings.length} binding findings`
        + (broken ? `, ${broken} at risk or broken` : ", all kept")), findingsTable(plan))
      : el("p", { class: "findings-none", dataset: { testid: `findings-${plan.rank}` } }, plan.scenario_id.startsWith("network:")
        ? "every flight of the plan validated with zero tolerance: see the per-flight table"
        : "no binding finding applies to this plan"),
    plan.precedent ? el("p", { class: "precedent", dataset: { testid: `precedent-${plan.rank}` } }, el("strong", {}, "Precedent: "), plan.precedent) : null,
    sensitivity ? [el("h5", {}, "What would change its rank"), sensitivity] : null,
    approve);
}

// The plans refused, grouped by typed reason: the most common group first, each plan with its sentences.
export function refusedView(groups) {
  if (!groups?.length) return [];
  const total = groups.reduce((n, g) => n + g.plans.length, 0);
  return [el("details", { class: "fold", dataset: { testid: "refused-fold" } }, el("summary", {}, el("h3", { class: "inline" }, `Plans refused (${total})`)),
    ...groups.map((g) => el("details", { class: "refused-group", dataset: { code: g.code } },
      el("summary", {}, `${g.label} — ${g.code} (${g.plans.length})`),
      el("ul", {}, g.plans.map((p) => el("li", { dataset: { scenario: p.scenario_id } },
        el("strong", {}, p.title), `: ${p.reasons.join("; ")}`))))))];
}

// An escalation is the first thing a duty manager reads: its code, its reason and what can be done.
export function escalationView(banners) {
  return (banners || []).map((b) => el("div", { class: "escalation", role: "alert", dataset: { code: b.code } },
    el("strong", {}, `Escalated: ${b.code}`), ` — ${b.message}`, el("p", {}, `What you can do: ${b.action}`)));
}

const DECIDED_WORDS = { approve: "Approved", select: "Selected instead", alternatives: "Asked for alternatives",
  reject: "Rejected every plan", exclude: "Excluded flights and asked to validate again" };

// The answer given, kept on the page: what was chosen, by whom and when; the chosen card is marked in words.
export function markDecided(box, decided, view) {
  box.hidden = !decided;
  if (!decided) return;
  const plan = view?.top.find((p) => p.scenario_id === decided.scenario_id);
  const what = plan ? ` plan #${plan.rank} ${plan.title}` : decided.scenario_id ? ` ${decided.scenario_id}` : "";
  const when = decided.decided_at ? ` at ${bothZones(decided.decided_at, view?.station, { date: true })}` : "";
  box.textContent = `${DECIDED_WORDS[decided.action] || decided.action}${what} by ${decided.decided_by}${when}`
    + `${decided.comment ? ` — “${decided.comment}”` : ""}${decided.instruction ? ` — instruction: “${decided.instruction}”` : ""}`;
  for (const article of document.querySelectorAll("#cards article")) {
    const chosen = plan && Number(article.dataset.rank) === plan.rank;
    article.classList.toggle("chosen", Boolean(chosen));
    if (chosen && !article.querySelector(".chosen-mark")) article.prepend(el("p", { class: "chosen-mark" }, "✔ chosen"));
  }
  document.querySelectorAll("#cards button.approve").forEach((b) => { b.hidden = true; });
}
