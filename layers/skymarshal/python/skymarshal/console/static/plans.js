// The decision panel's pictures: the facts above the plans, the three-plan comparison and the before/after
// Gantt of the plan selected in it (aircraft or crews), plus the confirmation every decision goes through.
import { el } from "./dom.js";
import { renderFacts } from "./facts.js";
import { renderCompare, planLabel } from "./compare.js";
import { legend, renderGantt } from "./gantt.js";

const panel = { view: null, selected: null, mode: "tail", resizeTimer: null };

function draw() {
  const view = panel.view;
  if (!view) return;
  renderCompare(document.querySelector("#compare"), view, panel.selected, (id) => {
    panel.selected = id;
    draw();
  });
  renderGantt(document.querySelector("#gantt-chart"), view, panel.selected, panel.mode);
  for (const input of document.querySelectorAll("#gantt-mode input")) input.checked = input.value === panel.mode;
}

export function showFacts(prompt, disruption) {
  renderFacts(document.querySelector("#facts"), prompt, disruption);
}

// `load` fetches GET /disruptions/{id}/gantt; a failure leaves the cards usable and says why.
// Another run opened (or a new attempt arrived) before the answer: the older answer is dropped, never drawn.
export async function showPlans(load) {
  const status = document.querySelector("#gantt-status");
  const request = (panel.request = (panel.request || 0) + 1);
  panel.view = null;
  document.querySelector("#compare").replaceChildren();
  document.querySelector("#gantt-chart").replaceChildren();
  status.textContent = "loading the plans' Gantt…";
  try {
    const view = await load();
    if (request !== panel.request) return;
    panel.view = view;
    panel.selected = view.plans[0]?.scenario_id ?? null;
    status.textContent = "";
    draw();
  } catch (error) {
    if (request === panel.request) status.textContent = `The Gantt is not available: ${error.message}`;
  }
}

export function planFigures(scenarioId) {
  const plan = panel.view?.plans.find((p) => p.scenario_id === scenarioId);
  return plan ? planLabel(plan) : null;
}

export function mountPlans() {
  const mode = document.querySelector("#gantt-mode");
  mode.addEventListener("change", (e) => {
    panel.mode = e.target.value;
    draw();
  });
  document.querySelector("#gantt-legend").replaceChildren(legend());
  // Drawn at the container's width: redraw when the window changes size (not on every resize event).
  window.addEventListener("resize", () => {
    clearTimeout(panel.resizeTimer);
    panel.resizeTimer = setTimeout(draw, 150);
  });
}

// A modal confirmation (the native <dialog>: focus moves into it, Escape cancels, Tab stays inside), so a
// decision taken with the keyboard is as deliberate as one taken with the mouse. Resolves true to go ahead.
export function confirmDecision(title, details) {
  const dialog = document.querySelector("#confirm");
  dialog.querySelector("#confirm-title").textContent = title;
  dialog.querySelector("#confirm-details").replaceChildren(...details.filter(Boolean).map((d) => el("p", {}, d)));
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.removeEventListener("close", onClose);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const onClose = () => done(dialog.returnValue === "confirm");
    dialog.addEventListener("close", onClose);
    dialog.returnValue = "";
    dialog.showModal();
    dialog.querySelector("[value=cancel]").focus();  // the safe choice has the focus: Enter alone does not decide
  });
}
