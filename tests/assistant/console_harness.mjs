// Runs the console's assistant panel (assistant.js) under Node with a minimal DOM stand-in and a fetch that
// replays a recorded SSE stream; prints what the panel shows as JSON. Used by test_console_panel.py.
// Usage: node console_harness.mjs <assistant.js path> <sse file> <question>
//        node console_harness.mjs <assistant.js path> --markdown <text>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

class Node_ {
  constructor(tag) { this.tagName = tag.toUpperCase(); this.children = []; this.attributes = {}; this.listeners = {};
    this._text = ""; this._html = null; this.className = ""; this.disabled = false; this.value = "";
    this.classList = { add: (c) => { this.className += ` ${c}`; } }; }
  append(...nodes) { for (const n of nodes) this.children.push(typeof n === "string" ? new Text_(n) : n); }
  replaceChildren(...nodes) { this.children = []; this._html = null; this.append(...nodes); }
  setAttribute(k, v) { this.attributes[k] = String(v); }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  set textContent(v) { this.children = [new Text_(v)]; }
  get textContent() { return this._html ?? this.children.map((c) => c.textContent).join(""); }
  set innerHTML(v) { this._html = v; this.children = []; }
  get innerHTML() { return this._html ?? ""; }
  querySelector(tag) { return this.all().find((n) => n.tagName === tag.toUpperCase()) || null; }
  querySelectorAll(tag) { return this.all().filter((n) => n.tagName === tag.toUpperCase()); }
  all() { return this.children.flatMap((c) => (c instanceof Node_ ? [c, ...c.all()] : [])); }
}
class Text_ { constructor(t) { this.textContent = String(t); } }

globalThis.Node = Node_;
globalThis.document = { createElement: (t) => new Node_(t), createElementNS: (_, t) => new Node_(t) };

const [modulePath, ssePath, question] = process.argv.slice(2);
if (ssePath === "--markdown") {  // render one markdown text and stop
  const { renderMarkdown } = await import(pathToFileURL(modulePath).href);
  console.log(JSON.stringify({ html: renderMarkdown(question) }));
  process.exit(0);
}
const recorded = readFileSync(ssePath);
const requests = [];
globalThis.fetch = async (url, init) => {
  requests.push({ url, headers: init.headers, body: JSON.parse(init.body) });
  const stream = new ReadableStream({ start(controller) {
    for (let i = 0; i < recorded.length; i += 700) controller.enqueue(recorded.subarray(i, i + 700)); // split mid-event
    controller.close(); } });
  return { ok: true, status: 200, body: stream };
};

const { mountAssistant } = await import(pathToFileURL(modulePath).href);
const container = new Node_("div");
const assistant = mountAssistant(container, { apiBase: "/api", authHeaders: () => ({ Authorization: "Bearer test" }) });
await assistant.ask(question);
const [form, status, thinking, answer, panel, suggestions] = container.children;
const tables = panel.all().filter((n) => n.tagName === "TABLE");
const rows = tables.length ? tables[0].all().filter((n) => n.tagName === "TR").slice(1) : [];
console.log(JSON.stringify({
  request: requests[0],
  status: status.textContent,
  thinking: thinking.querySelector("pre").textContent,
  answerHtml: answer.innerHTML,
  panelHeading: (panel.all().find((n) => n.tagName === "H4") || { textContent: "" }).textContent,
  plotMarkers: panel.all().filter((n) => n.tagName === "CIRCLE").length,
  panelText: panel.textContent,
  tableRows: rows.map((r) => r.children.map((c) => c.textContent)),
  suggestions: suggestions.children.map((b) => b.textContent),
}));
