// The duty manager console: sign in, report, follow a run live, approve or override, read the audit trail.
// Plain ES module, no build step. Talks to the API described by /api/openapi.json; live progress arrives as
// server-sent events read with fetch (so the ID token travels in the Authorization header, never the URL).

import { confirmDecision, mountPlans, planFigures, showFacts, showPlans } from "./plans.js";
import { loadAlerts, retryRun } from "./alerts.js";
import { loadReplay } from "./replay.js";
import { runLine } from "./runs.js";
import { showHistory } from "./history.js";
import { debateView, instructionRead } from "./debate.js";
import { renderNetwork } from "./network.js";
import { card, cardLabel, escalationView, markDecided, refusedView } from "./cards.js";
import { loadSettings, saveSettings } from "./settings.js";
import { clearMessages, sendsLine, showMessages } from "./messages.js";
import { readEvents } from "./sse.js";
import { mountBoard } from "./board.js";
import { headline, renderGlance } from "./glance.js";
import { showAudit } from "./audit.js";
import { bothZones, el, mountZoneChoice, timeInZones } from "./dom.js";

const $ = (selector) => document.querySelector(selector);
const state = { config: null, token: null, who: null, runId: null, stream: null, decision: null, board: null };

const authHeaders = () => (state.token ? { Authorization: `Bearer ${state.token}` } : {});

