// A decision at a glance: the first screen of a run. What happened in one line (the run's title, from the
// disruption's facts), the recommended plan with its key numbers, the why in three lines, the warnings that matter
// and the three answers (approve, choose another, reject). Everything else stays below, folded or one click away.
import { el, money, pct, stationFirst, stationTime } from "./dom.js";

const two = (n) => String(n).padStart(2, "0");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const hm = (d) => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
const day = (d) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
// The arbitrator sends a decision below this confidence to a human (arbitrator.py's low_confidence).
const LOW_CONFIDENCE = 0.5;

// "14:00–17:00Z 22 Jan (18:00–21:00 AUH)", or both days when the window crosses midnight (UTC); the station's
// local times beside when the decision names its station — or first, when the duty manager reads station time.
function windowText(window, station) {
  const start = new Date(window.start), end = new Date(window.end);
  const utc = start.toISOString().slice(0, 10) === end.toISOString().slice(0, 10)
    ? `${hm(start)}–${hm(end)}Z ${day(start)}` : `${day(start)} ${hm(start)}Z – ${day(end)} ${hm(end)}Z`;
  if (!station) return utc;
  const local = `${stationTime(window.start, station).split(" ")[0]}–${stationTime(window.end, station)}`;
  return stationFirst() ? `${local} (${utc})` : `${utc} (${local})`;
}

// The cause in the report's own words when it stated one ("fog", "mechanical failure"), else the code's title.
function causeWords(d) {
  const stated = (d.facts || []).find((f) => f.source === "stated" && f.value === d.iata_delay_code && f.evidence);
  return stated ? stated.evidence : d.cause;
}

const EFFECT = { closure: "closed by", capacity: "capacity cut by", regulation: "ATC regulation for" };

// One line saying what happened: "AUH closed by fog 14:00–17:00Z 22 Jan", "EY123 mechanical failure (AHM 41)".
export function headline(d, network, station = null) {
  if (!d) return null;
  const scope = d.scope;
  const cause = causeWords(d);
  const when = d.window ? ` ${windowText(d.window, station)}` : "";
  if (scope.kind === "airport" || scope.kind === "airspace") {
    const place = scope.kind === "airspace" ? scope.airspace || scope.airport : scope.airport;
    const effect = EFFECT[network?.restriction?.kind] || "disrupted by";
    return `${place} ${effect} ${cause}${when}`;
  }
  const at = (d.facts || []).find((f) => f.name === "airport" && f.value)?.value;
  const where = at ? ` at ${at}` : "";
  const subject = {
    flight: scope.flight_numbers.join(", "),
    crew_member: `${(scope.crew_position || "crew").replace("_", " ").toLowerCase()} of ${scope.flight_numbers.join(", ")}`,
    tail: scope.registration || "",
  }[scope.kind] || scope.flight_numbers.join(", ");
  return `${subject}: ${cause}${where}${when} (AHM ${d.iata_delay_code})`;
}

const firstSentence = (text) => (/^.*?[.!?](\s|$)/.exec(text || "")?.[0] || text || "").trim();

// The why in three lines: what the plan does and why first, whether it is legal, and what it costs.
function whyLines(plan) {
  const findings = plan.findings || [];
  const broken = findings.filter((f) => f.status !== "legal").length;
  const legal = plan.scenario_id.startsWith("network:")
    ? "Legal: every flight of the plan validated with zero tolerance"
    : findings.length
      ? `Legal: ${findings.length} binding finding${findings.length > 1 ? "s" : ""}${broken ? `, ${broken} at risk or broken` : ", all kept"}`
        + ` (${[...new Set(findings.map((f) => f.clause).filter(Boolean))].slice(0, 3).join(", ")})`
      : "Legal: no binding finding applies to this plan";
  const but = plan.cons[0] ? `But: ${plan.cons[0]}` : plan.pros[0] ? `And: ${plan.pros[0]}` : null;
  return [firstSentence(plan.rationale), legal, but].filter(Boolean);
}

