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

// A station's local time beside UTC, where the page knows the station ({iata, tz}): "16:02 AUH".
export function stationTime(iso, station) {
  if (!station) return "";
  const local = new Intl.DateTimeFormat("en-GB", { timeZone: station.tz, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${local.format(new Date(iso))} ${station.iata}`;
}
