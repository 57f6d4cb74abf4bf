// SkyMarshal operations assistant panel: a plain ES module, no build step, no framework.
//
//   import { mountAssistant } from "./assistant.js";
//   mountAssistant(document.querySelector("#assistant"), { apiBase: "/api", authHeaders: () => ({ Authorization: "Bearer …" }) });
//
// It POSTs {message, thread_id} to `${apiBase}/assistant/chat/stream`, reads the Server-Sent Events with
// fetch + ReadableStream (EventSource cannot POST nor send headers), shows thinking and the answer as they
// stream, and renders the ui_payload by kind: route → SVG plot + table of alternates, airport → card or
// table, rules → list (or a topic-by-topic comparison).

const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// Markdown subset the formatter produces: headings, bold, italics, code, bullet lists, pipe tables.
// Text is escaped first, so model output can never inject markup.
export function renderMarkdown(text) {
  const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const inline = (s) => escape(s)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|\W)_(.+?)_(?=\W|$)/g, "$1<em>$2</em>")
    .replace(/`(.+?)`/g, "<code>$1</code>");
  const html = [];
  let list = false, table = null;
  const close = () => {
    if (list) { html.push("</ul>"); list = false; }
    if (table) { html.push(`<table>${table.join("")}</table>`); table = null; }
  };
  for (const line of text.split("\n")) {
    if (/^\s*\|/.test(line)) {
      if (/^\s*\|[\s|:-]+\|\s*$/.test(line)) continue; // the |---| separator row
      const cells = line.trim().replace(/^\||\|$/g, "").split("|").map((c) => inline(c.trim()));
      const tagName = table ? "td" : "th";
      if (!table) { close(); table = []; }
      table.push(`<tr>${cells.map((c) => `<${tagName}>${c}</${tagName}>`).join("")}</tr>`);
    } else if (/^\s*- /.test(line)) {
      if (table) close();
      if (!list) { html.push("<ul>"); list = true; }
      html.push(`<li>${inline(line.replace(/^\s*- /, ""))}</li>`);
    } else {
      close();
      const heading = line.match(/^(#{1,4})\s+(.*)$/);
      if (heading) html.push(`<h${heading[1].length + 2}>${inline(heading[2])}</h${heading[1].length + 2}>`);
      else if (line.trim()) html.push(`<p>${inline(line)}</p>`);
    }
  }
  close();
  return html.join("");
}

// Parse an SSE byte stream into {event, data} objects as blocks complete.
export async function* readEvents(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
      let event = "message", data = "";
      for (const line of block.split(/\r?\n/)) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data += (data ? "\n" : "") + line.slice(5).replace(/^ /, "");
      }
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}

function runway(a) {
  return a.longest_runway_ft ? `${a.longest_runway_ft.toLocaleString()} ft` : "unknown";
}

function curfew(a) {
  return (a.curfews || []).map((w) => `${w.kind.replace("_", " ")} ${w.start_local}–${w.end_local}`).join("; ") || "none";
}

function airportTable(airports, withRoute) {
  const head = ["Airport", "Name", "Country", "Runway", withRoute ? "Off route" : "Distance",
    ...(withRoute ? ["Along route"] : []), "Curfew"];
  return el("table", { class: "sm-assistant-table" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, airports.map((a) => el("tr", {},
      el("td", {}, a.iata), el("td", {}, a.name), el("td", {}, a.country), el("td", {}, runway(a)),
      el("td", {}, a.distance_nm != null ? `${a.distance_nm} nm` : "–"),
      ...(withRoute ? [el("td", {}, `${a.along_route_nm} nm`)] : []),
      el("td", {}, curfew(a))))));
}

