// The play page of any turn-based game, an analysis board: board, column scores, evaluation bar, a move list with
// branches (click or arrow keys to go back and forth), explanation and grades, review graph, shareable URL, seats,
// computer moves, save/load. Drawing is board.js's; whole-piece moves are pieces.js's.
"use strict";
(() => {
  const { $, api, follow, showError, showJob } = GG;
  const name = GG.gameName();
  const base = `/api/play/${encodeURIComponent(name)}`;
  let info = null, view = null, previous = null, running = null, generation = 0;

  // --- the move tree: every line seen in this game; `current` is the server's position ------------------------
  let root = null, current = null;
  const node = (move, parent) => ({ move, parent, children: [], next: null, scores: null });
  function resetTree() { root = current = node(null, null); reviewed = null; }
  function nodeAt(moves) { // the node of a line from the start (made if new), current left as it is
    let n = root;
    for (const m of moves) {
      let child = n.children.find((c) => c.move === m);
      if (!child) { child = node(m, n); n.children.push(child); }
      n = child;
    }
    return n;
  }
  function pathOf(n) { const out = []; for (; n.parent; n = n.parent) out.unshift(n.move); return out; }
  function sync(history) { // walk the tree along the server's history, adding what is new
    let n = root;
    for (const m of history) {
      let child = n.children.find((c) => c.move === m);
      if (!child) { child = node(m, n); n.children.push(child); }
      n.next = child;
      n = child;
    }
    current = n;
  }
  const forwardOf = (n) => n.next || n.children[0] || null;
  function line() { // the path to the current move, then the line it continues into
    const nodes = [];
    for (let n = current; n.parent; n = n.parent) nodes.unshift(n);
    for (let n = forwardOf(current); n; n = forwardOf(n)) nodes.push(n);
    return nodes;
  }

  function setJob(job) { running = job; showJob(job); }

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

  const showScores = () => $("show-scores").checked && view.features.scores;
  // "show scores" is remembered apart for games against the computer (off by default there: the scores would give
  // the answer away) and between humans (on by default: an analysis board).
  let scoresMode = null;
  const scoresKey = (computer) => (computer ? "gridgames-show-scores-computer" : "gridgames-show-scores");
  function syncScoresToggle() {
    const computer = view.seats.some((s) => s !== "human");
    if (computer === scoresMode) return;
    scoresMode = computer;
    const stored = localStorage.getItem(scoresKey(computer));
    $("show-scores").checked = stored === null ? !computer : stored === "1";
  }
  // The scores of the position shown: the server's, else those seen before at this node of the tree.
  function scoresNow() {
    if (view.scores && view.scores.moves === view.moves) return view.scores;
    return current && current.scores;
  }
  function bestMoves(scores) {
    if (!scores || scores.partial || !scores.exact) return [];
    const known = Object.values(scores.scores).filter((s) => s !== null);
    if (!known.length) return [];
    const top = Math.max(...known);
    return Object.keys(scores.scores).filter((m) => scores.scores[m] === top);
  }

  function humanToMove() {
    return view && view.to_move !== null && view.seats[view.to_move] === "human" && !(running && running.kind === "computer");
  }

  // --- the side panel ---------------------------------------------------------------------------------------
  function renderMoves() {
    const box = $("moves");
    box.innerHTML = "";
    const nodes = line();
    if (!nodes.length) { box.textContent = "(no move yet)"; return; }
    const per = Math.max(1, view.players.length); // numbered as turns: "1. 4 4  2. 5 3" (a move number, then each player's)
    nodes.forEach((n, i) => {
      if (i) box.appendChild(document.createTextNode(" "));
      if (i % per === 0) {
        const no = document.createElement("span");
        no.className = "move-no";
        no.textContent = `${i / per + 1}.`;
        box.append(no, " ");
      }
      const b = plyButton(n, n.move, i + 1);
      if (n === current) { b.classList.add("current"); b.setAttribute("aria-current", "step"); }
      else if (!isAncestor(n, current)) b.classList.add("future");
      box.appendChild(b);
      const others = n.parent.children.filter((c) => c !== n);
      if (others.length) { // the other moves tried here: a branch each
        const span = document.createElement("span");
        span.className = "branches";
        span.setAttribute("aria-label", `other moves tried at move ${i + 1}`);
        span.append(" (");
        const turn = `${Math.floor(i / per) + 1}.${i % per ? "\u2026" : ""} `; // "2. 3", or "2.\u2026 3" for a later player's
        others.forEach((o, j) => { if (j) span.append(" "); span.append(turn); span.appendChild(plyButton(o, o.move, i + 1)); });
        span.append(")");
        box.appendChild(span);
      }
    });
    const here = box.querySelector(".current");
    if (here && here.scrollIntoView) here.scrollIntoView({ block: "nearest" });
  }
  function isAncestor(a, n) { for (; n; n = n.parent) if (n === a) return true; return false; }
  function plyButton(n, text, ply) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ply";
    b.textContent = text;
    b.dataset.ply = ply; // the disc's number in the game
    b.setAttribute("aria-label", `move ${ply}: ${view.players[(ply - 1) % view.players.length]} ${text}`);
    b.addEventListener("click", () => goTo(n));
    return b;
  }

  // The grade of the move that led here, from the scores of the position before it (when known).
  function gradeOf(n) {
    const before = n.parent && n.parent.scores;
    if (!before || !before.exact) return null;
    const s = before.scores[n.move], best = Math.max(...Object.values(before.scores).filter((v) => v !== null));
    if (s === undefined || s === null) return null;
    const sign = Math.sign, drop = sign(best) - sign(s);
    const grade = drop === 2 ? "blunder" : drop === 1 ? "mistake" : s === best ? "best" : "inaccuracy";
    const results = { 1: "win", 0: "draw", "-1": "loss" };
    const what = drop > 0 ? `turns the ${results[sign(best)]} into a ${results[sign(s)]}` : s === best ? "the best move"
      : best > 0 ? "a slower win" : "a quicker loss";
    return { grade, text: s === best ? `(${GGBoard.signed(s)})` : `, ${GGBoard.signed(s)} against the best ${GGBoard.signed(best)}: ${what}` };
  }

  function renderExplanation(scores) {
    const box = $("explain");
    box.innerHTML = "";
    const last = current && current.parent ? gradeOf(current) : null;
    if (last) {
      const p = document.createElement("p");
      p.className = `grade ${last.grade}`;
      const mover = view.players[(pathOf(current).length - 1) % view.players.length];
      p.textContent = `Move ${pathOf(current).length} (${mover} ${current.move}): ${last.grade} ${last.text}.`.replace(" ,", ",");
      box.appendChild(p);
    }
    if (view.outcome) { const p = document.createElement("p"); p.textContent = view.outcome.text; box.appendChild(p); }
    else if (!showScores()) { const p = document.createElement("p"); p.className = "muted"; p.textContent = "Tick \u201cshow scores\u201d for the exact scores and their explanation."; box.appendChild(p); }
    else if (scores && scores.explanation) {
      const ul = document.createElement("ul");
      for (const text of scores.explanation) { const li = document.createElement("li"); li.textContent = text; ul.appendChild(li); }
      box.appendChild(ul);
    } else if (scores && scores.note) { const p = document.createElement("p"); p.textContent = scores.note; box.appendChild(p); }
    else { const p = document.createElement("p"); p.className = "muted"; p.textContent = "Solving\u2026"; box.appendChild(p); }
  }

  // The review stays on the page while the game's moves are walked (the server forgets it once the position moves).
  let reviewed = null;
  const sameLine = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);
  function renderReview() {
    const box = $("review-table");
    box.innerHTML = "";
    if (view.review) reviewed = { review: view.review, line: [...view.history] };
    const review = reviewed ? reviewed.review : null;
    GGBoard.graph({ ...view, review }, (ply) => goTo(nodeAt(reviewed.line.slice(0, ply))));
    if (!review) return;
    const accuracy = view.players.map((p, i) => {
      const mine = review.filter((e, j) => j % view.players.length === i && typeof e.value === "number");
      const own = mine.find((e) => typeof e.player_accuracy === "number"); // the game's own formula, when it gives one
      if (own) return `${p} ${own.player_accuracy.toFixed(0)}%`;
      return mine.length ? `${p} ${(100 * mine.reduce((a, e) => a + e.value, 0) / mine.length).toFixed(0)}%` : null;
    }).filter(Boolean);
    if (accuracy.length) { const p = document.createElement("p"); p.textContent = `Accuracy: ${accuracy.join(", ")}`; box.appendChild(p); }
    const table = document.createElement("table");
    table.innerHTML = "<caption>Every move against the best</caption><tr><th>#</th><th>who</th><th>move</th><th>score</th><th>best</th><th>grade</th></tr>";
    const here = pathOf(current).length, onLine = pathOf(current).every((m, i) => m === reviewed.line[i]);
    for (const e of review) {
      const tr = document.createElement("tr");
      if (onLine && e.number === here) tr.setAttribute("aria-current", "step");
      if (e.mark) tr.className = e.mark;
      if (e.grade) tr.classList.add(e.grade);
      for (const v of [e.number, e.player, e.move, e.score ?? "?", e.best ?? "?", e.grade || e.mark || ""]) {
        const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
      }
      table.appendChild(tr);
    }
    box.appendChild(table);
    if (view.features.drill && review.some((e) => e.mark || (e.grade && e.grade !== "best"))) {
      const a = document.createElement("a"); // the drill page: this game's mistakes asked again
      a.id = "drill-link";
      a.href = shareUrl().replace(`/play/${encodeURIComponent(name)}?`, `/drill/${encodeURIComponent(name)}?`);
      a.textContent = "Drill this game's mistakes";
      box.appendChild(a);
    }
  }

  // The page's address for this position: ?pos=MOVES (one character each when every move is one digit, as
  // gamesolver.org's, else separated by commas) and the options that differ from the defaults.
  function shareUrl() {
    const moves = pathOf(current);
    const params = new URLSearchParams();
    params.set("pos", moves.every((m) => /^[1-9]$/.test(m)) ? moves.join("") : moves.join(","));
    for (const o of (info ? info.options : [])) {
      const v = view.options ? view.options[o.name] : undefined;
      if (v !== undefined && v !== o.default) params.set(o.name, String(v));
    }
    return `${location.origin}/play/${encodeURIComponent(name)}?${params.toString().replace(/%2C/g, ",")}`;
  }

  function render(next) {
    previous = view && view.board ? view : previous;
    view = next;
    if (!root) resetTree();
    sync(view.history);
    syncScoresToggle();
    const scores = scoresNow();
    if (view.scores && view.scores.moves === view.moves && !view.scores.partial) current.scores = view.scores;
    showError("");
    $("choices").innerHTML = "";
    const mark = GGBoard.pictured(view) ? "" : ` (${GGBoard.markOf(view, view.to_move)})`; // the picture has its own colours
    const who = view.to_move === null ? null : `${view.players[view.to_move]}${mark}`;
    const computer = view.to_move !== null && view.seats[view.to_move] !== "human";
    const drawn = (view.notes || []).filter((n) => n && n.startsWith("chance: ")); // what chance drew: the game's news
    $("status").textContent = (view.outcome ? view.outcome.text : `${who} to move` + (computer ? ` (${view.seats[view.to_move]})` : ""))
      + (drawn.length ? ` — ${drawn.join(" ")}` : "");
    $("computer-go").hidden = !(view.computer_to_move && !running);
    const n = view.history.length; // for screen readers: the move just played or reached
    $("announce").textContent = n ? `Move ${n}: ${view.players[(n - 1) % view.players.length]} ${view.history[n - 1]}.` : "Start position.";
    const shown = showScores() ? scores : null;
    const best = bestMoves(shown);
    const ctx = { play, offer, active: humanToMove(), scores: shown, show: showScores(), best, previous, hasScores: view.features.scores };
    const onBoard = GGBoard.draw(view, ctx) || new Set();
    GGBoard.columns(view, ctx);
    GGBoard.evalbar(view, ctx);
    moveButtons(onBoard, best);
    renderTally();
    $("pass").hidden = !(view.pass && humanToMove()); // the game's pass, when it is legal (the only move)
    renderMoves();
    $("undo").disabled = !view.can_undo;
    $("redo").disabled = !forwardOf(current) && !view.can_redo;
    $("nav-first").disabled = $("nav-back").disabled = !current.parent;
    $("nav-forward").disabled = $("nav-last").disabled = !forwardOf(current);
    $("scores-toggle").hidden = !view.features.scores;
    const ends = shown && shown.ends ? "; the small number: discs to the end with best play" : "";
    $("score-note").textContent = shown ? `${shown.note || ""}${shown.help ? ` (${shown.help}${ends})` : ""}` : "";
    renderExplanation(shown);
    renderReview();
    $("review").hidden = !(view.features.review && view.outcome) || !!(reviewed && sameLine(reviewed.line, view.history));
    $("share-link").href = shareUrl();
    const digits = view.legal.length > 0 && view.legal.every((m) => /^\d+$/.test(m));
    $("keys").textContent = `Keys: \u2190 \u2192 back and forward, Home/End first and last move, \u2191 \u2193 other branches${digits ? ", digits play a column or move" : ""}, u undoes.`;
    renderEngine();
    renderPanels();
  }

  // Buttons only for the legal moves a click on the board cannot play (a pass has its own button).
  function moveButtons(onBoard, best) {
    const legal = $("legal");
    legal.innerHTML = "";
    const rest = view.legal.filter((m) => !onBoard.has(m) && m !== view.pass);
    legal.hidden = !rest.length;
    if (rest.length > 64 || !humanToMove() || GGBoard.byColumn(view) || view.paths) return; // paths: paths.js
    for (const m of rest) {
      const b = document.createElement("button");
      b.textContent = m; b.dataset.move = m;
      if (best.includes(m)) b.classList.add("best");
      b.addEventListener("click", () => play(m));
      legal.appendChild(b);
    }
  }

  // The game's running counts (State.tally: discs, boxes, captures) under the status line.
  function renderTally() {
    const box = $("tally");
    box.textContent = (view.tally || []).map((t) => t.text).join(" \u00b7 ");
    box.hidden = !box.textContent;
  }

  // The engine's details (depth, nodes, playouts) behind the "Engine" toggle, never in the status line.
  function renderEngine() {
    const notes = (view.notes || []).filter((n) => n && !n.startsWith("chance: ")); // the draws are in the status
    $("engine").hidden = !notes.length;
    $("engine-text").textContent = notes.join(" ");
  }

  // Panels with nothing to show are hidden: explanations need scores, the review a finished game.
  function renderPanels() {
    $("explain-panel").hidden = !view.features.scores;
    $("review-panel").hidden = !view.features.review || !(view.outcome || reviewed); // a review comes after the end
  }

  let sent = 0; // changes sent (act): an answer that comes after a later change was sent is not shown
  async function refresh() {
    const mine = sent;
    const next = await api("GET", base);
    if (mine === sent) render(next);
  }

  // After every change: the computer moves while it is its turn (unless the change was a step in the move list),
  // then the scores are brought up to date.
  async function advance(computerMoves = true) {
    const mine = ++generation;
    try {
      while (computerMoves && view.computer_to_move && mine === generation) {
        $("status").textContent = `${view.players[view.to_move]} (${view.seats[view.to_move]}) is thinking...`;
        const job = await follow(await startJob(`${base}/computer`), setJob);
        setJob(null);
        if (job.status === "failed") throw new Error(job.error);
        if (job.status !== "done" || mine !== generation) return;
        await refresh();
      }
      if (mine === generation && showScores() && !view.outcome && !(scoresNow() && !scoresNow().partial)) {
        const moves = view.moves;
        const job = await follow(await startJob(`${base}/scores`), (j) => {
          setJob(j);
          if (j.partial && j.partial.scores && mine === generation) { // the columns solved so far
            view.scores = { moves, scores: j.partial.scores, note: "solving the other columns...", partial: true };
            render(view);
          }
        });
        setJob(null);
        if (job.status === "failed") throw new Error(job.error);
        if (mine === generation) await refresh();
      }
    } catch (e) { setJob(null); showError(e.message); }
  }

  // Every change goes to the server in the order made (quick key presses included); only the answer to the last
  // one is shown, then the computer moves and the scores come.
  let queue = Promise.resolve();
  function act(call, computerMoves = true) {
    const mine = ++sent;
    generation++; // the computer's moves and scores of the position left stop
    const answer = queue.then(async () => {
      if (running) await GG.cancel();
      setJob(null);
      return call();
    });
    queue = answer.catch(() => {});
    return answer.then((next) => {
      if (mine !== sent) return null;
      render(next);
      return advance(computerMoves);
    }).catch((e) => { if (mine === sent) showError(e.message); });
  }

  function play(move) {
    if (!humanToMove()) return;
    act(() => api("POST", `${base}/move`, { move }));
  }

  function goTo(n) {
    if (!n || n === current) return;
    const moves = pathOf(n);
    current = n; // at once: the next key press goes on from here
    renderMoves();
    act(() => api("POST", `${base}/goto`, { moves }), false);
  }
  function sibling(step) {
    if (!current.parent) return;
    const list = current.parent.children;
    goTo(list[(list.indexOf(current) + step + list.length) % list.length]);
  }
  function last() { let n = current; while (forwardOf(n)) n = forwardOf(n); goTo(n); }

  async function newGame() {
    const seats = view ? view.players.map((_, i) => $(`seat-${i}`).value) : undefined;
    const body = { options: GG.readOptions($("options")), think: parseFloat($("think").value) };
    if (seats) body.seats = seats;
    root = null;
    await act(() => api("POST", `${base}/new`, body));
    seatSelects(view.kinds, view.players, view.seats);
  }

  function bindKeys() {
    document.addEventListener("keydown", (event) => {
      const t = event.target;
      const typing = (t.tagName === "INPUT" && !["checkbox", "radio", "button", "file"].includes(t.type)) || t.tagName === "SELECT" || t.tagName === "TEXTAREA";
      if (typing || event.ctrlKey || event.metaKey || event.altKey || !view) return;
      const keys = {
        ArrowLeft: () => current.parent && goTo(current.parent), ArrowRight: () => goTo(forwardOf(current)),
        Home: () => goTo(root), End: last, ArrowUp: () => sibling(-1), ArrowDown: () => sibling(1),
        u: () => view.can_undo && act(() => api("POST", `${base}/undo`)),
      };
      if (keys[event.key]) { event.preventDefault(); keys[event.key](); return; }
      if (/^[0-9]$/.test(event.key) && view.legal.every((m) => /^\d+$/.test(m))) { // digits: only for games whose moves are numbers
        const move = event.key === "0" ? "10" : event.key;
        if (view.legal.includes(move)) play(move);
      }
    });
  }

  async function init() {
    $("title").textContent = `${name}: analysis board`;
    document.title = `gridgames: ${name}`;
    info = await GG.gameInfo(name);
    GG.optionInputs($("options"), info ? info.options : []);
    $("new-game").addEventListener("click", newGame);
    $("pass").addEventListener("click", () => view && view.pass && play(view.pass));
    $("undo").addEventListener("click", () => act(() => api("POST", `${base}/undo`)));
    $("redo").addEventListener("click", () => (forwardOf(current) ? goTo(forwardOf(current)) : act(() => api("POST", `${base}/redo`))));
    $("nav-first").addEventListener("click", () => goTo(root));
    $("nav-back").addEventListener("click", () => current.parent && goTo(current.parent));
    $("nav-forward").addEventListener("click", () => goTo(forwardOf(current)));
    $("nav-last").addEventListener("click", last);
    $("computer-go").addEventListener("click", () => { $("computer-go").hidden = true; advance(true); });
    $("cancel").addEventListener("click", () => { generation++; GG.cancel(); });
    $("show-scores").addEventListener("change", () => {
      localStorage.setItem(scoresKey(scoresMode), $("show-scores").checked ? "1" : "0");
      render(view);
      if (!running) advance(false);
    });
    $("share").addEventListener("click", async () => {
      const url = shareUrl();
      try { await navigator.clipboard.writeText(url); $("share-note").textContent = "Link copied."; }
      catch (e) { $("share-note").textContent = url; }
    });
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
      root = null;
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
    bindKeys();
    let shared = null;
    try { shared = await openShared(); }
    catch (e) { shared = e; }
    if (shared === null || !view) await act(() => api("POST", `${base}/new`, {})); // every page load is a new session: a new game
    seatSelects(view.kinds, view.players, view.seats);
    if (shared instanceof Error) showError(`The shared position: ${shared.message}`);
    else if (shared) await advance(false);
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
    render(view);
    return true;
  }

  init().catch((e) => showError(e.message));
})();
