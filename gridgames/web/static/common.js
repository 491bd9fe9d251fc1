// gridgames web pages: the session, JSON calls, job polling, errors. Plain JS, no library, no network but this server.
"use strict";
const GG = (() => {
  let session = null;
  let activeJob = null;
  const $ = (id) => document.getElementById(id);

  // The launch token (gridgames serve --host off loopback prints the page's URL with ?token=...): kept for this
  // server's pages, dropped from the address bar, sent with every API call.
  const query = new URLSearchParams(location.search);
  const launch = query.get("token");
  if (launch) { // the token leaves the address bar; the rest of the query (a shared position) stays
    localStorage.setItem("gridgames-token", launch);
    query.delete("token");
    history.replaceState(null, "", location.pathname + (query.toString() ? `?${query}` : ""));
  }
  function authHeaders() {
    const token = localStorage.getItem("gridgames-token");
    return token ? { "X-GridGames-Token": token } : {};
  }

  function showError(message) {
    const box = $("error");
    if (!box) return;
    box.textContent = message || "";
    box.hidden = !message;
  }

  async function ensureSession() {
    if (session) return session;
    const r = await fetch("/api/session", { method: "POST", headers: { ...authHeaders(), "Content-Type": "application/json" }, body: "{}" });
    session = (await r.json()).session;
    return session;
  }

  // One API call: JSON in, JSON out; a refused request throws an Error with the server's one-line message.
  async function api(method, path, body) {
    await ensureSession();
    const options = { method, headers: { ...authHeaders(), "X-Session": session } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let r = await fetch(path, options);
    let lost = null; // why the old session went (the server says), shown if the retry finds nothing
    if (r.status === 401) { // the session expired: start a new one, once
      try { lost = (await r.json()).error; } catch (e) { lost = null; }
      session = null;
      await ensureSession();
      options.headers["X-Session"] = session;
      r = await fetch(path, options);
    }
    const type = r.headers.get("content-type") || "";
    const data = type.includes("json") && !path.endsWith("/save") && !path.endsWith(".json") ? await r.json() : await r.text();
    if (!r.ok) {
      const said = data && data.error ? data.error : `HTTP ${r.status}`;
      const error = new Error(lost && lost.includes("was closed") ? `${lost} (${said})` : said);
      error.status = r.status;
      throw error;
    }
    return data;
  }

  // Poll a job until it ends; onProgress(job) on every poll; resolves with the final job view.
  async function follow(job, onProgress) {
    activeJob = job.id;
    try {
      for (;;) {
        if (onProgress) onProgress(job);
        if (job.status !== "queued" && job.status !== "running") return job;
        await new Promise((resolve) => setTimeout(resolve, 150));
        job = await api("GET", `/api/jobs/${job.id}`);
      }
    } finally {
      activeJob = null;
    }
  }

  async function cancel() {
    if (activeJob) await api("POST", `/api/jobs/${activeJob}/cancel`).catch(() => {});
  }

  // When the page goes away its job is cancelled (and the server cancels any job nobody polls).
  window.addEventListener("pagehide", () => {
    if (activeJob && session) {
      fetch(`/api/jobs/${activeJob}/cancel`, { method: "POST", keepalive: true, headers: { ...authHeaders(), "X-Session": session } });
    }
  });

  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function gameName() {
    return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  }

  async function gameInfo(name) {
    const r = await fetch("/api/games", { headers: authHeaders() });
    const all = (await r.json()).games;
    return all.find((g) => g.name === name);
  }

  // Inputs for a game's declared options: numbers, text, check boxes; a menu where the option lists its choices.
  function optionInputs(container, options, values) {
    container.innerHTML = "";
    for (const o of options) {
      const label = document.createElement("label");
      label.textContent = o.name.replace(/_/g, " ") + " ";
      label.title = o.help || "";
      const menu = o.choices && o.choices.length > 0;
      const input = document.createElement(menu ? "select" : "input");
      input.id = `opt-${o.name}`;
      input.dataset.option = o.name;
      input.dataset.type = o.type;
      const value = values && o.name in values ? values[o.name] : o.default;
      if (menu) { for (const c of o.choices) input.add(new Option(String(c), String(c), false, c === value)); }
      else if (o.type === "bool") { input.type = "checkbox"; input.checked = !!value; }
      else if (o.type === "int" || o.type === "float") { input.type = "number"; input.value = value; input.step = o.type === "int" ? "1" : "any"; }
      else { input.type = "text"; input.value = value === null ? "" : value; }
      label.appendChild(input);
      container.appendChild(label);
    }
  }

  function readOptions(container) {
    const out = {};
    for (const input of container.querySelectorAll("[data-option]")) {
      const t = input.dataset.type;
      out[input.dataset.option] = t === "bool" ? input.checked : t === "int" ? parseInt(input.value, 10) : t === "float" ? parseFloat(input.value) : input.value;
    }
    return out;
  }

  // The job box (#job, #job-progress, #job-text): hidden without a job, else its progress (a bar without a value
  // when no fraction is known) and its text.
  function showJob(job) {
    $("job").hidden = !job;
    if (!job) return;
    const p = job.progress || {};
    if (p.fraction === null || p.fraction === undefined) $("job-progress").removeAttribute("value");
    else $("job-progress").value = p.fraction;
    $("job-text").textContent = p.text || job.kind;
  }

  return { $, api, authHeaders, follow, cancel, showError, showJob, download, gameName, gameInfo, optionInputs, readOptions };
})();
