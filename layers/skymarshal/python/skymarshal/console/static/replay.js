// The latest day replayed on this account (GET /api/replays/latest, kept by `skymarshal replay`): the scorecard,
// one column per policy (SkyMarshal first), and two small charts through the day — D15 of the flights gone so far,
// and the cumulative passenger delay at the final destination. Plain ES module, no build step; app.js passes its
// API call in, so the token handling stays in one place.

import { el, svg, utcStamp } from "./dom.js";

const pct = (x) => `${(100 * x).toFixed(1)} %`;
const num = (x) => Math.round(x).toLocaleString("en-GB");
// The scorecard's rows: label, and how a card's value reads.
export const ROWS = [
  ["D15 on-time departures", (c) => pct(c.d15)],
  ["A15 on-time arrivals", (c) => pct(c.a15)],
  ["cancellations", (c) => num(c.cancellations)],
  ["passengers disrupted", (c) => num(c.passengers_disrupted)],
  ["passenger delay at final destination (min)", (c) => num(c.passenger_delay_minutes)],
  ["misconnections / stranded overnight", (c) => `${num(c.misconnections)} / ${num(c.stranded_overnight)}`],
  ["compensation + care (USD)", (c) => `${num(c.compensation_usd)} + ${num(c.care_usd)}`],
  ["operating cost (USD)", (c) => num(c.operating_cost_usd)],
  ["crew violations: day / in the plans executed", (c) => `${c.crew_violations} / ${c.crew_violations_decided}`],
  ["rotation breaks", (c) => num(c.rotation_breaks)],
  ["decisions / escalated", (c) => `${c.decisions} / ${c.escalated}`],
];

export function scorecardTable(cards) {
  return el("table", { class: "replay-scorecard", "data-testid": "replay-scorecard" },
    el("thead", {}, el("tr", {}, el("th", {}, "KPI"), cards.map((c) => el("th", {}, c.policy)))),
    el("tbody", {}, ROWS.map(([label, value]) => el("tr", {}, el("th", {}, label), cards.map((c) => el("td", {}, value(c)))))));
}

// One chart: a polyline per card over (hours, value) points, the x axis 0-48 h after the first day's 00:00 UTC.
export function lineChart(title, cards, points, { scale = (v) => v, unit = "" } = {}) {
  const width = 320, height = 150, pad = 28;
  const series = cards.map((c) => points(c).map(([h, v]) => [h, scale(v)]));
  const top = Math.max(1e-9, ...series.flat().map(([, v]) => v));
  const x = (h) => pad + ((width - 2 * pad) * Math.min(48, Math.max(0, h))) / 48;
  const y = (v) => height - pad - ((height - 2 * pad) * v) / top;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title, class: "replay-chart" },
    svg("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, stroke: "#888" }),
    svg("line", { x1: pad, y1: pad, x2: pad, y2: height - pad, stroke: "#888" }));
  series.forEach((pts, i) => {
    if (!pts.length) return;
    chart.append(svg("polyline", {
      points: pts.map(([h, v]) => `${x(h).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      fill: "none", class: `series series-${i}`, "data-policy": cards[i].policy, "stroke-width": i === 0 ? 2.2 : 1.2,
    }));
  });
  return el("figure", {}, chart, el("figcaption", {}, `${title} (top ${num(top)}${unit}; hours after 00:00 UTC)`));
}

export function replayView(day) {
  const cards = day.cards;
  return [
    el("p", { class: "replay-title" }, `${day.title}, replayed ${utcStamp(day.replayed_at)}`),
    scorecardTable(cards),
    lineChart("D15 through the day", cards, (c) => c.otp_by_hour, { scale: (v) => 100 * v, unit: " %" }),
    lineChart("cumulative passenger delay", cards, (c) => c.pax_delay_by_hour, { scale: (v) => v / 60, unit: " passenger-hours" }),
    el("ul", { class: "replay-legend" }, cards.map((c, i) => el("li", { class: `series-${i}` }, c.policy))),
  ];
}

// The panel: the latest replay, or the line saying how to make one (the API's 404).
export async function loadReplay(panel, api) {
  try {
    panel.replaceChildren(...replayView(await api("GET", "/replays/latest")));
  } catch (error) {
    panel.replaceChildren(el("p", { class: "empty" }, error.message || String(error)));
  }
}
