// A network disruption's plans (an airport closed, a capacity cut, an ATC regulation): every plan's totals (pick
// one to see its flights; rank 1 is shown first), the picked plan's per-flight table, the exclusion the arbitrator
// refused, and the duty manager's exclusions — tick flights, say why for each, and they are left as scheduled in
// every plan, which the arbitrator validates again before asking for a decision once more.
import { el, money } from "./dom.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n) => String(n).padStart(2, "0");

// UTC, as the operation plans: "22 Jan 14:00", or "17:15" when it is the same day as `sameDayAs`.
function when(iso, sameDayAs) {
  const d = new Date(iso);
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  if (sameDayAs && new Date(sameDayAs).toISOString().slice(0, 10) === d.toISOString().slice(0, 10)) return time;
  return `${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${time}`;
}

function departure(row) {
  if (!row.new_departure) return `${when(row.scheduled_departure)} → cancelled`;
  if (row.new_departure === row.scheduled_departure) return when(row.scheduled_departure);
  return `${when(row.scheduled_departure)} → ${when(row.new_departure, row.scheduled_departure)}`;
}

const tail = (row) => (row.new_registration === row.registration ? row.registration : `${row.registration} → ${row.new_registration || "—"}`);

function standing(plan) {
  if (!plan.valid) {
    const first = plan.rejections[0];
    const more = plan.rejections.length > 1 ? ` and ${plan.rejections.length - 1} more` : "";
    return `rejected: ${first.flight_id} ${first.code} — ${first.message}${more}`;
  }
  return plan.rank ? `rank ${plan.rank}` : "valid, set aside";
}

// The totals' columns: [heading, value, lower is better]. The best value among the valid plans is starred (a shape,
// not a colour), so which plan has the least delay is read from its numbers, never from its name.
const TOTALS = [
  ["flights", (t) => t.flights, null], ["operated", (t) => t.operated, null],
  ["total delay (min)", (t) => t.delay_minutes, true], ["longest delay (min)", (t) => t.max_delay_minutes, true],
  ["cancelled", (t) => t.cancellations, true], ["tail swaps", (t) => t.tail_swaps, null],
  ["reserves", (t) => t.reserves_called, null], ["re-accommodated", (t) => t.passengers_reaccommodated, true],
  ["overnight", (t) => t.passengers_stranded_overnight, true], ["cost", (t) => t.cost_usd, true, money],
];

function totalsTable(network, state, redraw) {
  const valid = network.plans.filter((p) => p.valid);
  const best = TOTALS.map(([, pick, lower]) => {
    const values = valid.map((p) => pick(p.totals));
    return lower === null || new Set(values).size < 2 ? null : (lower ? Math.min(...values) : Math.max(...values));
  });
  return el("table", { class: "compare network-totals", dataset: { testid: "network-totals" } },
    el("caption", {}, "Every plan: pick one to see its flights (★ best among the valid plans)"),
    el("tr", {}, ["", "plan", "standing", ...TOTALS.map(([h]) => h)].map((h) => el("th", {}, h))),
    network.plans.map((plan) => {
      const t = plan.totals;
      const shown = plan.plan_id === state.selected;
      const pick = el("button", { class: "show-plan", "aria-pressed": String(shown), dataset: { testid: `plan-${plan.plan_id}` },
        onclick: () => { state.selected = plan.plan_id; redraw(); } }, shown ? "shown" : "show");
      const cells = TOTALS.map(([, value, , show], i) => {
        const star = plan.valid && best[i] !== null && value(t) === best[i];
        return el("td", { class: star ? "best" : "" }, (show || String)(value(t)), star ? el("span", { class: "star", "aria-label": "best" }, " ★") : null);
      });
      return el("tr", { class: `${plan.valid ? "valid" : "rejected"}${shown ? " selected" : ""}` },
        el("td", {}, pick), el("th", {}, plan.title), el("td", { class: plan.valid ? "" : "refused" }, standing(plan)), cells);
    }));
}

// The ticks and reasons live in `state.ticked` (flight id → {row, checked, reason}), so picking another plan to
// tick one of its flights keeps the ones already ticked.
function exclusionCells(row, state) {
  const kept = (state.ticked[row.flight_id] ||= { row, checked: false, reason: "" });
  // The reason box shows only once its flight is ticked: thirty empty boxes are clutter, not choices.
  const box = el("input", { type: "checkbox", "aria-label": `exclude ${row.flight_number}`, dataset: { testid: `exclude-${row.flight_id}` },
    onchange: (e) => { kept.checked = e.target.checked; reason.hidden = !kept.checked; } });
  box.checked = kept.checked;
  const reason = el("input", { class: "exclude-reason", placeholder: "why (required)", "aria-label": `why leave ${row.flight_number} as scheduled`,
    dataset: { testid: `exclude-reason-${row.flight_id}` },
    oninput: (e) => {
      kept.reason = e.target.value;
      if (kept.reason.trim()) kept.checked = box.checked = true;  // a reason given means the flight is meant
    } });
  reason.value = kept.reason;
  reason.hidden = !kept.checked;
  return [el("td", {}, box), el("td", {}, reason)];
}

