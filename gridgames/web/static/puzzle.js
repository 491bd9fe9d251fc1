// The puzzle page: a preset, options or a pasted board; the first solution, counts with progress, paging, downloads.
"use strict";
(() => {
  const { $, api, follow, showError } = GG;
  const name = GG.gameName();
  const base = `/api/puzzle/${encodeURIComponent(name)}`;
  let info = null, run = null, current = 0, setupKey = null, busy = false;

  const setJob = GG.showJob;

  function request() {
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
    $("describe").textContent = run.describe;
    $("solution").innerHTML = run.board_svg;
    $("count-result").textContent = "";
    updatePager();
    return run;
  }

  function setBusy(on) {
    busy = on;
    for (const id of ["first", "count", "prev", "next", "download-svg", "download-json"]) $(id).disabled = on;
    if (!on) updatePager();
  }

  async function job(path, body) {
    setBusy(true);
    try {
      let started = null;
      for (let attempt = 0; !started; attempt++) { // a busy server (503): wait for a free place
        try { started = (await api("POST", path, body)).job; }
        catch (e) { if (e.status !== 503 || attempt > 100) throw e; await new Promise((r) => setTimeout(r, 300)); }
      }
      const done = await follow(started, setJob);
      if (done.status === "failed") throw new Error(done.error);
      return done;
    } finally { setJob(null); setBusy(false); }
  }

  function updatePager() {
    const listed = run ? run.listed : 0;
    $("page-label").textContent = listed ? `solution ${current} of ${listed}${run.exhausted ? "" : "+"} listed` : "no solution listed";
    $("prev").disabled = current <= 1;
    $("next").disabled = !run || (current >= listed && run.exhausted);
    $("download-svg").disabled = current < 1;
    $("download-json").disabled = !listed;
    $("first").disabled = $("count").disabled = false;
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
        if (!p) return;
        GG.optionInputs($("options"), info.options, p.options);
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
      if (!r) { $("count-result").textContent = `Count ${done.status}: ${(done.progress.found ?? 0).toLocaleString("en")} found so far.`; return; }
      $("count-result").textContent = `${r.partial ? "At least " : ""}${r.count.toLocaleString("en")} solution${r.count === 1 ? "" : "s"}` +
        `${r.unique ? " up to symmetry" : ""}${r.partial ? ` (partial: ${r.stopped || "stopped"})` : ""} in ${r.seconds} s.`;
      $("count-result").dataset.count = r.count;
    }));
    $("cancel").addEventListener("click", () => GG.cancel());
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
  }

  init().catch((e) => showError(e.message));
})();
