// The before/after Gantt of one plan, in plain SVG: a row per affected tail (or, switched, per crew member),
// the original schedule faint above the plan in bold. What the plan does to a bar is told three ways — a fill
// pattern, a text tag on the bar and the tooltip — so colour is never the only signal and it prints in black and
// white. Bands (curfews, closures, slots, weather) shade the whole chart with their own pattern and label.
// Data: GET /api/disruptions/{id}/gantt (built in the library from the plans' typed actions).
import { el, svg } from "./dom.js";

export const LABEL_W = 170, AXIS_H = 28, BAND_LANE = 16, PAD = 6;
const ROW_H = { tail: 46, crew: 30 };
// change → [tag on the bar, words for the tooltip and legend, pattern id or null, outlined instead of filled]
export const CHANGES = {
  unchanged: ["", "as scheduled", null, false],
  delayed: ["+{delay}′", "delayed", "p-delay", false],
  swapped_in: ["⇄ in", "moved onto this tail (swap)", "p-swap", false],
  swapped_out: ["⇄ out", "moved off this tail (swap)", null, true],
  cancelled: ["✕ CNX", "cancelled", "p-cancel", true],
  diverted: ["↪ {dest}", "diverted to an alternate", "p-divert", false],
  ferry: ["FERRY", "ferry (no passengers) added by the plan", "p-ferry", false],
  reserve_call_out: ["RSV", "reserve called out", "p-reserve", false],
  replaced: ["✕ off", "taken off the flight (replaced)", null, true],
  standby: ["STBY", "standby", "p-standby", false],
};
export const BANDS = {
  curfew: ["p-band-curfew", "curfew / night quota"],
  closure: ["p-band-closure", "closure (NOTAM)"],
  slot: ["p-band-slot", "ATC slot / restriction"],
  weather: ["p-band-weather", "weather below limits"],
  disruption: ["p-band-disruption", "reported window"],
};

export const hhmm = (d) => d.toISOString().slice(11, 16) + "Z";
export const when = (d) => `${d.toISOString().slice(5, 10)} ${hhmm(d)}`;

