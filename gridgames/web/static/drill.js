// The drill page of any game whose web hooks offer drills: the positions before a game's mistakes, asked again;
// each answer judged and explained. The game comes from the form, a saved game, or the URL (?moves=... or ?pos=...,
// and the game's options by name: &width=5&height=4).
"use strict";
(() => {
  const { $, api, follow, showError, showJob } = GG;
  const HISTORY_KEY = "gridgames-drills";
  const HISTORY_KEEP = 50;
  const name = GG.gameName();
  const base = `/api/drill/${encodeURIComponent(name)}`;
  let info = null, options = {}, positions = [], at = 0, answers = [], waiting = false, drilled = "";

  async function startJob(path, body) {
    for (let attempt = 0; ; attempt++) {
      try { return (await api("POST", path, body)).job; }
      catch (e) {
        const wait = (e.status === 409 && /already has/.test(e.message)) || e.status === 503;
        if (!wait || attempt > 100) throw e;
        await new Promise((r) => setTimeout(r, e.status === 503 ? 300 : 100));
      }
    }
  }

  async function run(path, body) {
    const job = await follow(await startJob(path, body), showJob);
    showJob(null);
    if (job.status !== "done") throw new Error(job.error || `the job ${job.status}`);
    return job.result;
  }

  // The board as the play page draws it (board.js): a click on a legal cell answers.
  function renderBoard(view, active) {
    GGBoard.draw(view, { active, play: answer, offer: () => {}, previous: null, best: null });
  }

  function renderMoves(view, active) {
    const box = $("legal");
    box.innerHTML = "";
    for (const move of view.legal) {
      const b = document.createElement("button");
      b.id = `move-${move}`;
      b.textContent = move;
      b.disabled = !active;
      b.addEventListener("click", () => answer(move));
      box.appendChild(b);
    }
  }

  function show() {
    const pos = positions[at];
    const view = pos.view;
    const who = pos.player || view.players[view.to_move];
    const played = pos.played ? ` (the game's ${pos.played} was a ${pos.grade || "mistake"})` : "";
    $("status").textContent = `Drill ${at + 1} of ${positions.length}: before move ${pos.number || pos.ply + 1}, ${who} to move${played}. Find the best move.`;
    $("verdict").textContent = "";
    $("verdict").className = "";
    $("why").innerHTML = "";
    $("next").hidden = true;
    renderBoard(view, true);
    renderMoves(view, true);
  }

  async function answer(move) {
    if (waiting) return;
    waiting = true;
    const pos = positions[at];
    renderBoard(pos.view, false);
    renderMoves(pos.view, false);
    try {
      const result = await run(`${base}/answer`, { options, moves: pos.view.moves, answer: move });
      answers.push({ number: pos.number || pos.ply + 1, answer: move, right: !!result.right });
      const best = (result.best || []).join(", ");
      const scored = result.score !== undefined && result.score !== null;
      $("verdict").textContent = result.right
        ? `Right: ${move} is best${scored ? ` (score ${fmt(result.score)})` : ""}.`
        : `Not best: ${move}${scored ? ` scores ${fmt(result.score)}` : ""}; the best is ${best}${scored ? ` (${fmt(result.best_score)})` : ""}.`;
      $("verdict").className = result.right ? "right" : "wrong";
      for (const line of result.lines || []) {
        const li = document.createElement("li");
        li.textContent = line;
        $("why").appendChild(li);
      }
      $("next").textContent = at + 1 < positions.length ? "Next position" : "Finish";
      $("next").hidden = false;
    } catch (e) {
      showError(e.message);
      renderBoard(pos.view, true);
      renderMoves(pos.view, true);
    } finally {
      waiting = false;
    }
  }

  function fmt(score) { return score >= 0 ? `+${score}` : `${score}`; } // as the terminal: +0 for a draw

  function finish() {
    $("drill").hidden = true;
    const right = answers.filter((a) => a.right).length;
    $("summary").hidden = false;
    $("summary").textContent = `Drill done: ${right} of ${answers.length} answered best.`;
    $("status").textContent = "";
    const history = loadHistory();
    history.push({ when: new Date().toISOString().slice(0, 19).replace("T", " "), game: name, options, moves: drilled, right, asked: answers.length });
    try { localStorage.setItem(HISTORY_KEY, JSON.stringify(history.slice(-HISTORY_KEEP))); } catch (e) { /* private mode: not kept */ }
    renderHistory();
  }

  function loadHistory() {
    try {
      const found = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
      return Array.isArray(found) ? found : [];
    } catch (e) { return []; }
  }

  function renderHistory() {
    const box = $("history");
    box.innerHTML = "";
    const mine = loadHistory().filter((d) => d.game === name);
    if (!mine.length) { box.innerHTML = "<li>none yet</li>"; return; }
    for (const d of mine.slice().reverse()) {
      const li = document.createElement("li");
      li.textContent = `${d.when}: ${d.right} of ${d.asked} right, ${d.moves}`;
      box.appendChild(li);
    }
  }

  async function start(moves) {
    showError("");
    options = GG.readOptions($("options"));
    drilled = moves;
    $("summary").hidden = true;
    $("drill").hidden = true;
    $("status").textContent = "Reviewing the game...";
    try {
      const result = await run(base, { options, moves });
      positions = result.positions;
      drilled = result.moves;
      at = 0;
      answers = [];
      if (!positions.length) { $("status").textContent = "No mistake to drill in this game."; return; }
      $("drill").hidden = false;
      show();
    } catch (e) { $("status").textContent = ""; showJob(null); showError(e.message); }
  }

  async function init() {
    $("title").textContent = `Drill: ${name}`;
    document.title = `gridgames: drill ${name}`;
    $("play-link").href = `/play/${encodeURIComponent(name)}`;
    info = await GG.gameInfo(name);
    const params = new URLSearchParams(location.search);
    const values = {};
    for (const o of (info ? info.options : [])) {
      if (!params.has(o.name)) continue;
      const v = params.get(o.name);
      values[o.name] = o.type === "bool" ? ["1", "true", "yes"].includes(v) : o.type === "int" ? parseInt(v, 10) : o.type === "float" ? parseFloat(v) : v;
    }
    GG.optionInputs($("options"), info ? info.options : [], values);
    $("start").addEventListener("click", () => start($("moves-text").value.trim()));
    $("next").addEventListener("click", () => { at += 1; if (at < positions.length) show(); else finish(); });
    $("cancel").addEventListener("click", () => GG.cancel());
    $("load-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      event.target.value = "";
      try {
        const saved = JSON.parse(await file.text());
        GG.optionInputs($("options"), info ? info.options : [], saved.options || {});
        $("moves-text").value = saved.moves || "";
        await start(saved.moves || "");
      } catch (e) { showError(`the saved game: ${e.message}`); }
    });
    document.addEventListener("keydown", (event) => { // digits answer (0 is column 10), n or Enter goes on
      const typing = event.target.tagName === "INPUT" || event.target.tagName === "SELECT";
      if (typing || event.ctrlKey || event.metaKey || event.altKey || $("drill").hidden) return;
      if (!$("next").hidden && (event.key === "n" || event.key === "Enter")) { event.preventDefault(); $("next").click(); return; }
      const move = event.key === "0" ? "10" : event.key;
      if ($("next").hidden && /^[0-9]$/.test(event.key) && positions[at].view.legal.includes(move)) answer(move);
    });
    renderHistory();
    const moves = params.get("moves") ?? params.get("pos");
    if (moves !== null) {
      $("moves-text").value = moves;
      await start(moves);
    }
  }

  init().catch((e) => showError(e.message));
})();
