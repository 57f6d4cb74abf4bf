// Facts first: the disruption as the system understood the report, above the plans. The report's own words are
// highlighted where each stated fact came from (the fact's [start, end) span), so a duty manager sees at once
// what was read from the text, what was found in the data and what was assumed from policy.
import { el } from "./dom.js";
import { correctionForm, correctionsView, unsureView } from "./facts_edit.js";

const SOURCE_TEXT = { stated: "stated in the report", data: "found in the data", policy: "estimated from policy" };
const fmtTime = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;

function scopeText(scope) {
  const what = {
    flight: scope.flight_numbers.join(", "),
    crew_member: `${(scope.crew_position || "crew").replace("_", " ").toLowerCase()} of ${scope.flight_numbers.join(", ")}`,
    tail: scope.registration || "",
    airport: scope.airport || "",
    airspace: scope.airspace || scope.airport || "",
  }[scope.kind];
  return `${scope.kind.replace("_", " ")} ${what}`.trim();
}

// The report with a <mark> per stated fact's span (overlapping spans: the earlier one wins, the other is listed).
function highlighted(prompt, facts) {
  const spans = facts
    .map((fact, index) => ({ fact, index }))
    .filter(({ fact }) => fact.source === "stated" && Array.isArray(fact.span))
    .sort((a, b) => a.fact.span[0] - b.fact.span[0]);
  const parts = [];
  let at = 0;
  for (const { fact, index } of spans) {
    const [start, end] = fact.span;
    if (start < at || end > prompt.length) continue;
    parts.push(prompt.slice(at, start));
    parts.push(el("mark", { class: "stated", title: `${fact.name}: ${fact.value ?? ""}`, "aria-describedby": `fact-${index}` },
      prompt.slice(start, end), el("sup", { "aria-hidden": "true" }, String(index + 1))));
    at = end;
  }
  parts.push(prompt.slice(at));
  return parts;
}

export function renderFacts(container, prompt, disruption) {
  if (!disruption) {
    container.replaceChildren(el("p", { class: "muted" }, "This run was decided before reports became facts: no facts recorded."));
    return;
  }
  const d = disruption;
  const facts = d.facts || [];
  const summary = el("dl", { class: "facts-summary" },
    el("dt", {}, "Cause"), el("dd", { "data-testid": "facts-cause" }, `${d.cause} — AHM 730 code ${d.iata_delay_code} (${d.family.replaceAll("_", " ")})`),
    el("dt", {}, "Scope"), el("dd", {}, scopeText(d.scope)),
    d.window ? [el("dt", {}, "Window"), el("dd", {}, `${fmtTime(d.window.start)} – ${fmtTime(d.window.end)}`)] : [],
    d.severity_minutes != null ? [el("dt", {}, "Stated duration"), el("dd", {}, `${d.severity_minutes} min`)] : []);
  const rows = facts.map((fact, index) => el("tr", { id: `fact-${index}`, class: `source-${fact.source}` },
    el("td", {}, String(index + 1)),
    el("td", {}, fact.name.replaceAll("_", " ")),
    el("td", {}, fact.value == null ? "—" : String(fact.value)),
    // The source is a word (and a letter badge), never only a colour.
    el("td", {}, el("span", { class: `badge ${fact.source}`, title: SOURCE_TEXT[fact.source] }, fact.source)),
    el("td", { class: "evidence" }, fact.evidence || "")));
  const table = el("table", { class: "facts", "data-testid": "facts-table" },
    el("caption", {}, "Facts and where each came from"),
    el("thead", {}, el("tr", {}, ["#", "fact", "value", "source", "evidence"].map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows));
  container.replaceChildren(
    el("h3", { id: "facts-title" }, "What was understood"),
    ...unsureView(d),
    el("p", { class: "report", "data-testid": "facts-report", "aria-label": "the report, with the words each stated fact came from highlighted" },
      highlighted(prompt || "", facts)),
    summary,
    ...correctionsView(d),
    table,
    ...correctionForm(d));
}