function flightTable(plan, network, state, deciding) {
  const head = ["flight", "route", "action", "departure (UTC)", "tail", "crew changes", "pax", "re-acc. / overnight", "reason"];
  const rows = plan.rows.map((row) => {
    const excluded = network.excluded[row.flight_id];
    const crew = row.crew_changes.map((c) => el("div", { title: c.reason }, `${c.rank} ${c.replaced} → ${c.reserve}`));
    const moved = row.passengers_reaccommodated || row.passengers_stranded_overnight;
    const cells = [
      el("th", { title: row.flight_id }, row.flight_number), el("td", {}, `${row.origin}→${row.destination}`),
      el("td", {}, row.action.replace("_", " ")), el("td", {}, departure(row)), el("td", {}, tail(row)),
      el("td", {}, crew.length ? crew : "—"), el("td", {}, row.passengers),
      el("td", {}, moved ? `${row.passengers_reaccommodated} / ${row.passengers_stranded_overnight}` : "—"),
      el("td", {}, excluded ? `excluded: ${excluded}` : row.reason),
    ];
    const [box, reason] = deciding && !excluded ? exclusionCells(row, state) : [el("td"), el("td")];
    return el("tr", { class: `${row.action}${excluded ? " excluded" : ""}`, dataset: { flight: row.flight_id } },
      deciding ? [box, ...cells, reason] : cells);
  });
  return el("table", { class: "compare flights", dataset: { testid: "flight-table" } },
    el("caption", {}, `${plan.title} [${plan.plan_id}]: ${standing(plan)}, flight by flight`),
    el("tr", {}, (deciding ? ["exclude", ...head, "why exclude"] : head).map((h) => el("th", {}, h))),
    rows);
}

function excludeForm(state, onExclude) {
  const error = el("p", { class: "error", role: "alert", dataset: { testid: "exclude-error" } });
  const submit = el("button", { type: "button", dataset: { testid: "exclude-submit" }, onclick: () => {
    const picked = Object.values(state.ticked).filter((t) => t.checked);
    const blank = picked.filter((t) => !t.reason.trim()).map((t) => t.row.flight_number);
    error.textContent = !picked.length ? "tick the flights to leave as scheduled"
      : blank.length ? `say why for ${blank.join(", ")}` : "";
    if (error.textContent) return;
    const excluded = Object.fromEntries(picked.map((t) => [t.row.flight_id, t.reason.trim()]));
    onExclude({ action: "exclude", excluded_flights: excluded }, picked.map((t) => t.row));
  } }, "Leave the ticked flights as scheduled");
  return el("div", { class: "exclude-form" }, submit, error);
}

// The per-flight table is folded (forty rows are three screens): one click opens it, and it stays open while
// another plan is picked.
function flightFold(plan, state, content) {
  const fold = el("details", { class: "fold flights-fold", dataset: { testid: "flights-fold" },
    ontoggle: (e) => { state.open = e.target.open; } },
  el("summary", {}, `${plan.title}: ${plan.rows.length} flights, flight by flight${state.ticked && Object.values(state.ticked).some((t) => t.checked) ? " (flights ticked)" : ""}`),
  content);
  fold.open = Boolean(state.open);
  return fold;
}

// Draws the panel into `root` (hidden for a one-flight decision). `onExclude(body, rows)` gets the POST
// .../override body for action "exclude" and the rows ticked (for the confirmation).
export function renderNetwork(root, network, { canDecide = false, onExclude = null } = {}) {
  root.hidden = !network;
  if (!network) { root.replaceChildren(); return; }
  const state = { selected: network.recommended ?? network.plans[0]?.plan_id ?? null, ticked: {} };
  const deciding = Boolean(canDecide && onExclude);
  const draw = () => {
    const plan = network.plans.find((p) => p.plan_id === state.selected);
    // replaceChildren prints a null as "null": the optional parts are filtered out first
    root.replaceChildren(...[
      el("h3", {}, "Network plans"),
      el("p", { dataset: { testid: "network-summary" } }, `${network.summary} — ${network.flights_affected} flights in the window, `
        + `${network.flights_inheriting} inheriting a delay`),
      network.exclusion_refused ? el("p", { class: "refused", role: "alert", dataset: { testid: "exclusion-refused" } },
        `Exclusion refused: ${network.exclusion_refused}`) : null,
      Object.keys(network.excluded).length ? el("ul", { class: "excluded" },
        Object.entries(network.excluded).map(([id, why]) => el("li", {}, `excluded ${id}: ${why}`))) : null,
      totalsTable(network, state, draw),
      plan ? flightFold(plan, state, [flightTable(plan, network, state, deciding), deciding ? excludeForm(state, onExclude) : null])
        : el("p", {}, "no plan to show")].filter(Boolean));
  };
  draw();
}
