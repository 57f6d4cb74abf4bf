// Runs the console's replay panel (replay.js) under Node with a minimal DOM stand-in; prints what the panel shows
// as JSON. Used by test_console_replay.py.  Usage: node replay_harness.mjs <replay.js path> <reply.json | 404>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

class Node_ {
  constructor(tag) { this.tagName = tag.toUpperCase(); this.children = []; this.attributes = {}; }
  append(...nodes) { for (const n of nodes) this.children.push(n); }
  replaceChildren(...nodes) { this.children = []; this.append(...nodes); }
  setAttribute(k, v) { this.attributes[k] = String(v); }
  get textContent() { return this.children.map((c) => c.textContent).join(""); }
  all() { return this.children.flatMap((c) => (c instanceof Node_ ? [c, ...c.all()] : [])); }
}
class Text_ { constructor(t) { this.textContent = String(t); } }
globalThis.Node = Node_;
globalThis.document = {
  createElement: (t) => new Node_(t),
  createElementNS: (_ns, t) => new Node_(t),
  createTextNode: (t) => new Text_(t),
};

const [modulePath, replyPath] = process.argv.slice(2);
const { loadReplay } = await import(pathToFileURL(modulePath).href);
const calls = [];
const api = async (method, path) => {
  calls.push(`${method} ${path}`);
  if (replyPath === "404") throw new Error("no day has been replayed on this account: run `skymarshal replay STREAM`");
  return JSON.parse(readFileSync(replyPath, "utf8"));
};
const panel = new Node_("div");
await loadReplay(panel, api);
const nodes = panel.all();
const table = nodes.find((n) => n.attributes["data-testid"] === "replay-scorecard");
console.log(JSON.stringify({
  calls,
  text: panel.textContent,
  header: table ? table.all().filter((n) => n.tagName === "TH" && n.attributes.scope !== "row").slice(0, 10).map((n) => n.textContent) : [],
  rows: table ? table.all().filter((n) => n.tagName === "TR").map((n) => n.children.map((c) => c.textContent)) : [],
  lines: nodes.filter((n) => n.tagName === "POLYLINE").map((n) => ({ policy: n.attributes["data-policy"], points: n.attributes.points })),
}));
