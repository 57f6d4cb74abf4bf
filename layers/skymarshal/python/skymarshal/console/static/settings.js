// Run settings (Admin): the approval window new runs get, saved with the version read (409 if it moved on).
const $ = (selector) => document.querySelector(selector);
const state = { version: null };

export async function loadSettings(api) {
  const settings = await api("GET", "/settings");
  state.version = settings.version;
  $("#settings [name=approval_timeout_minutes]").value = settings.approval_timeout_minutes;
  $("#settings-status").textContent = settings.version
    ? `version ${settings.version}, saved by ${settings.updated_by}` : "the deployment's defaults";
}

export async function saveSettings(event, api) {
  event.preventDefault();
  const minutes = Number(new FormData(event.target).get("approval_timeout_minutes"));
  try {
    const saved = await api("PUT", "/settings", { approval_timeout_minutes: minutes, version: state.version });
    state.version = saved.version;
    $("#settings-status").textContent = `saved: version ${saved.version}`;
  } catch (error) {
    $("#settings-status").textContent = error.message;
  }
}