// The warnings that matter and are not already a banner above: low confidence, what the reading is unsure of.
function warnings(view, plan) {
  const banners = new Set((view.escalation_banners || []).map((b) => b.code));
  const found = [];
  if (plan && plan.confidence < LOW_CONFIDENCE && !banners.has("LOW_CONFIDENCE")) {
    found.push(`Low confidence: ${pct(plan.confidence)} (a decision below ${pct(LOW_CONFIDENCE)} is a human's to check)`);
  }
  for (const u of view.disruption?.unsure || []) found.push(`The reading is unsure: ${u.message}`);
  if (view.network?.exclusion_refused) found.push(`Exclusion refused: ${view.network.exclusion_refused}`);
  return found;
}

function figures(plan, network) {
  const totals = network?.plans.find((p) => p.plan_id === plan.scenario_id)?.totals;
  const items = [
    [plan.scenario_id.startsWith("network:") ? "longest delay" : "delay", `${plan.delay_minutes} min`],
    totals ? ["cancelled", `${totals.cancellations} of ${totals.flights} flights`] : null,
    ["passengers", String(plan.passengers_impacted)],
    ["cost", money(plan.cost_usd)],
    ["confidence", pct(plan.confidence)],
  ].filter(Boolean);
  return el("dl", { class: "glance-figures", id: "glance-figures", dataset: { testid: "glance-figures" } },
    items.map(([name, value]) => el("div", {}, el("dt", {}, name), el("dd", {}, value))));
}

// "Choose another plan": to the comparison, where each plan has its figures, its Gantt and its Approve; with one
// plan only, the override form set to ask for alternatives.
function chooseAnother(others) {
  if (!others) {
    openOverride("alternatives", "[name=instruction]");
    return;
  }
  const compare = document.querySelector("#compare");
  compare.scrollIntoView({ block: "start" });
  compare.focus({ preventScroll: true });
}

// "Reject every plan…": the override form, set to abort, asking for the reason it requires.
function rejectAll() {
  openOverride("abort", "[name=reason]");
}

function openOverride(action, field) {
  const box = document.querySelector("#override-box");
  box.open = true;
  box.querySelector("[name=action]").value = action;
  box.querySelector(field).focus();
}

// `actions`: {canDecide, onApprove(plan)}.
export function renderGlance(container, view, actions) {
  const plan = view.top[0];
  const found = warnings(view, plan);
  const warningList = found.length
    ? el("ul", { class: "glance-warnings", dataset: { testid: "glance-warnings" } }, found.map((w) => el("li", {}, `⚠ ${w}`)))
    : null;
  if (!plan) {
    container.replaceChildren(...[el("h3", {}, "No plan to approve"),
      el("p", {}, view.final_decision || "Every plan was refused: see the escalation above and the refused plans below."), warningList]
      .filter(Boolean));
    return;
  }
  const deciding = actions.canDecide && view.awaiting_approval;
  const buttons = deciding ? el("div", { class: "glance-actions" },
    el("button", { type: "button", class: "approve", dataset: { testid: "approve-top" }, "aria-describedby": "glance-title glance-figures",
      onclick: () => actions.onApprove(plan) }, `Approve #${plan.rank}`),
    // With one plan there is no other to choose: the arbitrator can be asked for alternatives instead.
    el("button", { type: "button", dataset: { testid: "choose-another" }, onclick: () => chooseAnother(view.top.length > 1) },
      view.top.length > 1 ? `Choose another plan (${view.top.length - 1} more)` : "Ask for alternatives…"),
    el("button", { type: "button", class: "reject", dataset: { testid: "reject" }, onclick: rejectAll }, "Reject every plan…")) : null;
  container.replaceChildren(...[
    el("h3", { id: "glance-title" }, el("span", { class: "glance-kicker" }, "Recommended: "), `#${plan.rank} ${plan.title}`),
    figures(plan, view.network),
    el("ul", { class: "glance-why", dataset: { testid: "glance-why" }, "aria-label": "why, in three lines" },
      whyLines(plan).map((line) => el("li", { title: line }, line))),
    warningList,
    buttons].filter(Boolean));
}