// Equirectangular plot of the route and the alternates, scaled to their bounding box.
function routePlot(payload) {
  const route = payload.visualization.route || [];
  const points = [...route, ...payload.airports];
  if (points.length < 2) return null;
  const lons = points.map((p) => p.lon), lats = points.map((p) => p.lat);
  const [minLon, maxLon, minLat, maxLat] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  const width = 560, height = 300, pad = 24;
  const scale = Math.min((width - 2 * pad) / Math.max(maxLon - minLon, 1), (height - 2 * pad) / Math.max(maxLat - minLat, 1));
  const x = (lon) => pad + (lon - minLon) * scale;
  const y = (lat) => height - pad - (lat - minLat) * scale;
  const plot = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "sm-assistant-map", role: "img",
    "aria-label": `Route ${payload.departure}–${payload.destination} and ${payload.airports.length} alternates` });
  if (route.length === 2) {
    plot.append(svg("line", { x1: x(route[0].lon), y1: y(route[0].lat), x2: x(route[1].lon), y2: y(route[1].lat),
      class: "sm-route-line" }));
  }
  for (const a of payload.airports) {
    const dot = svg("circle", { cx: x(a.lon), cy: y(a.lat), r: 3.5, class: a.curfews && a.curfews.length ? "sm-alt curfew" : "sm-alt" });
    const title = svg("title");
    title.textContent = `${a.iata} ${a.name} — ${runway(a)}, ${a.distance_nm} nm off route`;
    dot.append(title);
    plot.append(dot);
  }
  for (const end of route) {
    plot.append(svg("circle", { cx: x(end.lon), cy: y(end.lat), r: 6, class: "sm-route-end" }));
    const label = svg("text", { x: x(end.lon) + 8, y: y(end.lat) - 8, class: "sm-route-label" });
    label.textContent = end.iata;
    plot.append(label);
  }
  return plot;
}

function airportCard(a) {
  return el("div", { class: "sm-assistant-card" },
    el("h4", {}, `${a.iata} / ${a.icao} — ${a.name}`),
    el("dl", {},
      el("dt", {}, "Country"), el("dd", {}, a.country),
      el("dt", {}, "Longest runway"), el("dd", {}, runway(a)),
      el("dt", {}, "Type"), el("dd", {}, (a.kind || "unknown").replace("_", " ")),
      el("dt", {}, "Position"), el("dd", {}, `${a.lat.toFixed(3)}, ${a.lon.toFixed(3)}`),
      el("dt", {}, "Curfew"), el("dd", {}, curfew(a))));
}

function rulesView(payload) {
  const raw = payload.tool_raw || {};
  if (raw.max_fdp_minutes != null) {  // computed by the rules engine: the figure and its clause, not a text match
    const hhmm = `${Math.floor(raw.max_fdp_minutes / 60)}:${String(raw.max_fdp_minutes % 60).padStart(2, "0")}`;
    return el("p", { class: "sm-assistant-fdp" }, el("strong", {}, `Max FDP ${hhmm} (${raw.max_fdp_minutes} min)`),
      ` — ${raw.regime} ${raw.clause}; start ${raw.start} local, ${raw.sectors} sector(s)`);
  }
  if (raw.topics) {
    return el("div", { class: "sm-assistant-rules" }, raw.topics.map((topic) => el("section", {},
      el("h4", {}, `${topic.tag.replace("_", " ")} — ${topic.differs ? "differs" : "same"}`),
      el("ul", {}, Object.entries(topic.entries).map(([code, entries]) =>
        el("li", {}, el("strong", {}, `${raw.country_names[code]}: `), entries[0].answer,
          el("small", {}, ` (${entries[0].source})`))),
        topic.missing.map((code) => el("li", { class: "sm-missing" }, `${raw.country_names[code]}: no rule on record`))))));
  }
  const entries = raw.results || raw.entries || [];
  return el("ol", { class: "sm-assistant-rules" }, entries.map((e) => el("li", {},
    el("strong", {}, `${e.jurisdiction}: ${e.question}`), " ", e.answer,
    el("small", {}, ` (${e.source}${e.score != null ? `; similarity ${e.score.toFixed(2)}` : ""})`))),
    raw.has_more ? el("li", { class: "sm-missing" }, `${raw.total - raw.offset - entries.length} more on record`) : null);
}

