// The operation board, the console's landing view (GET /api/operations?day=): the day's live figures on top, then
// every tail of the day as a row — its flights drawn with the decision Gantt's own bars (gantt.js: the schedule
// faint above, the flight at its estimate bold below, delayed/cancelled/swapped/diverted by pattern and tag, never
// colour alone), AOG and maintenance blocks, a ⚠ on a flight short of crew, a ⚑ linking each open disruption to
// its decision, closures and capacity cuts as bands. It follows each open run's live stream and draws the board
// again when one ends (a plan executed, here or on another page) — no reload.
import { el, stationTime, svg } from "./dom.js";
import { readEvents } from "./sse.js";
import { AXIS_H, BAND_LANE, LABEL_W, PAD, axis, drawBands, drawBar, oneTabStop, patterns, when } from "./gantt.js";

const ROW_H = 30;
const BAND_KIND = { closure: "closure", capacity: "slot", regulation: "slot", disruption: "disruption" };
const BLOCK = { aog: ["p-aog", "AOG: aircraft on ground"], maintenance: ["p-maint", "maintenance"] };
const REFRESH_MS = 60000;  // the figures move with time too: the board looks again this often
const pct = (x) => `${(100 * x).toFixed(1)} %`;

export function boardHeader(board) {
  const h = board.header;
  const figure = (label, value, testid) => el("div", { class: "figure", "data-testid": testid },
    el("strong", {}, String(value)), el("span", {}, label));
  return el("div", { class: "board-header", role: "group", "aria-label": `the figures of ${board.day}` },
    figure("D15 on-time departures", pct(h.d15), "board-d15"),
    figure("A15 on-time arrivals", pct(h.a15), "board-a15"),
    figure("cancellations", h.cancellations, "board-cancellations"),
    figure("diversions", h.diversions, "board-diversions"),
    figure("passengers disrupted", h.passengers_disrupted.toLocaleString("en-GB"), "board-passengers"),
    figure("decisions waiting", h.decisions_waiting, "board-waiting"));
}

// A time at an airport, UTC and the airport's local time: "01-22 14:00Z (18:00 AUH)".
function atAirport(iso, code, zones) {
  const local = zones[code] ? ` (${stationTime(iso, { iata: code, tz: zones[code] })})` : "";
  return `${when(new Date(iso))}${local}`;
}

// A flight as the Gantt draws a bar: "original" at its schedule, "plan" at its best-known times; its hover says both
// in UTC and at each end's local time.
function bars(f, zones) {
  const lands = f.diverted_to || f.destination;
  const note = [
    f.swapped_from ? `swapped from ${f.swapped_from}` : null,
    f.delay_reason ? `reason: ${f.delay_reason}` : null,
    `scheduled ${atAirport(f.scheduled_departure, f.origin, zones)} – ${atAirport(f.scheduled_arrival, f.destination, zones)}`,
    f.start !== f.scheduled_departure ? `now ${atAirport(f.start, f.origin, zones)} – ${atAirport(f.end, lands, zones)}` : null,
    ...f.crew_shortfalls.map((s) => `crew: ${s.text}`),
    ...f.disruptions.map((d) => `open disruption: ${d}`),
  ].filter(Boolean).join("\n");
  const common = { flight_id: f.flight_id, label: f.flight_number, origin: f.origin, note };
  const plan = { ...common, layer: "plan", change: f.change, destination: lands,
    start: f.start, end: f.end, delay_minutes: f.delay_minutes };
  const moved = f.start !== f.scheduled_departure || f.change !== "unchanged";
  const original = { ...common, layer: "original", change: "unchanged", destination: f.destination,
    start: f.scheduled_departure, end: f.scheduled_arrival, delay_minutes: 0 };
  return moved ? [original, plan] : [plan];
}

function block(b, x, y, height, clip) {
  const [pattern, words] = BLOCK[b.kind];
  const x0 = Math.max(clip[0], x(new Date(b.start))), x1 = Math.min(clip[1], x(new Date(b.end)));
  return svg("g", { class: `block ${b.kind}`, dataset: { block: b.kind }, role: "img",
    "aria-label": `${words}: ${b.label}, ${when(new Date(b.start))} to ${when(new Date(b.end))}` },
    svg("title", {}, `${words}: ${b.label}\n${when(new Date(b.start))} – ${when(new Date(b.end))}\nsource: ${b.source}`),
    svg("rect", { x: x0, y, width: Math.max(2, x1 - x0), height, rx: 2, class: "block-shape" }),
    svg("rect", { x: x0, y, width: Math.max(2, x1 - x0), height, rx: 2, fill: `url(#${pattern})` }));
}

function marker(m, x, y) {
  return svg("a", { href: m.link, class: "board-marker", dataset: { run: m.disruption_id },
    "aria-label": `open disruption ${m.subject || m.disruption_id}: ${m.outcome_text}` },
    svg("title", {}, `${m.subject || ""} — ${m.outcome_text}\n${m.report || ""}`),
    svg("text", { x: x(new Date(m.at)) - 5, y, class: "marker-flag" }, "⚑"));
}

