// The puzzle page: a preset, options or a pasted board; tiling by hand (hand.js), the first solution, counts with
// progress, paging, downloads. The address keeps the preset and the pieces placed by hand (?preset=3x20&placed=1,2).
"use strict";
(() => {
  const { $, api, follow, showError } = GG;
  const name = GG.gameName();
  const base = `/api/puzzle/${encodeURIComponent(name)}`;
  let info = null, run = null, current = 0, setupKey = null, busy = false, presetOnly = null;

  const setJob = GG.showJob;

  function request() {
    if (presetOnly) return { preset: presetOnly };
    const paste = $("mode-paste").checked;
    if (paste) return { board: $("board-text").value, pieces: $("pieces-text").value, one_sided: $("one-sided").checked };
    return { options: GG.readOptions($("options")) };
  }

  // The puzzle on the server matches the form (a new one when the form changed).
  async function ensureRun() {
    const body = request();
    const key = JSON.stringify(body);
    if (run && key === setupKey) return run;
    run = await api("POST", `${base}/new`, body);
    setupKey = key;
    current = 0;
    GGHand.stop();
    $("describe").textContent = run.describe;
    $("solution").innerHTML = run.board_svg;
    $("solution-text").textContent = "";
    $("count-result").textContent = "";
    updatePager();
    return run;
  }

  function setBusy(on) {
    busy = on;
    for (const id of ["hand-start", "first", "count", "prev", "next", "download-svg", "download-json"]) $(id).disabled = on;
    if (!on) updatePager();
  }

  async function job(path, body) {
    setBusy(true);
    try {
      let started = null;
      await GG.cancel(); // a check of the pieces placed by hand may still run: this job replaces it
      for (let attempt = 0; !started; attempt++) { // a busy server (503) or a job being cancelled (409): wait
        try { started = (await api("POST", path, body)).job; }
        catch (e) { if (![409, 503].includes(e.status) || attempt > 100) throw e; await new Promise((r) => setTimeout(r, 300)); }
      }
      const done = await follow(started, setJob);
      if (done.status === "failed") throw new Error(done.error);
      return done;
    } finally { setJob(null); setBusy(false); }
  }

  // How many solutions there are, when known: all listed, or a finished count of every solution (not up to symmetry).
  function total() {
    if (!run) return null;
    if (run.exhausted) return run.listed;
    const c = run.count;
    return c && !c.partial && !c.unique ? c.count : null;
  }

  function updatePager() {
    const listed = run ? run.listed : 0, all = total();
    const fmt = (n) => n.toLocaleString("en");
    $("page-label").textContent = !listed ? "no solution listed" :
      all !== null ? `solution ${fmt(current)} of ${fmt(all)}` : `solution ${fmt(current)} (${fmt(listed)} listed so far; Next lists more)`;
    $("prev").disabled = current <= 1;
    $("next").disabled = !run || (all !== null ? current >= all : current >= listed && run.exhausted);
    $("download-svg").disabled = current < 1;
    $("download-json").disabled = !listed;
    $("first").disabled = $("count").disabled = $("hand-start").disabled = false;
  }

  async function show(number) {
    const s = await api("GET", `${base}/solution/${number}`);
    current = number;
    $("solution").innerHTML = s.svg;
    $("solution-text").textContent = s.text;
    updatePager();
  }

  async function more(n) {
    const done = await job(`${base}/list`, { n });
    run = await api("GET", base);
    return done;
  }

  async function guarded(fn) {
    if (busy) return;
    showError("");
    try { await fn(); } catch (e) { showError(e.message); }
  }

  async function init() {
    $("title").textContent = `Solve ${name}`;
    document.title = `gridgames: ${name}`;
    info = await GG.gameInfo(name);
    GG.optionInputs($("options"), info ? info.options : []);
    if (info && info.presets && info.presets.length) {
      $("preset-box").hidden = false;
      $("preset").add(new Option("(choose)", ""));
      for (const p of info.presets) $("preset").add(new Option(p.name, p.name));
      $("preset").addEventListener("change", () => {
        const p = info.presets.find((x) => x.name === $("preset").value);
        presetOnly = p && !p.options ? p.name : null; // a preset the options cannot express (a lattice board)
        $("setup").classList.toggle("preset-only", !!presetOnly); // the options do not apply: hidden
        if (!p) return;
        if (p.options) GG.optionInputs($("options"), info.options, p.options);
        $("board-text").value = p.board_text || "";
        $("preset-note").textContent = p.description;
      });
    }
    if (info && info.hooks.includes("puzzle_from_text")) {
      $("mode-box").hidden = false;
      for (const radio of document.querySelectorAll("input[name=mode]")) {
        radio.addEventListener("change", () => { $("paste").hidden = !$("mode-paste").checked; $("options").hidden = $("mode-paste").checked; });
      }
    }
    $("first").addEventListener("click", () => guarded(async () => {
      await ensureRun();
      if (run.listed < 1) await more(1);
      if (run.listed < 1) { $("count-result").textContent = "This puzzle has no solution."; updatePager(); return; }
      await show(1);
    }));
    $("count").addEventListener("click", () => guarded(async () => {
      await ensureRun();
      const unique = $("unique").checked;
      const done = await job(`${base}/count`, { unique });
      const r = done.result;
      if (r) run.count = r;
      updatePager();
      if (!r) { $("count-result").textContent = `Count ${done.status}: ${(done.progress.found ?? 0).toLocaleString("en")} found so far.`; return; }
      $("count-result").textContent = `${r.partial ? "At least " : ""}${r.count.toLocaleString("en")} solution${r.count === 1 ? "" : "s"}` +
        `${r.unique ? " up to symmetry" : ""}${r.partial ? ` (partial: ${r.stopped || "stopped"})` : ""} in ${r.seconds} s.`;
      $("count-result").dataset.count = r.count;
    }));
    $("cancel").addEventListener("click", () => GG.cancel());
    $("hand-start").addEventListener("click", () => guarded(() => startHand([])));
    for (const input of ["options", "paste"]) $(input).addEventListener("input", () => { presetOnly = null; });
    $("prev").addEventListener("click", () => guarded(() => show(current - 1)));
    $("next").addEventListener("click", () => guarded(async () => {
      await ensureRun();
      if (current >= run.listed) await more(20);
      if (current < run.listed) await show(current + 1);
      else updatePager();
    }));
    $("download-svg").addEventListener("click", () => guarded(async () => {
      GG.download(`${name}-${current}.svg`, await api("GET", `${base}/solution/${current}.svg`), "image/svg+xml");
    }));
    $("download-json").addEventListener("click", () => guarded(async () => {
      GG.download(`${name}-solutions.json`, await api("GET", `${base}/solutions.json`), "application/json");
    }));
    updatePager();
    const query = new URLSearchParams(location.search);
    const wanted = query.get("preset");
    if (wanted && info && info.presets && info.presets.some((p) => p.name === wanted)) {
      $("preset").value = wanted;
      $("preset").dispatchEvent(new Event("change"));
      if (query.has("placed")) {
        const placed = query.get("placed").split(",").filter(Boolean).map(Number);
        await guarded(() => startHand(placed));
      }
    }
  }

  // The address: the preset chosen and the pieces placed by hand, so that a reload or a shared link shows them.
  function remember(placed) {
    const query = new URLSearchParams(location.search);
    const preset = $("preset").value;
    if (preset) query.set("preset", preset); else query.delete("preset");
    query.set("placed", placed.join(","));
    history.replaceState(null, "", `${location.pathname}?${query}`);
  }

  async function startHand(placed) {
    await ensureRun();
    try { await GGHand.start(base, placed, remember); }
    catch (e) { // a game without the hand hooks: the button goes, the message stays
      if (e.status === 404 && /tiling by hand/.test(e.message)) { $("hand-start").hidden = true; }
      throw e;
    }
    $("hand-board").focus();
  }

  init().catch((e) => showError(e.message));
})();
