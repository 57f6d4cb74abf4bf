// Runs the console's alerts module (alerts.js) under Node with a minimal DOM stand-in; prints what the alerts list
// shows as JSON. Used by test_console_alerts.py.  Usage: node alerts_harness.mjs <alerts.js path> <alerts.json>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

class Node_ {
  constructor(tag) { this.tagName = tag.toUpperCase(); this.children = []; this.attributes = {}; this.listeners = {}; }
  append(...nodes) { for (const n of nodes) this.children.push(n); }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  setAttribute(k, v) { this.attributes[k] = String(v); }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  get textContent() { return this.children.map((c) => c.textContent).join(""); }
  all() { return this.children.flatMap((c) => (c instanceof Node_ ? [c, ...c.all()] : [])); }
}
class Text_ { constructor(t) { this.textContent = String(t); } }
globalThis.Node = Node_;
globalThis.document = { createElement: (t) => new Node_(t), createTextNode: (t) => new Text_(t) };

const [modulePath, alertsPath] = process.argv.slice(2);
const { loadAlerts, retryRun } = await import(pathToFileURL(modulePath).href);
const calls = [];
const api = async (method, path) => {
  calls.push(`${method} ${path}`);
  return method === "GET" ? JSON.parse(readFileSync(alertsPath, "utf8")) : { execution_name: "dis-1--retry-1" };
};
const list = new Node_("ul");
await loadAlerts(list, api);
const retried = await retryRun("dis 1", api);
console.log(JSON.stringify({
  calls,
  retried,
  items: list.children.map((li) => ({
    text: li.textContent,
    className: li.attributes.class,
    links: li.all().filter((n) => n.tagName === "A").map((a) => a.attributes.href),
  })),
}));
