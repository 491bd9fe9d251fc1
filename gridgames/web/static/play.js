// The play page of any turn-based game: board, seats, moves, undo/redo, computer moves, scores, review, save/load.
"use strict";
(() => {
  const { $, api, follow, showError, showJob } = GG;
  const MARKS = ["\u2715", "\u25ef", "\u25b3", "\u25a1", "\u2606", "\u25c7"]; // a mark per player as well as a colour
  const name = GG.gameName();
  const base = `/api/play/${encodeURIComponent(name)}`;
  let info = null, view = null, previous = null, running = null, generation = 0;

  function setJob(job) {
    running = job;
    showJob(job);
  }

  async function startJob(path) {
    for (let attempt = 0; ; attempt++) {
      try { return (await api("POST", path)).job; }
      catch (e) {
        const wait = (e.status === 409 && /already has/.test(e.message)) || e.status === 503; // our last job stopping, or a busy server
        if (!wait || attempt > 100) throw e;
        await new Promise((r) => setTimeout(r, e.status === 503 ? 300 : 100));
      }
    }
  }

  function seatSelects(kinds, players, seats) {
    const box = $("seats");
    box.innerHTML = "";
    players.forEach((player, i) => {
      const label = document.createElement("label");
      label.textContent = `${player} `;
      const select = document.createElement("select");
      select.id = `seat-${i}`;
      for (const k of kinds) select.add(new Option(k, k, false, k === seats[i]));
      label.appendChild(select);
      box.appendChild(label);
    });
  }

  function columnOf(cells) {
    const cols = new Set(cells.map((c) => c[1]));
    return cols.size === 1 ? [...cols][0] : null;
  }

  function renderBoard() {
    const box = $("board");
    box.innerHTML = "";
    const cellMoves = {};
    for (const [move, cells] of Object.entries(view.targets)) {
      for (const [r, c] of cells) (cellMoves[`${r},${c}`] ||= []).push(move);
    }
    if (!view.board) { // no grid: the game's own picture
      if (view.svg) box.innerHTML = view.svg;
      else { const pre = document.createElement("pre"); pre.textContent = view.text; box.appendChild(pre); }
      return;
    }
    if ((view.board.lattice || "square") !== "square" && view.svg) { renderSvgBoard(box, cellMoves); return; }
    const { rows, cols, cells } = view.board;
    const grid = document.createElement("div");
    grid.className = "board" + (!view.pieces && (name === "connect4" || Object.values(view.targets).every((c) => c.length === rows)) ? "" : " plain");
    grid.style.gridTemplateColumns = `repeat(${cols}, 52px)`;
    grid.setAttribute("role", "grid");
    const win = new Set((view.outcome ? view.outcome.cells : []).map(([r, c]) => `${r},${c}`));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const v = cells[r][c];
        const div = document.createElement("div");
        div.className = "cell";
        div.dataset.row = r; div.dataset.col = c;
        if (v < 0) div.classList.add("hole");
        if (v > 0) {
          const style = view.styles ? view.styles[v - 1] : v - 1;
          div.classList.add(`p${style}`);
          div.textContent = MARKS[style % MARKS.length];
          div.setAttribute("aria-label", view.players[v - 1]);
          if (previous && previous.board && previous.board.cells[r] && previous.board.cells[r][c] === 0 && previous.moves !== view.moves) div.classList.add("last");
        }
        if (win.has(`${r},${c}`)) div.classList.add("win");
        const moves = cellMoves[`${r},${c}`];
        if (moves && humanToMove()) {
          div.classList.add("target");
          div.title = moves.length === 1 ? `play ${moves[0]}` : `moves: ${moves.join(", ")}`;
          div.addEventListener("click", () => (moves.length === 1 ? play(moves[0]) : offer(moves)));
        }
        grid.appendChild(div);
      }
    }
    box.appendChild(grid);
    if (view.pieces) GGPieces.attach(grid, view, { play, active: humanToMove() }); // whole-piece moves: pieces.js
    else GGPieces.detach();
  }

  // A hexagonal or triangular board: the state's SVG, its cells (data-row/data-col) and marked moves (data-move) clickable.
  function renderSvgBoard(box, cellMoves) {
    box.innerHTML = view.svg;
    const svg = box.querySelector("svg");
    if (!svg) return;
    svg.classList.add("svg-board");
    svg.setAttribute("role", "grid");
    const win = new Set((view.outcome ? view.outcome.cells : []).map(([r, c]) => `${r},${c}`));
    const legal = new Set(view.legal);
    const clickable = (el, moves) => {
      el.classList.add("target");
      const label = moves.length === 1 ? `play ${moves[0]}` : `moves: ${moves.join(", ")}`;
      const tip = document.createElementNS(svg.namespaceURI, "title");
      tip.textContent = label;
      el.appendChild(tip);
      el.addEventListener("click", () => (moves.length === 1 ? play(moves[0]) : offer(moves)));
    };
    for (const el of svg.querySelectorAll("[data-row][data-col]")) {
      const key = `${el.dataset.row},${el.dataset.col}`;
      el.classList.add("svg-cell");
      if (win.has(key)) el.classList.add("win");
      const moves = cellMoves[key];
      if (moves && humanToMove()) clickable(el, moves);
    }
    for (const el of svg.querySelectorAll("[data-move]")) {
      if (legal.has(el.dataset.move) && humanToMove()) clickable(el, [el.dataset.move]);
    }
  }

  function offer(moves) {
    const box = $("choices");
    box.innerHTML = "Which move? ";
    for (const m of moves) {
      const b = document.createElement("button");
      b.textContent = m;
      b.addEventListener("click", () => { box.innerHTML = ""; play(m); });
      box.appendChild(b);
    }
  }

  function scoreClass(s, best) {
    return (s > 0 ? "score-win" : s < 0 ? "score-loss" : "score-draw") + (s === best ? " score-best" : "");
  }

  function renderScores() {
    const row = $("scores"), note = $("score-note");
    row.innerHTML = ""; note.textContent = "";
    const show = $("show-scores").checked && view.scores && view.scores.moves === view.moves;
    if (!show) return;
    const scores = view.scores.scores;
    const known = Object.values(scores).filter((s) => s !== null);
    const best = known.length ? Math.max(...known) : null;
    const byColumn = view.board && view.legal.every((m) => view.targets[m] && columnOf(view.targets[m]) !== null);
    if (byColumn) {
      row.style.gridTemplateColumns = `repeat(${view.board.cols}, 52px)`;
      const at = {};
      for (const m of view.legal) at[columnOf(view.targets[m])] = [m, m in scores ? scores[m] : undefined];
      for (let c = 0; c < view.board.cols; c++) {
        const d = document.createElement("div");
        d.id = `score-${c + 1}`;
        if (at[c]) {
          const s = at[c][1];
          d.textContent = s === undefined ? "\u2026" : s === null ? "?" : s > 0 ? `+${s}` : `${s}`; // \u2026: still solving
          if (s !== null) d.className = scoreClass(s, best);
          d.title = `move ${at[c][0]}`;
        }
        row.appendChild(d);
      }
    } else {
      row.style.gridTemplateColumns = "";
      row.textContent = Object.entries(scores).map(([m, s]) => `${m}: ${s === null ? "?" : s}`).join("  ");
    }
    note.textContent = `${view.scores.note || ""}${view.scores.help ? " (" + view.scores.help + ")" : ""}`;
  }

  function renderReview() {
    const box = $("review-table");
    box.innerHTML = "";
    if (!view.review) return;
    const table = document.createElement("table");
    table.innerHTML = "<tr><th>#</th><th>player</th><th>move</th><th>score</th><th>best</th><th>mark</th></tr>";
    for (const e of view.review) {
      const tr = document.createElement("tr");
      if (e.mark) tr.className = e.mark;
      for (const v of [e.number, e.player, e.move, e.score ?? "?", e.best ?? "?", e.mark || ""]) {
        const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
      }
      table.appendChild(tr);
    }
    box.appendChild(table);
  }

  function humanToMove() {
    return view && view.to_move !== null && view.seats[view.to_move] === "human" && !(running && running.kind === "computer");
  }

  function render(next) {
    previous = view && view.board ? view : previous;
    view = next;
    showError("");
    $("choices").innerHTML = "";
    const who = view.to_move === null ? null : `${view.players[view.to_move]} (${MARKS[(view.styles ? view.styles[view.to_move] : view.to_move) % MARKS.length]})`;
    $("status").textContent = view.outcome ? view.outcome.text : `${who} to move` + (view.seats[view.to_move] !== "human" ? ` (${view.seats[view.to_move]})` : "");
    renderBoard();
    const legal = $("legal");
    legal.innerHTML = "";
    if (view.legal.length <= 64 && humanToMove()) {
      for (const m of view.legal) {
        const b = document.createElement("button");
        b.textContent = m; b.dataset.move = m;
        b.addEventListener("click", () => play(m));
        legal.appendChild(b);
      }
    }
    $("pass").hidden = !(view.pass && humanToMove()); // the game's pass, when it is legal (the only move)
    $("moves").textContent = view.history.map((m, i) => `${i + 1}.${m}`).join(" ") || "(no move yet)";
    $("undo").disabled = !view.can_undo;
    $("redo").disabled = !view.can_redo;
    $("scores-toggle").hidden = !view.features.scores;
    $("review").hidden = !(view.features.review && view.outcome);
    renderScores();
    renderReview();
    (view.notes || []).forEach((n) => n && ($("status").textContent += ` (${n})`));
  }

  async function refresh() { render(await api("GET", base)); }

  // After every change: the computer moves while it is its turn, then the scores are brought up to date.
  async function advance() {
    const mine = ++generation;
    try {
      while (view.computer_to_move && mine === generation) {
        $("status").textContent = `${view.players[view.to_move]} (${view.seats[view.to_move]}) is thinking...`;
        const job = await follow(await startJob(`${base}/computer`), setJob);
        setJob(null);
        if (job.status === "failed") throw new Error(job.error);
        if (job.status !== "done" || mine !== generation) return;
        await refresh();
      }
      if (mine === generation && $("show-scores").checked && view.features.scores && !view.outcome && !(view.scores && view.scores.moves === view.moves && !view.scores.partial)) {
        const job = await follow(await startJob(`${base}/scores`), (j) => {
          setJob(j);
          if (j.partial && j.partial.scores && mine === generation) { // the columns solved so far
            view.scores = { moves: view.moves, scores: j.partial.scores, note: "solving the other columns...", partial: true };
            renderScores();
          }
        });
        setJob(null);
        if (job.status === "failed") throw new Error(job.error);
        if (mine === generation) await refresh();
      }
    } catch (e) { setJob(null); showError(e.message); }
  }

  async function act(call) {
    generation++;
    if (running) await GG.cancel();
    setJob(null);
    try { render(await call()); await advance(); }
    catch (e) { showError(e.message); }
  }

  function play(move) {
    if (!humanToMove()) return;
    act(() => api("POST", `${base}/move`, { move }));
  }

  async function newGame() {
    const seats = view ? view.players.map((_, i) => $(`seat-${i}`).value) : undefined;
    const body = { options: GG.readOptions($("options")), think: parseFloat($("think").value) };
    if (seats) body.seats = seats;
    await act(() => api("POST", `${base}/new`, body));
    seatSelects(view.kinds, view.players, view.seats);
  }

  async function init() {
    $("title").textContent = `Play ${name}`;
    document.title = `gridgames: ${name}`;
    info = await GG.gameInfo(name);
    GG.optionInputs($("options"), info ? info.options : []);
    $("new-game").addEventListener("click", newGame);
    $("pass").addEventListener("click", () => view && view.pass && play(view.pass));
    $("undo").addEventListener("click", () => act(() => api("POST", `${base}/undo`)));
    $("redo").addEventListener("click", () => act(() => api("POST", `${base}/redo`)));
    $("cancel").addEventListener("click", () => { generation++; GG.cancel(); });
    $("show-scores").addEventListener("change", () => { renderScores(); if (!running) advance(); });
    $("review").addEventListener("click", async () => {
      try {
        const job = await follow(await startJob(`${base}/review`), setJob);
        setJob(null);
        if (job.status === "failed") throw new Error(job.error);
        await refresh();
      } catch (e) { setJob(null); showError(e.message); }
    });
    $("save").addEventListener("click", async () => {
      try { GG.download(`${name}-game.json`, await api("GET", `${base}/save`), "application/json"); }
      catch (e) { showError(e.message); }
    });
    $("load-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      const text = await file.text();
      event.target.value = "";
      await act(() => api("POST", `${base}/load`, { text }));
      seatSelects(view.kinds, view.players, view.seats);
      GG.optionInputs($("options"), info ? info.options : [], view.options);
    });
    $("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("move-text").value.trim();
      if (!text) return;
      $("move-text").value = "";
      act(() => api("POST", `${base}/move`, { move: text }));
    });
    document.addEventListener("keydown", (event) => {
      const typing = (event.target.tagName === "INPUT" && !["checkbox", "radio", "button"].includes(event.target.type)) || event.target.tagName === "SELECT";
      if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
      if (/^[0-9]$/.test(event.key) && view) {
        const move = event.key === "0" ? "10" : event.key;
        if (view.legal.includes(move)) play(move);
      } else if (event.key === "u" && view && view.can_undo) {
        act(() => api("POST", `${base}/undo`));
      }
    });
    let shared = null;
    try { shared = await openShared(); }
    catch (e) { shared = e; }
    if (shared === null || !view) await act(() => api("POST", `${base}/new`, {})); // every page load is a new session: a new game
    seatSelects(view.kinds, view.players, view.seats);
    if (shared instanceof Error) showError(`The shared position: ${shared.message}`);
    else if (shared) await advance();
  }

  // A shared position: ?pos=MOVES (moves separated by commas, or one character each as gamesolver.org's digits)
  // and the game's options by name (&width=5&height=4). The page plays it between two humans and shows its
  // scores; true when the URL had one (an Error when a move was refused: the position reached is shown).
  async function openShared() {
    const params = new URLSearchParams(location.search);
    const pos = params.get("pos");
    if (pos === null) return null;
    const options = {};
    for (const o of (info ? info.options : [])) {
      if (!params.has(o.name)) continue;
      const v = params.get(o.name);
      options[o.name] = o.type === "bool" ? ["1", "true", "yes"].includes(v) : o.type === "int" ? parseInt(v, 10) : o.type === "float" ? parseFloat(v) : v;
    }
    render(await api("POST", `${base}/new`, { options }));
    render(await api("POST", `${base}/new`, { options, seats: view.players.map(() => "human") }));
    GG.optionInputs($("options"), info ? info.options : [], view.options);
    const moves = (pos.includes(",") ? pos.split(",") : [...pos]).map((m) => m.trim()).filter(Boolean);
    for (const [i, move] of moves.entries()) {
      try { render(await api("POST", `${base}/move`, { move })); }
      catch (e) { return new Error(`move ${i + 1} (${move}): ${e.message}`); }
    }
    if (view.features.scores) $("show-scores").checked = true;
    return true;
  }

  init().catch((e) => showError(e.message));
})();