export function renderBoard(container, board) {
  const start = new Date(board.start), end = new Date(board.end);
  const width = Math.max(900, Math.floor(container.clientWidth || 1200));
  const bands = board.bands.map((b) => ({ ...b, kind: BAND_KIND[b.kind], source: `run ${b.disruption_id}` }));
  const top = PAD + bands.length * BAND_LANE + AXIS_H;
  const height = top + board.rows.length * ROW_H + PAD;
  const plotW = width - LABEL_W - PAD;
  const x = (d) => LABEL_W + ((d - start) / (end - start)) * plotW;
  const clip = [LABEL_W, LABEL_W + plotW];
  const markers = Object.fromEntries(board.disruptions.map((m) => [m.disruption_id, m]));
  const chart = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "gantt-svg board-svg",
    role: "group", "data-testid": "board-svg",
    "aria-label": `Operation board ${board.day}: ${board.rows.length} aircraft, schedule faint above each flight as it operates` },
  patterns());
  drawBands(chart, bands, x, clip, width, height);
  chart.append(axis(x, start, end, plotW, top, board.rows.length * ROW_H));
  board.rows.forEach((row, i) => {
    const y = top + i * ROW_H;
    const label = `${row.label}${row.status && row.status !== "IN_SERVICE" ? ` ${row.status}` : ""}`;
    const gantRow = { key: row.registration, label: row.label };
    const group = svg("g", { class: "row tail", dataset: { row: row.registration } },
      svg("line", { x1: 0, x2: width, y1: y + ROW_H, y2: y + ROW_H, class: "row-line" }),
      svg("text", { x: 4, y: y + ROW_H / 2 + 4, class: "row-label" }, label));
    const origH = 7, planH = ROW_H - 8 - origH - 2;
    for (const b of row.blocks) group.append(block(b, x, y + 3, ROW_H - 6, clip));
    for (const f of row.flights) {
      for (const bar of bars(f, board.zones || {})) {
        const original = bar.layer === "original";
        group.append(drawBar(bar, gantRow, x, original ? y + 3 : y + 5 + origH, original ? origH : planH, clip));
      }
      if (f.crew_shortfalls.length) {
        group.append(svg("text", { x: Math.min(clip[1] - 8, Math.max(clip[0], x(new Date(f.start)))), y: y + 9,
          class: "crew-short", "data-flight": f.flight_number },
        svg("title", {}, `${f.flight_number}: crew short — ${f.crew_shortfalls.map((s) => s.text).join("; ")}`), "⚠"));
      }
    }
    for (const id of row.disruptions) if (markers[id]) group.append(marker(markers[id], x, y + ROW_H / 2 + 4));
    chart.append(group);
  });
  container.replaceChildren(oneTabStop(chart));  // a day's hundreds of bars are one Tab stop, walked by arrow keys
}

function disruptionList(board) {
  if (!board.disruptions.length) return [el("p", { class: "empty" }, "No open disruption on this day.")];
  return [el("ul", { class: "board-disruptions", "data-testid": "board-disruptions" },
    board.disruptions.map((m) => el("li", { dataset: { outcome: m.outcome } },
      el("span", { class: `outcome ${m.outcome}` }, m.outcome_text), " ",
      el("a", { href: m.link, dataset: { run: m.disruption_id } }, m.subject || m.disruption_id),
      " ", el("small", {}, `${when(new Date(m.at))} · ${m.registrations.join(", ") || m.airport || ""} · ${m.report || ""}`))))];
}

// Mounts the board in `panel` (#board): the day picker, the figures, the open disruptions, the chart. `api` and
// `stream` are app.js's (the token stays there). Returns { load(day), stop() }.
export function mountBoard(panel, { api, streamBase, authHeaders }) {
  const day = panel.querySelector("#board-day");
  let followed = null;  // { key: the open runs followed, controller: its stream's AbortController }
  let timer = null;

  async function load(wanted) {
    const query = wanted || day.value ? `?day=${encodeURIComponent(wanted || day.value)}` : "";
    panel.querySelector("#board-status").textContent = "loading the operation…";
    try {
      const board = await api("GET", `/operations${query}`);
      day.value = board.day;
      panel.querySelector("#board-header").replaceChildren(boardHeader(board));
      panel.querySelector("#board-list").replaceChildren(...disruptionList(board));
      renderBoard(panel.querySelector("#board-chart"), board);
      panel.querySelector("#board-status").textContent = `${board.day}: ${board.rows.length} aircraft, updated ${new Date().toISOString().slice(11, 16)}Z`;
      follow(board.disruptions.map((m) => m.disruption_id));
    } catch (error) {
      panel.querySelector("#board-status").textContent = `the board is unavailable: ${error.message}`;
    }
    clearTimeout(timer);
    timer = setTimeout(() => { if (!panel.hidden) load(); }, REFRESH_MS);
  }

  // One live stream for all the open runs (a browser keeps six connections per host): when one ends (executed,
  // rejected, escalated) or another page reports a new one, the board is drawn again and follows the runs then open.
  function follow(ids) {
    const key = [...ids].sort().join(",");
    if (followed && followed.key === key) return;
    followed?.controller.abort();
    followed = null;
    if (panel.hidden) return;
    const controller = new AbortController();
    followed = { key, controller };
    readEvents(`${streamBase()}/operations/events?new=1&runs=${encodeURIComponent(key)}`, authHeaders(), controller.signal,
      (name) => { if ((name === "done" || name === "started") && !panel.hidden) load(); })
      .then(() => { if (followed?.controller === controller) followed = null; })  // ended: the next load follows again
      .catch((error) => { if (error.name !== "AbortError") console.warn("board: live updates stopped", error); });
  }

  day.addEventListener("change", () => load(day.value));
  return {
    load,
    stop() { clearTimeout(timer); followed?.controller.abort(); followed = null; },
  };
}