async function api(method, path, body) {
  const response = await fetch(`${state.config.api}${path}`, {
    method, headers: { "Content-Type": "application/json", ...authHeaders() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(data?.message || `${response.status} ${response.statusText}`);
  return data;
}

// ------------------------------------------------------------------------------------------- sign in

function claimsOf(token) {
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(decodeURIComponent(escape(atob(part))));
}

function signedIn(token) {
  state.token = token;
  sessionStorage.setItem("skymarshal.token", token);
  const claims = claimsOf(token);
  const groups = [].concat(claims["cognito:groups"] || []);
  state.who = { name: claims.name || claims["cognito:username"], groups };
  $("#who").textContent = `${state.who.name} (${groups.join(", ") || "no group"})`;
  $("#login").hidden = true;
  $("#app").hidden = false;
  $("#sign-out").hidden = false;
  $("#zone-pick").hidden = false;
  $("#report").hidden = !groups.includes("DutyManager");
  $("#settings").hidden = !groups.includes("Admin");
  if (groups.includes("Admin")) loadSettings(api);
  loadRuns();
  state.board = mountBoard($("#board"), { api, streamBase: () => state.config.stream, authHeaders });
  if (location.hash.length <= 1) showBoard();
  if (state.config.assistant) mountAssistantPanel();
}

// The landing view: the operation board (board.js), drawn again each time it is shown.
function showBoard() {
  if (state.stream) state.stream.abort();
  state.runId = null;
  $("#run").hidden = true;
  $("#board").hidden = false;
  state.board?.load();
}

async function devLogin(role) {
  const response = await fetch(`${state.config.api}/dev/login`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ role }),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message);
  signedIn(data.id_token);
}

async function cognitoLogin(username, password) {
  // USER_PASSWORD_AUTH against the user pool's public app client (no secret), as the Cognito API documents.
  const response = await fetch(`https://cognito-idp.${state.config.region}.amazonaws.com/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": "AWSCognitoIdentityProviderService.InitiateAuth" },
    body: JSON.stringify({ AuthFlow: "USER_PASSWORD_AUTH", ClientId: state.config.userPoolClientId,
                           AuthParameters: { USERNAME: username, PASSWORD: password } }),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.message || "sign-in refused");
  signedIn(data.AuthenticationResult.IdToken);
}

function showLogin() {
  $("#login").hidden = false;
  $("#app").hidden = true;
  $("#dev-login").hidden = !state.config.devLogin;
  $("#cognito-login").hidden = state.config.devLogin;
}

// ------------------------------------------------------------------------------------------------ runs


async function loadRuns() {
  const runs = await api("GET", "/disruptions?limit=30");
  $("#runs").replaceChildren(...runs.map(runLine));
  loadAlerts($("#alerts"), api).catch((error) => console.warn("alerts unavailable", error));
  loadReplay($("#replay"), api);
}

async function openRun(runId) {
  if (state.stream) state.stream.abort();
  state.runId = runId;
  state.decision = null;
  state.board?.stop();  // its stream and timer: the run's page needs the connections
  $("#board").hidden = true;
  $("#run").hidden = false;
  $("#decision").hidden = true;
  $("#execution").hidden = true;
  $("#execution-events").replaceChildren();
  $("#timeline").replaceChildren();
  $("#audit-verified").textContent = "";
  $("#outcome").textContent = "";
  $("#retry").hidden = true;
  $("#retry-error").textContent = "";
  $("#history-panel").replaceChildren();
  $("#glance").replaceChildren();
  for (const fold of document.querySelectorAll("#run details.fold")) fold.open = false;
  clearMessages();
  state.headline = null;
  state.station = null;
  state.progress = null;
  $("#run-headline").textContent = "";
  $("#run-id").textContent = runId;
  // Focus on the run's title, so the next Tab is the decision's first control, not the side bar's.
  $("#run-title").focus({ preventScroll: true });
  const progress = await api("GET", `/disruptions/${encodeURIComponent(runId)}`);
  renderProgress(progress);
  // Waiting: the live stream brings the plans. Otherwise the decision taken (if any) stays readable.
  if (!progress.awaiting_approval) showTakenDecision(runId);
  follow(runId);
}

function renderProgress(progress) {
  state.progress = progress;
  $("#run-prompt").textContent = progress.prompt || "";
  // Titled by what happened once the decision says it; until then by the report itself.
  if (!state.headline) $("#run-headline").textContent = progress.prompt || progress.disruption_id;
  $("#run-started").textContent = progress.started_at ? `· started ${bothZones(progress.started_at, state.station, { date: true })}` : "";
  $("#run-phase").textContent = progress.phase;
  $("#run-status").textContent = `(${progress.status})`;
  // The run's own steps; the per-agent states and the Map's routing choices are in the agents' table.
  state.prompt = progress.prompt || "";
  // The run's phases by name (the workflow's routing choices are not phases), each with its time.
  const phases = progress.phases || [];
  $("#phases").replaceChildren(...phases.map((p, i) => {
    const running = p.seconds == null && i === phases.length - 1 && p.key !== "done";
    return el("li", { class: running ? "current" : "", dataset: { phase: p.key }, "aria-current": running ? "step" : null },
      timeInZones(p.started_at, state.station), `  ${p.label}`,
      el("span", { class: "secs" }, p.seconds != null ? ` — ${p.seconds} s` : running ? " — in progress" : ""));
  }));
  $("#run-escalation").replaceChildren(...escalationView(progress.escalation ? [progress.escalation] : []));
  for (const agent of progress.agents) renderAgent(agent);
  if (progress.outcome) renderOutcome(progress.outcome);
}

function renderAgent(agent) {
  const body = $("#agents tbody");
  let row = body.querySelector(`tr[data-agent="${agent.agent}"]`);
  if (!row) {
    row = el("tr", { dataset: { agent: agent.agent } }, el("td", {}, agent.agent), el("td", { class: "initial" }), el("td", { class: "revision" }), el("td", { class: "debate" }));
    body.append(row);
  }
  const cell = row.querySelector(`.${agent.phase}`);
  cell.textContent = `${agent.status}${agent.seconds != null ? ` · ${agent.seconds} s` : ""}`;
  cell.className = `${agent.phase} ${agent.status}`;
}

// Server-sent events over fetch (sse.js).
async function follow(runId) {
  const controller = new AbortController();
  state.stream = controller;
  try {
    await readEvents(`${state.config.stream}/disruptions/${encodeURIComponent(runId)}/events`, authHeaders(),
      controller.signal, (name, data) => { if (state.runId === runId) onEvent(name, data); });
  } catch (error) {
    if (error.name !== "AbortError") console.warn("live updates stopped", error);
  }
}

function onEvent(name, data) {
  if (name === "phase") {
    api("GET", `/disruptions/${encodeURIComponent(state.runId)}`).then(renderProgress).catch(() => {});
  } else if (name === "agent") renderAgent(data);
  else if (name === "scenarios") renderDecision(data);
  else if (name === "execution") {
    $("#execution").hidden = false;
    $("#execution-events").append(el("li", { class: data.event }, `${data.event}: ${data.description}${data.message ? ` — ${data.message}` : ""}`));
  } else if (name === "done") {
    renderOutcome(data.outcome || { status: data.status });
    if (state.decision?.awaiting_approval) showTakenDecision(state.runId);
    if (state.decision) loadMessages();  // executed: what was sent (even when the end overtook the approval's answer)
    loadRuns();
    loadAudit().catch((error) => console.warn("audit unavailable", error));
  }
}

function renderOutcome(outcome) {
  $("#execution").hidden = false;
  $("#outcome").textContent = `Outcome: ${outcome.status}${outcome.message ? ` — ${outcome.message}` : ""}`;
  $("#retry").hidden = !(outcome.status === "escalated" && canDecide());
}

// ------------------------------------------------------------------------------------------- decision

const canDecide = () => state.who?.groups.includes("DutyManager");

async function showTakenDecision(runId) {
  try {
    const view = await api("GET", `/disruptions/${encodeURIComponent(runId)}/decision`);
    if (state.runId === runId && !state.decision?.awaiting_approval) renderDecision(view);
  } catch { /* no decision yet (or none: refused at Validate) */ }
}

function showDecided(decided) {
  markDecided(document.querySelector("#decided"), decided, state.decision);
  if (decided) {
    $("#override-box").hidden = true;
    $("#glance .glance-actions")?.remove();
  }
}

function renderDecision(view) {
  state.decision = view;
  $("#decision").hidden = false;
  $("#decision-error").textContent = "";
  // New plans answer any earlier request: its "looking for alternatives…" is no longer true.
  if (view.awaiting_approval) {
    $("#outcome").textContent = "";
    $("#execution").hidden = !$("#execution-events").children.length;
  }
  const known = state.station;
  state.station = view.station || null;
  state.headline = headline(view.disruption, view.network, state.station);
  if (state.headline) $("#run-headline").textContent = state.headline;
  if (state.station && !known && state.progress) renderProgress(state.progress);  // its phases with the station's time
  renderGlance($("#glance"), view, { canDecide: canDecide(), onApprove: approvePlan });
  $("#final-decision").textContent = view.final_decision;
  $("#instruction-read").replaceChildren(...instructionRead(view));
  $("#debate").replaceChildren(...debateView(view.debate));
  renderNetwork($("#network"), view.network, { canDecide: canDecide(), onExclude: excludeFlights });
  $("#escalations").replaceChildren(...escalationView(view.escalation_banners));
  $("#justification").textContent = view.justification || "";
  $("#cards").replaceChildren(...view.top.map((plan) => card(plan, { canDecide: canDecide(), onApprove: approvePlan })));
  $("#refused").replaceChildren(...refusedView(view.refused));
  $("#override-box").hidden = !canDecide();
  showDecided(view.awaiting_approval ? null : view.decided);
  $("#override [name=scenario_id]").replaceChildren(...view.top.map((c) => el("option", { value: c.scenario_id }, `#${c.rank} ${c.title}`)));
  showFacts(state.prompt, view.disruption);
  // Every decision has its comparison and Gantt (a network plan's over the tails and crews its table touches).
  const runId = state.runId;
  showPlans(() => api("GET", `/disruptions/${encodeURIComponent(runId)}/gantt`));
  loadMessages();
}

// Before approval what each plan will send, beside its card; once executed, what was sent.
function loadMessages() {
  const runId = state.runId;
  showMessages(() => api("GET", `/disruptions/${encodeURIComponent(runId)}/messages`),
    { awaiting: Boolean(state.decision?.awaiting_approval) });
}

async function excludeFlights(body, rows) {
  const ok = await confirmDecision(`Leave ${rows.length} flight${rows.length > 1 ? "s" : ""} as scheduled in every plan?`,
    [...rows.map((r) => `${r.flight_number} ${r.origin}→${r.destination}: ${body.excluded_flights[r.flight_id]}`),
      "Every plan is validated again; you are asked to decide once more."]);
  if (ok) decide("override", body);
}

async function approvePlan(plan) {
  const ok = await confirmDecision(`Approve plan #${plan.rank}: ${plan.title}?`,
    [planFigures(plan.scenario_id) || cardLabel(plan), sendsLine(plan.scenario_id), "The plan is executed against the operational data once you confirm."]);
  if (ok) decide("approve", { scenario_id: plan.scenario_id });
}

async function decide(kind, body) {
  $("#decision-error").textContent = "";
  try {
    const path = kind === "approve" ? "approve" : "override";
    const recorded = await api("POST", `/disruptions/${encodeURIComponent(state.runId)}/${path}`, body);
    state.decision = { ...state.decision, awaiting_approval: false, decided: recorded };
    showDecided(recorded);
    $("#execution").hidden = false;
    const next = { exclude: "validating the plans again…", alternatives: "looking for alternatives…" }[recorded.action];
    $("#outcome").textContent = `${recorded.action} by ${recorded.decided_by} — ${next || "executing…"}`;
  } catch (error) {
    // Refused (decided elsewhere, timed out, moved on): one line, and the page shows what is true now.
    const runId = state.runId;
    const [view, progress] = await Promise.all([
      api("GET", `/disruptions/${encodeURIComponent(runId)}/decision`).catch(() => null),
      api("GET", `/disruptions/${encodeURIComponent(runId)}`).catch(() => null)]);
    if (state.runId !== runId) return;
    if (progress) renderProgress(progress);
    if (view) renderDecision(view);
    $("#decision-error").textContent = error.message;
  }
}

// ---------------------------------------------------------------------------------------------- audit

const loadAudit = () => (state.runId ? showAudit(api, state.runId, state.station) : Promise.resolve());

// The header's Times choice changed: what shows a time is drawn again from what the page holds.
function redrawTimes() {
  if (!state.runId) return;
  if (state.decision) state.headline = headline(state.decision.disruption, state.decision.network, state.station);
  if (state.headline) $("#run-headline").textContent = state.headline;
  if (state.progress) renderProgress(state.progress);
  if (state.decision && !state.decision.awaiting_approval) showDecided(state.decision.decided);
  if ($("#audit").open) loadAudit().catch((error) => console.warn("audit unavailable", error));
}

async function loadHistory() {
  if (!state.runId) return;
  $("#history-error").textContent = "";
  const onStarted = (name) => { loadRuns(); location.hash = name; };
  try {
    await showHistory($("#history-panel"), state.runId, api, { canDecide: canDecide(), onStarted });
  } catch (error) { $("#history-error").textContent = error.message; }
}

// ------------------------------------------------------------------------------------------ assistant

async function mountAssistantPanel() {
  try {
    const { mountAssistant } = await import("./assistant.js");
    $("#assistant").hidden = false;
    mountAssistant($("#assistant-panel"), { apiBase: state.config.stream, authHeaders });
  } catch (error) {
    console.warn("assistant panel unavailable", error);
  }
}

// ------------------------------------------------------------------------------------------------ wiring

async function main() {
  state.config = await (await fetch("config.json")).json();
  if (state.config.mode === "local-development") {
    $("#mode-banner").hidden = false;
    $("#mode-banner").textContent = "LOCAL DEVELOPMENT — emulated AWS";
  }
  state.config.stream = state.config.stream || state.config.api;
  document.querySelectorAll("#dev-login button").forEach((b) => b.addEventListener("click", () =>
    devLogin(b.dataset.role).catch((e) => { $("#login-error").textContent = e.message; })));
  $("#cognito-login").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    cognitoLogin(form.get("username"), form.get("password")).catch((err) => { $("#login-error").textContent = err.message; });
  });
  $("#sign-out").addEventListener("click", () => { sessionStorage.removeItem("skymarshal.token"); location.hash = ""; location.reload(); });
  $("#refresh").addEventListener("click", loadRuns);
  mountZoneChoice($("#zone"), redrawTimes);
  $("#settings").addEventListener("submit", (e) => saveSettings(e, api));
  $("#load-audit").addEventListener("click", loadAudit);
  $("#load-history").addEventListener("click", loadHistory);
  // A fold opened is a fold read: opening it loads what it holds.
  $("#audit").addEventListener("toggle", (e) => { if (e.target.open) loadAudit().catch((error) => console.warn("audit unavailable", error)); });
  $("#history").addEventListener("toggle", (e) => { if (e.target.open) loadHistory(); });
  mountPlans();
  $("#runs").addEventListener("click", (e) => { const run = e.target.dataset?.run; if (run) { e.preventDefault(); location.hash = run; } });
  $("#retry").addEventListener("click", () => retryRun(state.runId, api)
    .then((name) => { loadRuns(); location.hash = name; })
    .catch((error) => { $("#retry-error").textContent = error.message; }));
  window.addEventListener("hashchange", () => {
    if (location.hash.length > 1) openRun(decodeURIComponent(location.hash.slice(1)));
    else showBoard();
  });
  $("#report").addEventListener("submit", async (e) => {
    e.preventDefault();
    $("#report-error").textContent = "";
    try {
      const started = await api("POST", "/disruptions", { prompt: new FormData(e.target).get("prompt") });
      await loadRuns();
      location.hash = started.execution_name;
    } catch (error) { $("#report-error").textContent = error.message; }
  });
  $("#override").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const body = { action: form.get("action"), reason: form.get("reason") };
    if (body.action === "select") body.scenario_id = form.get("scenario_id");
    if (body.action === "alternatives") body.instruction = form.get("instruction");
    const what = { select: `select plan ${body.scenario_id} instead`, alternatives: "ask the arbitrator for alternatives", abort: "abort: reject every plan" }[body.action];
    confirmDecision(`Override the recommendation: ${what}?`, [`Reason: ${body.reason}`, body.instruction ? `Instruction: ${body.instruction}` : null])
      .then((ok) => { if (ok) decide("override", body); });
  });
  const saved = sessionStorage.getItem("skymarshal.token");
  if (saved && claimsOf(saved).exp * 1000 > Date.now()) {
    signedIn(saved);
    if (location.hash.length > 1) openRun(decodeURIComponent(location.hash.slice(1)));
  } else showLogin();
}

main();
