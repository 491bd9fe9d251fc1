// Tiling by hand on the puzzle page, with the solver beside you (API: GET .../hand, POST .../hand/check, .../hint).
// Pick a piece, turn it (buttons or keys), place it by clicking, dragging or the keyboard (arrows move the cursor,
// Enter places); after each change the server says whether the board can still be completed and in how many ways,
// which cells no piece in hand can cover, and on request one more piece of a completion.
"use strict";
const GGHand = (() => {
  const { $, api, follow } = GG;
  let base = null, layout = null, placed = [], chosen = null, orientation = 0, cursor = null, hover = null;
  let hint = null, result = null, dragging = false, seq = 0, byHandle = new Map(), owner = [], onChange = null, names = [];
  let quiet = false; // no preview just after a placement, until the pointer or the cursor moves

  const pieceOf = (n) => layout.placements[n][0];
  const cellsOf = (n) => layout.placements[n][2];
  const isCube = () => layout.lattice === "cubic";

  const describeCell = (i) => names[i];
  // A box's layers one under another when side by side they would be drawn too small to touch.
  const stacked = () => isCube() && $("hand-board").clientWidth < GGLattice.geometry("cubic", layout.cells, 26).width;
  // A long square board (3x20) turned a quarter on a narrow screen, so that its cells stay big enough to touch.
  let turned = false;
  function turn(cells) {
    if (!turned) return cells;
    const bottom = Math.max(...layout.cells.map((p) => p[0]));
    return cells.map(([r, c]) => [c, bottom - r]);
  }
  function chooseTurn() {
    const rows = layout.cells.map((p) => p[0]), cols = layout.cells.map((p) => p[1]);
    const wide = (Math.max(...cols) - Math.min(...cols) + 1) / (Math.max(...rows) - Math.min(...rows) + 1);
    const was = turned;
    turned = layout.lattice === "square" && wide >= 2.5 && $("hand-board").clientWidth < 560;
    if (turned !== was || !names.length) names = GGLattice.names(layout.lattice, turn(layout.cells));
    return turned !== was;
  }

  function left(piece) { return layout.pieces[piece].count - placed.filter((n) => pieceOf(n) === piece).length; }

  function index() {
    byHandle = new Map();
    layout.placements.forEach(([p, o, cells], n) => byHandle.set(`${p}/${o}/${cells[0]}`, n));
  }

  // The placement the chosen piece would take with its first cell (top left) on cell ``at``, or null.
  function candidate(at) {
    if (chosen === null || at === null || at === undefined) return null;
    const n = byHandle.get(`${chosen}/${orientation}/${at}`);
    return n === undefined ? null : n;
  }

  function fits(n) { return n !== null && left(pieceOf(n)) > 0 && cellsOf(n).every((c) => owner[c] === null); }

  function computeOwners() {
    owner = layout.cells.map(() => null);
    placed.forEach((n, k) => { for (const c of cellsOf(n)) owner[c] = k; });
  }

  function drawBoard() {
    const box = $("hand-board");
    const at = hover !== null ? hover : cursor;
    const n = quiet ? null : candidate(at);
    const preview = new Set(n !== null ? cellsOf(n) : []);
    const ok = fits(n);
    const hinted = new Set(hint !== null ? cellsOf(hint) : []);
    const dead = new Set(result && result.dead ? result.dead : []);
    const labelAt = new Map(); // one label per placed piece (its middle cell); every cell of a box's pieces
    placed.forEach((m) => {
      const cells = cellsOf(m);
      if (isCube()) for (const c of cells) labelAt.set(c, layout.pieces[pieceOf(m)].name);
      else labelAt.set(cells[Math.floor(cells.length / 2)], layout.pieces[pieceOf(m)].name);
    });
    box.innerHTML = GGLattice.svg(layout.lattice, turn(layout.cells), {
      size: isCube() ? 30 : 34,
      stack: stacked(),
      title: `${layout.lattice} board, ${placed.length} pieces placed`,
      fill: (i) => (owner[i] !== null ? GGLattice.colour(pieceOf(placed[owner[i]])) : null),
      cls: (i) => [owner[i] !== null ? "covered" : "empty", preview.has(i) ? (ok ? "pv-ok" : "pv-bad") : "",
        hinted.has(i) ? "hinted" : "", dead.has(i) ? "dead" : "", i === cursor ? "cursor" : ""].join(" "),
      label: (i) => (dead.has(i) ? "\u2715" : labelAt.get(i) || ""),
    });
    const note = $("hand-note");
    if (chosen === null) note.textContent = "";
    else if (at === null || quiet) note.textContent = `${layout.pieces[chosen].name}: point at a cell, or use the arrow keys`;
    else if (n === null) note.textContent = `${layout.pieces[chosen].name} does not fit with its first cell at ${describeCell(at)}`;
    else note.textContent = `${layout.pieces[chosen].name} at ${describeCell(at)}${ok ? "" : " overlaps a piece"}`;
    $("hand-cursor").textContent = cursor === null ? "" :
      `${describeCell(cursor)}: ${owner[cursor] !== null ? `covered by ${layout.pieces[pieceOf(placed[owner[cursor]])].name}` : "empty"}`;
  }

  function drawShape(cells, piece) {
    const shown = turned ? (() => { const t = turn(cells), r0 = Math.min(...t.map((p) => p[0])), c0 = Math.min(...t.map((p) => p[1]));
      return t.map(([r, c]) => [r - r0, c - c0]); })() : cells;
    return GGLattice.svg(layout.lattice, shown, { size: isCube() ? 9 : 12, svgClass: "shape", captions: false, fill: () => GGLattice.colour(piece), attrs: ' aria-hidden="true"' });
  }

  function drawPicker() {
    const row = $("hand-pieces");
    row.innerHTML = "";
    layout.pieces.forEach((piece, i) => {
      const b = document.createElement("button");
      const n = left(i);
      b.type = "button";
      b.className = "hand-piece" + (i === chosen ? " chosen" : "");
      b.dataset.piece = piece.name;
      b.setAttribute("aria-pressed", String(i === chosen));
      b.setAttribute("aria-label", `${piece.name}, ${n} left`);
      b.disabled = n <= 0;
      b.innerHTML = `${drawShape(piece.orientations[i === chosen ? orientation : 0], i)}<span>${piece.name}${piece.count > 1 ? ` \u00d7${n}` : ""}</span>`;
      b.addEventListener("click", () => choose(i));
      b.addEventListener("pointerdown", (e) => { if (n > 0) { choose(i); dragging = true; e.preventDefault(); } });
      row.appendChild(b);
    });
    const tools = $("hand-transforms");
    tools.innerHTML = "";
    for (const t of layout.transforms) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = `hand-${t.name.toLowerCase()}`;
      b.textContent = `${t.name} (${t.key})`;
      b.title = t.title;
      b.disabled = chosen === null || t.maps[chosen][orientation] < 0 || t.maps[chosen][orientation] === orientation;
      b.addEventListener("click", () => transform(t));
      tools.appendChild(b);
    }
    $("hand-orientation").textContent = chosen === null ? "no piece chosen" :
      `${layout.pieces[chosen].name}: orientation ${orientation + 1} of ${layout.pieces[chosen].orientations.length}`;
    $("hand-undo").disabled = placed.length === 0;
    $("hand-clear").disabled = placed.length === 0;
    $("hand-hint").disabled = !!(result && (result.solved || result.completable === false));
  }

  // The board in words: each piece placed and its cells, then how many cells are free (a text alternative).
  function drawText() {
    const list = $("hand-list");
    list.innerHTML = "";
    for (const n of placed) {
      const item = document.createElement("li");
      item.textContent = `${layout.pieces[pieceOf(n)].name}: ${cellsOf(n).map(describeCell).join("; ")}`;
      list.appendChild(item);
    }
    const free = owner.filter((o) => o === null).length;
    $("hand-free").textContent = `${placed.length} piece${placed.length === 1 ? "" : "s"} placed, ${free} of ${layout.cells.length} cells free.`;
  }

  function draw() { computeOwners(); drawPicker(); drawBoard(); drawText(); }

  function choose(i) {
    if (i === null || left(i) <= 0) return;
    quiet = false;
    if (chosen !== i) orientation = 0;
    chosen = i;
    draw();
  }

  function transform(t) {
    if (chosen === null) return;
    const next = t.maps[chosen][orientation];
    if (next < 0) return;
    orientation = next;
    draw();
  }

  function place(at, dropped = false) {
    const n = candidate(at);
    if (n === null || !fits(n)) {
      if (!dropped && at !== null && owner[at] !== null) pickUp(owner[at]); // a click on a placed piece takes it back
      else drawBoard();
      return false;
    }
    placed.push(n);
    hint = null;
    quiet = true;
    if (left(chosen) <= 0) { // the next piece in hand, if any
      const next = layout.pieces.findIndex((_, i) => left(i) > 0);
      chosen = next >= 0 ? next : null;
      orientation = 0;
    }
    changed();
    return true;
  }

  // Take the k-th placed piece back into hand, chosen in the orientation it had.
  function pickUp(k) {
    const [n] = placed.splice(k, 1);
    chosen = pieceOf(n);
    orientation = layout.placements[n][1];
    hint = null;
    quiet = true;
    changed();
  }

  function undo() {
    if (!placed.length) return;
    const n = placed.pop();
    chosen = pieceOf(n);
    orientation = layout.placements[n][1];
    hint = null;
    changed();
  }

  function clear() { placed = []; hint = null; changed(); }

  function changed() {
    result = null;
    draw();
    if (onChange) onChange(placed);
    check();
  }

  function status(text, data) {
    const box = $("hand-status");
    box.textContent = text;
    for (const key of ["count", "partial", "dead", "solved"]) delete box.dataset[key];
    Object.assign(box.dataset, data || {});
    $("hand").classList.toggle("solved", !!(data && data.solved === "true"));
  }

  // A check's progress shows in the status line (the page's job bar is the solver's: no jump in the layout).
  function progress(job) {
    const p = job.progress || {};
    if (job.status === "running" && p.text) $("hand-status").textContent = `Checking\u2026 ${p.text}`;
  }

  // One job at a time per page: a newer request cancels the older one.
  async function runJob(path, body) {
    await GG.cancel();
    for (let attempt = 0; ; attempt++) {
      try { return await follow((await api("POST", path, body)).job, progress); }
      catch (e) {
        if (![409, 503].includes(e.status) || attempt > 60) throw e;
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  }

  async function check() {
    const mine = ++seq;
    status("Checking\u2026", {});
    let done;
    try { done = await runJob(`${base}/hand/check`, { placed }); }
    catch (e) { if (mine === seq) status(`Check failed: ${e.message}`, {}); return; }
    if (mine !== seq) return;
    result = done.result || null;
    if (!result) { status(`Check ${done.status}: another job took its place. Change the board, or ask for a hint, to check again.`, {}); return; }
    const fmt = (n) => n.toLocaleString("en");
    if (result.solved) status("Solved! Every cell is covered and the tiling checks out.", { solved: "true", count: "1" });
    else if (result.placed === placed.length && result.dead && result.dead.length) {
      const where = result.dead.slice(0, 3).map(describeCell).join("; ");
      status(`Cannot be completed: ${result.dead.length === 1 ? "the cell at" : `${result.dead.length} cells, e.g. at`} ${where} ` +
        `${result.dead.length === 1 ? "is" : "are"} out of reach of every piece in hand (marked \u2715). Undo a piece.`,
      { count: "0", partial: "false", dead: String(result.dead.length) });
    } else if (result.partial) {
      status(result.count ? `Can still be completed in at least ${fmt(result.count)} ways (the solver stopped after ${result.seconds} s).` :
        "Not decided: the solver found no completion within its time.", { count: String(result.count), partial: "true", dead: "0" });
    } else if (result.count) {
      status(`Can still be completed in ${fmt(result.count)} way${result.count === 1 ? "" : "s"}.`, { count: String(result.count), partial: "false", dead: "0" });
    } else status("Cannot be completed: the pieces in hand cannot fill the empty cells. Undo a piece.", { count: "0", partial: "false", dead: "0" });
    draw();
  }

  async function askHint() {
    const mine = ++seq;
    status("Looking for a completion\u2026", {});
    let done;
    try { done = await runJob(`${base}/hand/hint`, { placed }); }
    catch (e) { if (mine === seq) status(`Hint failed: ${e.message}`, {}); return; }
    if (mine !== seq) return;
    const r = done.result || {};
    if (r.hint === null || r.hint === undefined) {
      status(r.completable === false ? "No hint: this board cannot be completed. Undo a piece." : "No hint found within the time.", {});
      return;
    }
    hint = r.hint;
    chosen = pieceOf(hint);
    orientation = layout.placements[hint][1];
    cursor = cellsOf(hint)[0];
    hover = null;
    quiet = false;
    draw();
    status(`Hint: ${layout.pieces[chosen].name} with its first cell at ${describeCell(cursor)} (outlined). Press Enter or click there to place it.`,
      { count: result ? String(result.count) : "" });
    $("hand-board").focus();
  }

  // The nearest cell from ``from`` in a direction (dx, dy), by the cells' drawn centres.
  function step(from, dx, dy) {
    const g = GGLattice.geometry(layout.lattice, turn(layout.cells), 30, stacked());
    if (from === null) return 0;
    const [x0, y0] = g.centres[from];
    let best = null, bestScore = Infinity;
    g.centres.forEach(([x, y], i) => {
      const along = (x - x0) * dx + (y - y0) * dy, across = Math.abs((x - x0) * dy - (y - y0) * dx);
      if (i === from || along <= 1) return;
      const score = along + 2 * across;
      if (across <= along * 1.2 && score < bestScore) { best = i; bestScore = score; }
    });
    return best === null ? from : best;
  }

  function onKey(event) {
    if (!layout || $("hand").hidden) return;
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
    if (typing || event.ctrlKey && event.key !== "z" || event.metaKey || event.altKey) return;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const onBoard = event.target === $("hand-board");
    if (moves[event.key] && onBoard) {
      cursor = step(cursor, ...moves[event.key]);
      hover = null;
      quiet = false;
      drawBoard();
    } else if ((event.key === "Enter" || event.key === " ") && onBoard) {
      if (cursor === null) { cursor = 0; quiet = false; drawBoard(); } else place(cursor);
    } else if (event.key === "z" || (event.key === "Backspace" && onBoard)) undo();
    else if (event.key === "h") askHint();
    else if (event.key === "]" || event.key === "[") {
      const k = layout.pieces.length, d = event.key === "]" ? 1 : k - 1;
      for (let i = 1, c = chosen === null ? (d === 1 ? k - 1 : 0) : chosen; i <= k; i++) {
        const j = (c + d * i) % k;
        if (left(j) > 0) { choose(j); break; }
      }
    } else if (event.shiftKey && /^[A-Z0-9]$/.test(event.key)) { // Shift + a piece's name (or its first letter)
      const named = layout.pieces.findIndex((p, i) => p.name.toUpperCase() === event.key && left(i) > 0);
      const first = named >= 0 ? named : layout.pieces.findIndex((p, i) => p.name.toUpperCase().startsWith(event.key) && left(i) > 0);
      if (first < 0) return;
      choose(first);
    } else {
      const t = layout.transforms.find((x) => x.key === event.key);
      if (!t) return;
      transform(t);
    }
    event.preventDefault();
  }

  function bind() {
    const board = $("hand-board");
    const cellAt = (target) => { // a cell of the board (the pieces' pictures have numbered polygons too)
      const el = target && target.closest ? target.closest("[data-i]") : null;
      return el && board.contains(el) ? Number(el.dataset.i) : null;
    };
    board.addEventListener("pointermove", (e) => {
      const i = cellAt(e.target);
      if (i !== hover) { hover = i; quiet = false; drawBoard(); }
    });
    board.addEventListener("pointerleave", () => { if (!dragging) { hover = null; drawBoard(); } });
    board.addEventListener("click", (e) => { const i = cellAt(e.target); if (i !== null) { cursor = i; place(i); } });
    document.addEventListener("pointermove", (e) => {
      if (!dragging) return;
      const i = cellAt(document.elementFromPoint(e.clientX, e.clientY));
      if (i !== hover) { hover = i; quiet = false; drawBoard(); }
    });
    document.addEventListener("pointerup", (e) => {
      if (!dragging) return;
      dragging = false;
      const i = cellAt(document.elementFromPoint(e.clientX, e.clientY));
      if (i !== null) { cursor = i; place(i, true); }
    });
    document.addEventListener("keydown", onKey);
    $("hand-undo").addEventListener("click", undo);
    $("hand-clear").addEventListener("click", clear);
    $("hand-hint").addEventListener("click", askHint);
  }

  let bound = false;
  // Start tiling the session's puzzle by hand (after POST .../new); ``start`` placements (numbers) are put down first.
  async function start(path, startPlaced, changedCallback) {
    base = path;
    onChange = changedCallback || null;
    layout = await api("GET", `${base}/hand`);
    index();
    names = [];
    $("hand").hidden = false;
    chooseTurn();
    placed = [];
    const valid = (startPlaced || []).filter((n) => Number.isInteger(n) && n >= 0 && n < layout.placements.length);
    for (const n of valid) { computeOwners(); if (fits(n)) placed.push(n); }
    chosen = layout.pieces.findIndex((_, i) => left(i) > 0);
    if (chosen < 0) chosen = null;
    orientation = 0; cursor = null; hover = null; hint = null; result = null;
    $("hand-board").setAttribute("aria-label", `the ${layout.lattice} board, ${layout.cells.length} cells: arrow keys move the cursor, ` +
      `Enter places the chosen piece, ${layout.transforms.map((t) => `${t.key} ${t.name.toLowerCase()}s`).join(", ")}, z undoes, h asks for a hint`);
    $("hand-keys").textContent = `Keys on the board: arrows move, Enter places, ${layout.transforms.map((t) => `${t.key} ${t.name.toLowerCase()}`).join(", ")}, ` +
      "[ ] or Shift + its name pick a piece, z undo, h hint; a click on a placed piece takes it back.";
    if (!bound) { bind(); bound = true; }
    changed();
    return layout;
  }

  window.addEventListener("resize", () => {
    if (!layout || $("hand").hidden) return;
    if (chooseTurn()) drawPicker();
    drawBoard();
  });

  function stop() { layout = null; seq++; $("hand").hidden = true; }

  return { start, stop, placed: () => placed.slice() };
})();
