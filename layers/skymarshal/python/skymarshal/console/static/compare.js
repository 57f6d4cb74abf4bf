// Compare plans at a glance: the top three in one table, best first, with the rules engine's order beside the
// presented one so a reordering by the model is visible (marked by a word and an arrow, not by colour).
import { el, money, pct } from "./dom.js";

const COLUMNS = [
  ["delay", "Delay dep / arr (min)", (f) => `${f.delay_minutes} / ${f.arrival_delay_minutes}`],
  ["cancellations", "Cancelled flights", (f) => f.cancellations],
  ["passengers", "Passengers disrupted", (f) => f.passengers_disrupted],
  ["misconnections", "Misconnections", (f) => f.misconnections],
  ["compensation", "EU261/UK261", (f) => money(f.compensation_usd)],
  ["cost", "Total cost", (f) => money(f.total_cost_usd)],
  ["confidence", "Confidence", (f) => pct(f.confidence)],
];

// What a screen reader says for a plan: its rank, title and key figures in one sentence.
export function planLabel(plan) {
  const f = plan.figures;
  const order = plan.reordered_by_model ? `, moved by the model from rules rank ${plan.rules_rank}` : "";
  return `Plan ${plan.rank}${order}: ${plan.title}. Departure delay ${f.delay_minutes} minutes, arrival delay `
    + `${f.arrival_delay_minutes} minutes, ${f.cancellations} cancelled, `
    + `${f.passengers_disrupted} passengers disrupted, ${f.misconnections} misconnections, `
    + `compensation ${money(f.compensation_usd)}, total cost ${money(f.total_cost_usd)}, confidence ${pct(f.confidence)}.`;
}

function rankCell(plan) {
  const moved = plan.reordered_by_model
    ? el("span", { class: "reordered", title: `the rules ranked it #${plan.rules_rank}; the model moved it` },
        ` ${plan.rank < plan.rules_rank ? "▲" : "▼"} model (rules #${plan.rules_rank})`)
    : el("span", { class: "rules-order" }, " rules order");
  return el("th", { scope: "row" }, `#${plan.rank}`, moved);
}

export function renderCompare(container, gantt, selectedId, onSelect) {
  const plans = gantt.plans;
  const best = (key, pick, lower = true) => {
    const values = plans.map((p) => pick(p.figures));
    return lower ? Math.min(...values) : Math.max(...values);
  };
  const numeric = {
    delay: [(f) => f.arrival_delay_minutes, true], cancellations: [(f) => f.cancellations, true],
    passengers: [(f) => f.passengers_disrupted, true], misconnections: [(f) => f.misconnections, true],
    compensation: [(f) => f.compensation_usd, true], cost: [(f) => f.total_cost_usd, true], confidence: [(f) => f.confidence, false],
  };
  const rows = plans.map((plan) => {
    const cells = COLUMNS.map(([key, , show]) => {
      const [pick, lower] = numeric[key];
      // Starred only where the plans differ: a column of equal values has no best.
      const differ = new Set(plans.map((p) => pick(p.figures))).size > 1;
      const isBest = differ && pick(plan.figures) === best(key, pick, lower);
      // The best value of a column is bold and starred: a shape, not a colour.
      return el("td", { class: isBest ? "best" : "", dataset: { col: key } }, show(plan.figures), isBest ? el("span", { class: "star", "aria-label": "best" }, " ★") : "");
    });
    const selected = plan.scenario_id === selectedId;
    const show = el("button", {
      type: "button", class: "show-plan", "aria-pressed": String(selected), dataset: { testid: `show-plan-${plan.rank}` },
      // the name begins with the visible word, as a voice user says it
      "aria-label": `${selected ? "shown" : "show"} plan ${plan.rank} on the Gantt`, onclick: () => onSelect(plan.scenario_id),
    }, selected ? "shown" : "show");
    return el("tr", { class: selected ? "selected" : "", dataset: { scenario: plan.scenario_id }, "aria-label": planLabel(plan) },
      rankCell(plan), el("td", { class: "plan-title" }, plan.title), cells, el("td", {}, show));
  });
  const overrides = gantt.llm_overrides.length
    ? el("p", { class: "overrides" }, `The model asked for what the rules refused: ${gantt.llm_overrides.join("; ")}`) : "";
  container.replaceChildren(
    el("table", { class: "compare", "data-testid": "compare" },
      el("caption", {}, "The top plans side by side (★ best in its column)"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Rank"), el("th", { scope: "col" }, "Plan"),
        COLUMNS.map(([, title]) => el("th", { scope: "col" }, title)), el("th", { scope: "col" }, "Gantt"))),
      el("tbody", {}, rows)),
    overrides);
}
