// A run's history: the rounds it checkpointed (a duty manager may continue a new run from one, with a reason)
// and every agent's and the arbitrator's thread with its ordered records; the whole history exports as JSON.
import { el } from "./dom.js";

function continueForm(runId, round, api, onStarted) {
  const error = el("span", { class: "error", role: "alert" });
  const form = el("form", { class: "continue", dataset: { testid: `continue-${round.phase}` } },
    el("label", {}, "Reason ", el("input", { name: "reason", required: "", "aria-label": `why continue from the ${round.phase} round` })),
    el("button", { type: "submit" }, "Continue from here"), error);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const reason = new FormData(form).get("reason");
      const started = await api("POST", `/disruptions/${encodeURIComponent(runId)}/continue`, { from_round: round.phase, reason });
      onStarted(started.execution_name);
    } catch (failure) { error.textContent = failure.message; }
  });
  return form;
}

function roundItem(runId, round, canDecide, api, onStarted) {
  const statuses = Object.values(round.statuses);
  const ok = statuses.filter((s) => s === "ok").length;
  return el("li", { dataset: { round: round.phase } },
    `${round.phase} round: ${ok}/${statuses.length} agents ok`,
    round.reused_from ? ` (reused from ${round.reused_from})` : "",
    round.can_continue ? "" : " — a safety agent failed: not continuable",
    canDecide && round.can_continue ? continueForm(runId, round, api, onStarted) : null);
}

function threadRows(thread) {
  return thread.records.map((r, i) => el("tr", { dataset: { thread: thread.thread_id } },
    i === 0 ? el("th", { rowspan: thread.records.length, scope: "rowgroup" },
      `${thread.agent} · ${thread.phase}`, el("br"), el("small", {}, thread.status + (thread.status_actor ? ` by ${thread.status_actor}` : ""))) : null,
    el("td", {}, String(r.seq)), el("td", {}, el("time", {}, r.timestamp)), el("td", {}, r.event),
    el("td", {}, r.confidence == null ? "" : `${Math.round(r.confidence * 100)}%`)));
}

export async function showHistory(container, runId, api, { canDecide, onStarted }) {
  const history = await api("GET", `/disruptions/${encodeURIComponent(runId)}/history`);
  const blob = new Blob([JSON.stringify(history, null, 2)], { type: "application/json" });
  const exported = el("a", { href: URL.createObjectURL(blob), download: `${runId}-history.json`, "data-testid": "history-export" }, "export JSON");
  container.replaceChildren(
    el("p", {}, `${history.rounds.length} checkpointed round(s), ${history.threads.length} thread(s) · `, exported),
    el("ol", { class: "rounds", "data-testid": "rounds" }, history.rounds.map((r) => roundItem(runId, r, canDecide, api, onStarted))),
    el("table", { class: "threads", "data-testid": "threads" },
      el("thead", {}, el("tr", {}, ...["thread", "#", "at", "record", "confidence"].map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, history.threads.flatMap(threadRows))));
  return history;
}
