// The runs list in the console's side bar (GET /api/disruptions): one line per run, by what happened.

import { el } from "./dom.js";

// A run by what happened: its outcome in words (and colour), what it is about, the report's first line; the
// Step Functions status only as a detail.
export function runLine(run) {
  return el("li", { class: "run-line", dataset: { outcome: run.outcome } },
    el("span", { class: `outcome ${run.outcome}` }, run.outcome_text), " ",
    el("a", { href: `#${run.disruption_id}`, dataset: { run: run.disruption_id } }, run.subject || run.disruption_id),
    el("small", { title: `${run.disruption_id} · Step Functions ${run.status}` }, run.report || run.disruption_id),
    run.detail ? el("small", { class: "detail" }, run.detail) : "");
}
