// The facts panel's corrections: what the reading is unsure of (asked, not guessed), the corrections already made
// (who, what had been read, what it became), and the form that corrects a misread fact and analyses the report
// again (POST /api/disruptions/{run}/correct). The server checks every value, and then the data, like the report's
// own facts; its one-line refusal is shown here. A run waiting for a decision is rejected first, so it is confirmed.
import { el } from "./dom.js";
import { confirmDecision } from "./plans.js";

const FAMILIES = ["passengers_baggage", "cargo_mail", "aircraft_ramp_handling", "technical", "damage_automation",
  "flight_operations_crew", "weather", "atfm_airport_government", "reactionary", "miscellaneous"];
const POSITIONS = ["CAPTAIN", "FIRST_OFFICER", "SECOND_OFFICER", "PURSER", "CABIN"];
const hhmm = (iso) => iso.slice(11, 16);
const words = (key) => key.replaceAll("_", " ");

// The signed-in caller, as app.js keeps it (the token in this tab's session storage); the API checks it again.
function caller() {
  const token = sessionStorage.getItem("skymarshal.token");
  if (!token) return null;
  const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
  return { token, claims: JSON.parse(decodeURIComponent(escape(atob(part)))) };
}

const canCorrect = () => [].concat(caller()?.claims["cognito:groups"] || []).includes("DutyManager");

async function postCorrection(runId, facts) {
  const config = await (await fetch("config.json")).json();
  const response = await fetch(`${config.api}/disruptions/${encodeURIComponent(runId)}/correct`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${caller()?.token ?? ""}` },
    body: JSON.stringify({ facts }),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.message || `${response.status} ${response.statusText}`);
  return data;
}

// What the reading is unsure of: each says which fact would settle it.
export function unsureView(disruption) {
  const unsure = disruption.unsure || [];
  if (!unsure.length) return [];
  return [el("div", { class: "facts-unsure", role: "alert", "data-testid": "facts-unsure" },
    el("strong", {}, "Unsure of the reading — check before deciding:"),
    el("ul", {}, unsure.map((u) => el("li", { dataset: { code: u.code } }, `${u.message} (correct: ${words(u.key)})`))))];
}

export function correctionsView(disruption) {
  const made = disruption.corrections || [];
  if (!made.length) return [];
  return [el("ul", { class: "facts-corrected", "data-testid": "facts-corrected" },
    made.map((c) => el("li", {}, `corrected ${words(c.key)}: ${c.read ?? "(nothing read)"} → ${c.value} by ${c.by ?? "?"}`)))];
}

function field(label, name, input) {
  input.name = name;
  input.dataset.testid = `correct-${name}`;
  return el("label", {}, el("span", {}, label), input);
}

// The form: each field starts at what was read; only the fields changed are sent.
export function correctionForm(disruption) {
  if (!canCorrect()) return [];
  const d = disruption;
  const read = {
    code: String(d.iata_delay_code),
    family: d.family,
    crew_position: d.scope.crew_position || "",
    flights: (d.scope.flight_numbers || []).join(","),
    window: d.window ? `${hhmm(d.window.start)}-${hhmm(d.window.end)}` : "",
    duration: d.severity_minutes != null ? String(d.severity_minutes) : "",
  };
  const network = d.scope.kind === "airport" || d.scope.kind === "airspace";
  const select = (options, value) => el("select", {}, options.map((o) => el("option", { value: o, selected: o === value ? "" : null }, words(o) || "—")));
  const error = el("p", { class: "error", role: "alert", "data-testid": "correct-error" });
  const form = el("form", { class: "facts-correct", "data-testid": "facts-correct" },
    field("AHM 730 code", "code", el("input", { type: "number", min: "11", max: "99", value: read.code })),
    field("family", "family", select(FAMILIES, read.family)),
    network ? [] : [
      field("crew position", "crew_position", select(["", ...POSITIONS], read.crew_position)),
      field("flights", "flights", el("input", { type: "text", value: read.flights, placeholder: "EY123,EY124" })),
      field("window (UTC)", "window", el("input", { type: "text", value: read.window, placeholder: "06:00-09:30" })),
      field("stated duration (min)", "duration", el("input", { type: "number", min: "1", value: read.duration })),
    ],
    el("button", { type: "submit", "data-testid": "correct-submit" }, "Analyse again with these facts"),
    error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const facts = {};
    for (const [key, value] of new FormData(form)) {
      if (String(value).trim() !== read[key]) facts[key] = String(value).trim();
    }
    if (!Object.keys(facts).length) {
      error.textContent = "Nothing changed: edit the fact that was misread, then analyse again.";
      return;
    }
    const said = Object.entries(facts).map(([k, v]) => `${words(k)}: ${read[k] || "(nothing read)"} → ${v || "(none)"}`);
    const ok = await confirmDecision("Analyse the report again with these facts?",
      [...said, "A run waiting for your decision is rejected first; every correction goes into the audit with your name."]);
    if (!ok) return;
    try {
      const runId = decodeURIComponent(location.hash.slice(1));
      const started = await postCorrection(runId, facts);
      location.hash = started.execution_name;
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  return [el("details", { class: "facts-correct-box", open: (d.unsure || []).length ? "" : null },
    el("summary", { "data-testid": "correct-open" }, "Correct a misread fact"), form)];
}
