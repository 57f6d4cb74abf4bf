// What the decision sends (issue 36): before approval, beside each plan card, the ASM/MVT messages it will send
// (their text exactly as sent, in monospace) and who must be told — crew, stations, passengers by what happened
// to them — with the names folded; once executed, what was sent, under the execution. From GET .../messages.
import { el } from "./dom.js";

const SHOWN = 4;  // a network plan sends dozens: the first few open, the rest folded behind their count
const CHANGE_WORDS = { called_out: "called out", released: "released", delayed: "delayed",
  rebooked: "rebooked", interline: "rebooked on another airline", diverted: "diverted" };
const panel = { request: 0, plans: new Map() };

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const word = (change) => CHANGE_WORDS[change] || change;

// Counts by a key, in first-seen order: "2 called out, 1 released".
function countBy(items, key, weight = () => 1) {
  const counts = new Map();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) || 0) + weight(item));
  return [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
}

// Distinct crew members by what happens to them: one released from two sectors is one person to call.
function crewByChange(contacts) {
  const people = new Map();
  for (const c of contacts) people.set(word(c.change), (people.get(word(c.change)) || new Set()).add(c.crew_id));
  return [...people].map(([change, ids]) => `${ids.size} ${change}`).join(", ");
}

export function totalsLine(plan) {
  const t = plan.totals;
  const kinds = countBy(plan.messages, (m) => `${m.standard} ${m.action}`);
  return `${plural(t.messages, "message")}${kinds ? ` (${kinds})` : ""}; tell ${t.crew} crew, `
    + `${plural(t.stations, "station")}, ${plural(t.passengers, "passenger")}`;
}

function messageView(m) {
  return el("figure", { class: "outbound", dataset: { action: m.action, flight: m.flight_number } },
    el("figcaption", {}, el("strong", {}, `${m.standard} ${m.action} ${m.flight_number}`),
      ` — ${m.why} · to ${m.stations.join(", ")}`),
    el("pre", {}, m.text));
}

function messagesView(plan) {
  const shown = plan.messages.slice(0, SHOWN).map(messageView);
  const rest = plan.messages.slice(SHOWN);
  return [
    plan.messages.length ? null : el("p", { class: "none" }, "no schedule message: no flight's time or aircraft changes"),
    shown,
    rest.length ? el("details", {}, el("summary", {}, `${rest.length} more messages`), rest.map(messageView)) : null,
    plan.refused.map((r) => el("p", { class: "not-sent" }, `NOT SENT ${r.standard} ${r.flight_id}: ${r.problem}`)),
  ];
}

function contactsView(plan) {
  const crew = new Set(plan.crew.map((c) => c.crew_id)).size;
  const rows = [
    el("dt", {}, "Crew"),
    el("dd", { class: "crew" }, crew ? `${crew} — ${crewByChange(plan.crew)}` : "none",
      plan.crew.length ? el("details", {}, el("summary", {}, "names"), el("ul", {}, plan.crew.map((c) =>
        el("li", {}, el("strong", {}, c.crew_id), ` ${c.flight_number} ${word(c.change)}: ${c.notification}`)))) : null),
    el("dt", {}, "Stations"),
    el("dd", { class: "stations" }, plan.stations.length ? String(plan.stations.length) : "none",
      plan.stations.length ? el("details", {}, el("summary", {}, "names"), el("ul", {}, plan.stations.map((s) =>
        el("li", {}, el("strong", {}, s.station), ` ${s.flights.join(", ")}`)))) : null),
    el("dt", {}, "Passengers"),
    el("dd", { class: "passengers" }, plan.totals.passengers
      ? `${plan.totals.passengers} — ${countBy(plan.passengers, (g) => word(g.change), (g) => g.passengers)}` : "none"),
  ];
  const groups = plan.passengers.map((g) => el("li", { dataset: { change: g.change } },
    el("strong", {}, `${g.passengers} ${word(g.change)}${g.onto ? ` onto ${g.onto}` : ""}`),
    ` on ${g.flight_number}: “${g.notification}”`));
  const rest = groups.slice(SHOWN);  // a network plan tells dozens of flights' passengers: the rest folded
  return [el("dl", { class: "contacts" }, rows),
    groups.length ? el("ul", { class: "passenger-groups" }, groups.slice(0, SHOWN)) : null,
    rest.length ? el("details", {}, el("summary", {}, `${rest.length} more passenger groups`),
      el("ul", { class: "passenger-groups" }, rest)) : null];
}

export function sendsView(plan, heading, testid) {
  return el("section", { class: "sends", dataset: { testid }, "aria-label": heading },
    el("h5", {}, heading), el("p", { class: "sends-totals" }, totalsLine(plan)),
    messagesView(plan), contactsView(plan));
}

// The totals line of a plan's messages, for the approval's confirmation (null when not loaded).
export function sendsLine(scenarioId) {
  const plan = panel.plans.get(scenarioId);
  return plan ? `It sends ${totalsLine(plan)}.` : null;
}

// Another run opened: nothing of the last one's messages stays, and its answer still on the way is dropped.
export function clearMessages() {
  panel.plans.clear();
  document.querySelectorAll("#cards section.sends").forEach((s) => s.remove());
  document.querySelector("#sent").hidden = true;
  document.querySelector("#sent").replaceChildren();
  document.querySelector("#messages-status").textContent = "";
  return ++panel.request;
}

// `load` fetches GET /disruptions/{id}/messages. A failure leaves the cards usable and says why in one line;
// an answer for a run (or attempt) no longer shown is dropped.
export async function showMessages(load, { awaiting }) {
  const request = clearMessages();
  const status = document.querySelector("#messages-status");
  const sent = document.querySelector("#sent");
  status.textContent = "loading what the plans will send…";
  try {
    const view = await load();
    if (request !== panel.request) return;
    status.textContent = "";
    if (view.sent) {  // executed: said under the execution, which is shown even when its outcome is not yet read
      document.querySelector("#execution").hidden = false;
      sent.hidden = false;
      sent.replaceChildren(sendsView(view.sent, "What was sent", "sent-messages"));
      return;
    }
    const heading = awaiting ? "What this plan will send" : "What this plan would have sent";
    for (const plan of view.plans) {
      panel.plans.set(plan.scenario_id, plan);
      const article = [...document.querySelectorAll("#cards article")].find((a) => a.dataset.scenario === plan.scenario_id);
      if (article) article.insertBefore(sendsView(plan, heading, `sends-${article.dataset.rank}`), article.querySelector("button.approve"));
    }
  } catch (error) {
    if (request === panel.request) status.textContent = `What the plans will send is not available: ${error.message}`;
  }
}