export function renderPayload(payload) {
  if (!payload || !payload.kind) return el("div");
  if (payload.kind === "route") {
    return el("div", { class: "sm-assistant-route" },
      el("h4", {}, `Alternates ${payload.departure}–${payload.destination} (${payload.airports.length})`),
      routePlot(payload), airportTable(payload.airports, true));
  }
  if (payload.kind === "airport") {
    const raw = payload.tool_raw || {};
    const status = raw.curfew ? el("p", { class: `sm-status ${raw.curfew.status}` }, raw.curfew.message) : null;
    if (payload.visualization.type === "airport_card" && payload.airports.length === 1) {
      return el("div", {}, status, airportCard(payload.airports[0]));
    }
    return el("div", {}, payload.airports.length ? airportTable(payload.airports, false) : el("p", {}, "No airports."));
  }
  return rulesView(payload);
}

export function mountAssistant(container, { apiBase = "/api", authHeaders = () => ({}) } = {}) {
  let threadId = null;
  const input = el("textarea", { rows: 2, placeholder: "Ask about alternates, airports, curfews or rules…", "aria-label": "Question" });
  const send = el("button", { type: "submit" }, "Ask");
  const thinking = el("details", { class: "sm-assistant-thinking" }, el("summary", {}, "Thinking"), el("pre"));
  const answer = el("div", { class: "sm-assistant-answer", "aria-live": "polite" });
  const panel = el("div", { class: "sm-assistant-panel" });
  const suggestions = el("div", { class: "sm-assistant-suggestions" });
  const status = el("div", { class: "sm-assistant-status" });
  const form = el("form", { class: "sm-assistant-form" }, input, send);
  container.classList.add("sm-assistant");
  container.replaceChildren(form, status, thinking, answer, panel, suggestions);

  // The panel draws the answer's data as a table: the same table in the text would be read twice.
  const oneTable = () => {
    if (panel.querySelector("table")) answer.querySelectorAll("table").forEach((table) => table.remove());
  };

  async function ask(message) {
    send.disabled = true;
    status.textContent = "Planning…";
    answer.replaceChildren();
    panel.replaceChildren();
    suggestions.replaceChildren();
    thinking.querySelector("pre").textContent = "";
    let text = "";
    try {
      const response = await fetch(`${apiBase}/assistant/chat/stream`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...(await authHeaders()) },
        body: JSON.stringify({ message, thread_id: threadId }),
      });
      if (!response.ok) {
        const body = await response.json().catch(() => ({}));
        throw new Error(body.error || `HTTP ${response.status}`);
      }
      for await (const { event, data } of readEvents(response.body)) {
        if (event === "plan") status.textContent = `Plan: ${data.plan.selected_tool}`;
        else if (event === "thinking") thinking.querySelector("pre").textContent = data.text;
        else if (event === "tool_call_start") status.textContent = `Running ${data.tool}…`;
        else if (event === "tool_call_end") status.textContent = data.ok ? `${data.tool} done` : `${data.tool} could not answer`;
        else if (event === "message") {
          text = data.reset ? data.delta : text + data.delta;
          answer.innerHTML = renderMarkdown(text);
          oneTable();
        } else if (event === "ui_payload") {
          panel.replaceChildren(renderPayload(data));
          oneTable();
          suggestions.replaceChildren(...(data.suggested_queries || []).map((q) =>
            el("button", { type: "button", onclick: () => { input.value = q; ask(q); } }, q)));
        } else if (event === "done") {
          threadId = data.thread_id || threadId;
          thinking.querySelector("pre").textContent = data.thinking;
          const u = data.usage || {};
          status.textContent = u.mode === "llm" ? `Done · ${u.total_tokens} tokens` : "Done · offline";
        } else if (event === "error") {
          status.textContent = data.fatal ? `Error: ${data.message}` : `Note: ${data.message}`;
        }
      }
    } catch (error) {
      status.textContent = `Error: ${error.message}`;
    } finally {
      send.disabled = false;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const message = input.value.trim();
    if (message) ask(message);
  });
  return { ask, reset: () => { threadId = null; } };
}
