// DOM helpers shared by the console's modules (plain ES modules, no build step).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const el = (tag, attrs = {}, ...children) => fill(document.createElement(tag), attrs, children);
export const svg = (tag, attrs = {}, ...children) => fill(document.createElementNS(SVG_NS, tag), attrs, children);

export const money = (usd) => `$${Math.round(usd).toLocaleString("en-US")}`;
export const pct = (x) => `${Math.round(x * 100)}%`;

// Times on the page are UTC, as the operation runs: "14:02:11Z", "2027-01-22 14:02Z".
export const utcTime = (iso) => `${new Date(iso).toISOString().slice(11, 19)}Z`;
export const utcStamp = (iso) => `${new Date(iso).toISOString().slice(0, 10)} ${new Date(iso).toISOString().slice(11, 16)}Z`;

// A station's local time, where the page knows the station ({iata, tz}): "16:02 AUH" (`date`: "2027-01-22 16:02 AUH").
export function stationTime(iso, station, { date = false } = {}) {
  if (!station) return "";
  const local = new Intl.DateTimeFormat("en-GB", { timeZone: station.tz, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const day = date ? `${new Intl.DateTimeFormat("en-CA", { timeZone: station.tz }).format(new Date(iso))} ` : "";
  return `${day}${local.format(new Date(iso))} ${station.iata}`;
}

// The zone the duty manager reads a decision's times in (issue 50): UTC by default, or the local time of the station
// the decision is about, with the other beside it. Kept in this browser (the header's "Times" choice).
const ZONE_KEY = "skymarshal.zone";
export const stationFirst = () => localStorage.getItem(ZONE_KEY) === "station";
export const chooseZone = (zone) => localStorage.setItem(ZONE_KEY, zone === "station" ? "station" : "utc");

// The header's "Times" choice: `select` shows the zone read now; a change is kept and `redraw` called.
export function mountZoneChoice(select, redraw) {
  select.value = stationFirst() ? "station" : "utc";
  select.addEventListener("change", () => { chooseZone(select.value); redraw(); });
}

// A time in both zones, the chosen one first: ["14:02:11Z", "18:02 AUH"] or ["18:02 AUH", "14:02:11Z"]; `date` adds
// the day to the first. UTC alone ("") where the page knows no station.
export function zoneParts(iso, station, { date = false } = {}) {
  const utc = date ? utcStamp(iso) : utcTime(iso);
  if (!station) return [utc, ""];
  return stationFirst() ? [stationTime(iso, station, { date }), utc] : [utc, stationTime(iso, station)];
}

// The same as text, "14:02:11Z (18:02 AUH)", and as a <time> with the other zone in a span beside it.
export function bothZones(iso, station, options) {
  const [first, beside] = zoneParts(iso, station, options);
  return beside ? `${first} (${beside})` : first;
}
export function timeInZones(iso, station, options) {
  const [first, beside] = zoneParts(iso, station, options);
  return [el("time", { datetime: iso }, first), beside ? el("span", { class: "beside" }, ` (${beside})`) : ""];
}
