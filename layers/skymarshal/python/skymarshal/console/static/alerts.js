// Duty-manager alerts in the console: the escalated runs (GET /api/alerts), newest first, each opening its run;
// and, on an escalated run, the button that retries only its failed agents (POST /api/disruptions/{id}/retry).
// Plain ES module, no build step; app.js passes its API call in, so the token handling stays in one place.

import { utcStamp } from "./dom.js";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? "")));
  return node;
}

const DELIVERY = { published: "sent to the duty managers", recorded: "recorded (no alert topic)", failed: "NOT delivered" };

// One list item per alert: when, the reason code, the run (a link to it in this console), and the message.
export function alertItems(alerts) {
  if (!alerts.length) return [el("li", { class: "empty" }, "no alerts")];
  return alerts.map((a) => el("li", { class: `alert ${a.delivery}`, "data-reason": a.reason },
    el("time", { datetime: a.raised_at }, utcStamp(a.raised_at)), " ",
    el("strong", {}, a.reason), " ",
    el("a", { href: `#${a.execution_name}`, "data-run": a.execution_name }, a.execution_name),
    a.flight ? ` ${a.flight}` : "",
    el("p", {}, a.message, " — ", DELIVERY[a.delivery] || a.delivery,
      a.delivery_error ? ` (${a.delivery_error})` : "")));
}

export async function loadAlerts(list, api) {
  list.replaceChildren(...alertItems(await api("GET", "/alerts?limit=20")));
}

// The retry of an escalated run: resolves to the new execution's name.
export async function retryRun(runId, api) {
  const started = await api("POST", `/disruptions/${encodeURIComponent(runId)}/retry`);
  return started.execution_name;
}
