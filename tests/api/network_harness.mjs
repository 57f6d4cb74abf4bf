// Runs the console's network panel (network.js) under Node with a minimal DOM stand-in: draws a decision's
// network view, picks the rejected plan and back, ticks flights and gives reasons as a duty manager would, and
// prints what the panel showed and the exclusion it submitted, as JSON. Used by test_console_network.py.
// Usage: node network_harness.mjs <network.js path> <network.json> <steps: "tick" | "blank" | "none">
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

class Node_ {
  constructor(tag) {
    this.tagName = tag.toUpperCase(); this.children = []; this.attributes = {}; this.listeners = {};
    this.dataset = {}; this.hidden = false; this.checked = false; this.value = "";
  }
  append(...nodes) { for (const n of nodes) this.children.push(n); }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  setAttribute(k, v) { this.attributes[k] = String(v); }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  fire(type) { for (const fn of this.listeners[type] || []) fn({ target: this }); }
  set textContent(t) { this.children = [new Text_(t)]; }
  get textContent() { return this.children.map((c) => c.textContent).join(""); }
  all() { return this.children.flatMap((c) => (c instanceof Node_ ? [c, ...c.all()] : [])); }
}
class Text_ { constructor(t) { this.textContent = String(t); } }
globalThis.Node = Node_;
globalThis.document = { createElement: (t) => new Node_(t), createTextNode: (t) => new Text_(t) };

const [modulePath, networkPath, steps] = process.argv.slice(2);
const { renderNetwork } = await import(pathToFileURL(modulePath).href);
const network = JSON.parse(readFileSync(networkPath, "utf8"));
const root = new Node_("section");
const submitted = [];
renderNetwork(root, network, { canDecide: steps !== "none", onExclude: (body, rows) => submitted.push({ body, flights: rows.map((r) => r.flight_number) }) });

const byId = (id) => root.all().find((n) => n.dataset.testid === id);
const text = (id) => byId(id)?.textContent ?? null;
const rows = () => byId("flight-table").all().filter((n) => n.tagName === "TR" && n.dataset.flight)
  .map((tr) => ({ flight: tr.dataset.flight, className: tr.attributes.class, cells: tr.children.map((c) => c.textContent) }));
const shown = { summary: text("network-summary"), refused: text("exclusion-refused"), caption: byId("flight-table").children[0].textContent, rows: rows() };
const ids = network.plans.map((p) => p.plan_id);

let other = null;
if (steps !== "none") {
  const tick = (id, reason) => {
    const box = byId(`exclude-${id}`);
    box.checked = true; box.fire("change");
    if (reason !== undefined) { const input = byId(`exclude-reason-${id}`); input.value = reason; input.fire("input"); }
  };
  byId("exclude-submit").fire("click");  // nothing ticked yet
  const nothing = text("exclude-error");
  const [first, second] = network.plans[0].rows.map((r) => r.flight_id);
  if (steps === "blank") tick(first);
  else {
    tick(first, "  slot already filed ");
    // A reason typed alone ticks its flight; the ticks survive picking another plan and coming back.
    const input = byId(`exclude-reason-${second}`); input.value = "VIP charter"; input.fire("input");
    byId(`plan-${ids[1]}`).fire("click");
    other = { caption: byId("flight-table").children[0].textContent, rows: rows().length };
    byId(`plan-${ids[0]}`).fire("click");
  }
  byId("exclude-submit").fire("click");
  Object.assign(shown, { nothing, error: text("exclude-error") });
}
console.log(JSON.stringify({ shown, other, submitted, hasForm: Boolean(byId("exclude-submit")) }));