export function patterns() {
  const lines = (id, rotate, gap = 6, width = 2, colour = "#fff") => svg("pattern", {
    id, width: gap, height: gap, patternUnits: "userSpaceOnUse", patternTransform: `rotate(${rotate})`,
  }, svg("line", { x1: 0, y1: 0, x2: 0, y2: gap, stroke: colour, "stroke-width": width }));
  return svg("defs", {},
    lines("p-delay", 45), lines("p-divert", -45), lines("p-ferry", 0, 5), lines("p-swap", 90, 6),
    svg("pattern", { id: "p-cancel", width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      svg("path", { d: "M0,0 L8,8 M8,0 L0,8", stroke: "#333", "stroke-width": 1.2 })),
    svg("pattern", { id: "p-reserve", width: 6, height: 6, patternUnits: "userSpaceOnUse" },
      svg("circle", { cx: 3, cy: 3, r: 1.4, fill: "#fff" })),
    svg("pattern", { id: "p-standby", width: 6, height: 6, patternUnits: "userSpaceOnUse" },
      svg("circle", { cx: 3, cy: 3, r: 1, fill: "#555" })),
    lines("p-band-curfew", 45, 10, 1, "#555"), lines("p-band-closure", 0, 8, 1, "#555"),
    lines("p-band-slot", 90, 8, 1, "#555"), lines("p-band-weather", -45, 10, 1, "#2f5f8a"),
    lines("p-band-disruption", 30, 14, 1, "#8a2f2f"),
    // the operation board's blocks: an aircraft on the ground (AOG) and a maintenance check
    svg("pattern", { id: "p-aog", width: 8, height: 8, patternUnits: "userSpaceOnUse" },
      svg("path", { d: "M0,0 L8,8 M8,0 L0,8", stroke: "#fff", "stroke-width": 1.5 })),
    lines("p-maint", 0, 6, 2, "#fff"));
}

function tag(bar) {
  return CHANGES[bar.change][0].replace("{delay}", bar.delay_minutes).replace("{dest}", bar.destination || "");
}

export function barText(bar) {
  const start = new Date(bar.start), end = new Date(bar.end);
  const lines = [
    `${bar.label}${bar.origin ? ` ${bar.origin}→${bar.destination}` : ""} — ${bar.layer === "plan" ? "plan" : "original"}: ${CHANGES[bar.change][1]}`,
    `${when(start)} – ${when(end)}${bar.delay_minutes ? ` (${bar.delay_minutes} min late)` : ""}`,
  ];
  if (bar.passengers != null) lines.push(`passengers: ${bar.passengers}`);
  if (bar.connections_at_risk != null) lines.push(`connections at risk: ${bar.connections_at_risk}`);
  if (bar.note) lines.push(bar.note);
  if (bar.constraints?.length) lines.push("binding constraints checked:", ...bar.constraints.map((c) => `• ${c}`));
  return lines.join("\n");
}

export function axis(x, start, end, width, top, height) {
  const hours = (end - start) / 3.6e6;
  const step = [1, 2, 3, 6].find((h) => (width / hours) * h >= 44) || 12;
  const first = new Date(start);
  first.setUTCMinutes(0, 0, 0);
  const ticks = [];
  for (let t = first.getTime() + 3.6e6; t < end; t += 3.6e6) {
    const d = new Date(t);
    if (d.getUTCHours() % step) continue;
    const label = d.getUTCHours() === 0 ? `${d.toISOString().slice(5, 10)}` : `${String(d.getUTCHours()).padStart(2, "0")}Z`;
    ticks.push(svg("line", { x1: x(d), x2: x(d), y1: top - 4, y2: top + height, class: "grid" }),
      svg("text", { x: x(d), y: top - 8, class: "tick", "text-anchor": "middle" }, label));
  }
  return svg("g", { class: "axis", "aria-hidden": "true" }, ticks);
}

export function drawBar(bar, row, x, y, height, clip) {
  const [, words, pattern, outlined] = CHANGES[bar.change];
  const x0 = Math.max(clip[0], x(new Date(bar.start)));
  const x1 = Math.min(clip[1], x(new Date(bar.end)));
  const w = Math.max(2, x1 - x0);
  const plan = bar.layer === "plan";
  const g = svg("g", {
    class: `bar ${bar.layer} ${bar.change}`,
    dataset: { layer: bar.layer, change: bar.change, flight: bar.label, row: row.key },
    tabindex: plan ? "0" : null,
    role: plan ? "img" : null,
    "aria-label": plan ? `${row.label}: ${bar.label} ${words}, ${when(new Date(bar.start))} to ${when(new Date(bar.end))}` : null,
  }, svg("title", {}, barText(bar)));
  g.append(svg("rect", { x: x0, y, width: w, height, rx: 3, class: outlined ? "shape outlined" : "shape" }));
  if (pattern && plan) g.append(svg("rect", { x: x0, y, width: w, height, rx: 3, fill: `url(#${pattern})`, class: "pattern" }));
  const text = plan ? `${bar.label} ${tag(bar)}`.trim() : bar.label;
  const fits = text.length * 6.4 < w - 4 ? text : tag(bar) && tag(bar).length * 6.4 < w - 4 ? tag(bar) : "";
  if (fits) g.append(svg("text", { x: x0 + 4, y: y + height / 2 + 4, class: "bar-label" }, fits));
  return g;
}

// Bands first, under the bars: shaded across every row, labelled in their own lane above the axis. A band is
// {kind (a key of BANDS), label, start, end, source}; the operation board draws its closures with this too.
export function drawBands(chart, bands, x, clip, width, height) {
  bands.forEach((band, i) => {
    const [pattern, words] = BANDS[band.kind];
    const b0 = Math.max(clip[0], x(new Date(band.start))), b1 = Math.min(clip[1], x(new Date(band.end)));
    if (b1 <= b0) return;
    const title = svg("title", {}, `${band.label}\n${when(new Date(band.start))} – ${when(new Date(band.end))}\n${words}; source: ${band.source}`);
    chart.append(svg("g", { class: `band ${band.kind}`, dataset: { band: band.kind } }, title,
      svg("rect", { x: b0, y: PAD + i * BAND_LANE, width: b1 - b0, height: height - PAD - i * BAND_LANE, fill: `url(#${pattern})`, class: "band-fill" }),
      svg("text", { x: b0 + 3, y: PAD + i * BAND_LANE + 11, class: "band-label" }, band.label.slice(0, Math.max(4, Math.floor((width - b0) / 6))))));
  });
}

const STEPS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

// The chart is one Tab stop (its bars are many: a network plan's are forty and more, and the keyboard would have
// to walk them all to reach what follows): Tab enters at the bar last visited, the arrow keys go from bar to
// bar, Home and End to the first and the last.
export function oneTabStop(chart) {
  const bars = [...chart.querySelectorAll("g.bar.plan")];
  bars.forEach((bar, i) => bar.setAttribute("tabindex", i === 0 ? "0" : "-1"));
  chart.addEventListener("keydown", (e) => {
    const at = bars.indexOf(e.target.closest?.("g.bar.plan"));
    if (at < 0) return;
    const to = e.key === "Home" ? 0 : e.key === "End" ? bars.length - 1 : STEPS[e.key] ? at + STEPS[e.key] : null;
    if (to === null || to < 0 || to >= bars.length) return;
    e.preventDefault();
    bars[at].setAttribute("tabindex", "-1");
    bars[to].setAttribute("tabindex", "0");
    bars[to].focus();
  });
  return chart;
}

export function renderGantt(container, view, scenarioId, mode = "tail") {
  const plan = view.plans.find((p) => p.scenario_id === scenarioId) || view.plans[0];
  if (!plan) {
    container.replaceChildren(el("p", {}, "No plan to draw."));
    return;
  }
  const rows = mode === "crew" ? plan.crew : plan.tails;
  const start = new Date(view.start), end = new Date(view.end);
  const width = Math.max(640, Math.floor(container.clientWidth || 900));
  const lanes = view.bands.length;
  const top = PAD + lanes * BAND_LANE + AXIS_H;
  const rowH = ROW_H[mode];
  const height = top + rows.length * rowH + PAD;
  const plotW = width - LABEL_W - PAD;
  const x = (d) => LABEL_W + ((d - start) / (end - start)) * plotW;
  const clip = [LABEL_W, LABEL_W + plotW];

  const chart = svg("svg", {
    width, height, viewBox: `0 0 ${width} ${height}`, class: "gantt-svg", role: "group", "data-testid": "gantt-svg",
    "aria-label": `Gantt of plan ${plan.rank}, ${plan.title}: ${rows.length} ${mode === "crew" ? "crew members" : "aircraft"}, original schedule faint above the plan in bold; arrow keys go from bar to bar`,
  }, patterns());
  drawBands(chart, view.bands, x, clip, width, height);
  chart.append(axis(x, start, end, plotW, top, rows.length * rowH));
  rows.forEach((row, i) => {
    const y = top + i * rowH;
    const group = svg("g", { class: `row ${row.kind}`, dataset: { row: row.key } },
      svg("line", { x1: 0, x2: width, y1: y + rowH, y2: y + rowH, class: "row-line" }),
      svg("text", { x: 4, y: y + rowH / 2 + 4, class: "row-label" }, row.label.length > 26 ? row.label.slice(0, 25) + "…" : row.label, svg("title", {}, row.label)));
    const origH = Math.round((rowH - 8) * 0.35), planH = rowH - 8 - origH - 2;
    for (const bar of row.bars.filter((b) => b.layer === "original")) group.append(drawBar(bar, row, x, y + 3, origH, clip));
    for (const bar of row.bars.filter((b) => b.layer === "plan")) group.append(drawBar(bar, row, x, y + 5 + origH, planH, clip));
    chart.append(group);
  });
  const order = plan.reordered_by_model ? ` (rules ranked it #${plan.rules_rank}; moved by the model)` : "";
  container.replaceChildren(
    el("p", { class: "gantt-title", "data-testid": "gantt-title" },
      `${view.flight_number} · Plan #${plan.rank}${order}: ${plan.title} — ${when(start)} to ${when(end)}; original schedule faint (top), plan bold (below)`),
    oneTabStop(chart));
}

export function legend() {
  const swatch = (...shapes) => svg("svg", { width: 46, height: 14, "aria-hidden": "true" }, ...shapes);
  const changes = Object.entries(CHANGES).filter(([k]) => k !== "unchanged").map(([key, [t, words, pattern, outlined]]) =>
    el("li", { class: `bar plan ${key}` },
      swatch(svg("rect", { x: 1, y: 1, width: 44, height: 12, rx: 2, class: `shape${outlined ? " outlined" : ""}` }),
        pattern ? svg("rect", { x: 1, y: 1, width: 44, height: 12, fill: `url(#${pattern})` }) : null),
      ` “${t.replace("{delay}", "N").replace("{dest}", "ALT")}” ${words}`));
  const bands = Object.entries(BANDS).map(([key, [pattern, words]]) => el("li", {},
    swatch(svg("rect", { x: 1, y: 1, width: 44, height: 12, fill: `url(#${pattern})`, stroke: "#999" })), ` band: ${words} (${key})`));
  // One set of pattern definitions for every swatch of the legend.
  return el("div", { class: "gantt-legend-box" },
    svg("svg", { width: 0, height: 0, "aria-hidden": "true", style: "position:absolute" }, patterns()),
    el("ul", { class: "gantt-legend", "aria-label": "legend" },
      el("li", {}, swatch(svg("rect", { x: 1, y: 3, width: 44, height: 8, class: "legend-original" })), " original schedule (faint)"),
      changes, bands));
}
