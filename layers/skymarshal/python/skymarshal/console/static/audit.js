// The run's audit timeline (a fold, loaded when opened): each record at its time in the zone the duty manager reads,
// and whether the chain verifies.

import { el, timeInZones } from "./dom.js";

export async function showAudit(api, runId, station) {
  const audit = await api("GET", `/disruptions/${encodeURIComponent(runId)}/audit`);
  document.querySelector("#timeline").replaceChildren(...(audit.trail || []).map((r) => el("li", { class: r.kind },
    timeInZones(r.at, station, { date: true }), ` ${r.kind} — ${r.actor}`,
    r.body.comment ? ` — “${r.body.comment}”` : "", el("code", { title: r.hash }, ` #${r.hash.slice(0, 10)}`))));
  const verification = audit.verification;
  document.querySelector("#audit-verified").textContent = verification
    ? (verification.ok ? `✔ chain verified (${verification.records} records, signed head)` : `✘ ${verification.problems.map((p) => p.code).join(", ")}`)
    : "";
}
