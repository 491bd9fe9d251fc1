// The play page's drawings: the board (square grids as cells; other lattices and a game's own picture from its SVG), the column
// buttons with each column's exact score, the evaluation bar and the review graph. Plain DOM, no library.
// play.js calls GGBoard.draw(view, ctx) after every change; ctx: {play, offer, active, scores, previous, best}.
"use strict";
const GGBoard = (() => {
  const $ = (id) => document.getElementById(id);
  const MARKS = ["\u2715", "\u25ef", "\u25b3", "\u25a1", "\u2606", "\u25c7"]; // a mark per player as well as a colour
  const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  const styleOf = (view, player) => (view.styles ? view.styles[player] : player);
  const markOf = (view, player) => MARKS[styleOf(view, player) % MARKS.length];

  function columnOf(cells) {
    const cols = new Set(cells.map((c) => c[1]));
    return cols.size === 1 ? [...cols][0] : null;
  }

  // A gravity game: every legal move is a whole column (a click anywhere in it plays there).
  function byColumn(view) {
    return !!view.board && !view.pieces && view.legal.length > 0 && view.legal.every((m) => {
      const cells = view.targets[m];
      return cells && cells.length === view.board.rows && columnOf(cells) !== null;
    });
  }

  // The cell a disc dropped in column c lands on: the lowest empty one.
  function landing(view, c) {
    for (let r = view.board.rows - 1; r >= 0; r--) if (view.board.cells[r][c] === 0) return r;
    return null;
  }

  let gravityBoard = null; // the last board played by columns: its row stays (empty) once the game is over
  const colName = (c) => (c < 26 ? String.fromCharCode(97 + c) : `c${c + 1}`);

  // The board in words, for screen readers: who is where (columns a, b, ...; rows from the bottom).
  function describe(view) {
    const { rows, cols, cells } = view.board;
    const per = view.players.map(() => []);
    for (let r = rows - 1; r >= 0; r--) { // from the bottom row up
      for (let c = 0; c < cols; c++) if (cells[r][c] > 0) per[cells[r][c] - 1].push(`${colName(c)}${rows - r}`);
    }
    const parts = per.map((list, i) => `${view.players[i]}: ${list.length ? list.join(" ") : "none"}`);
    return `${view.game} board, ${cols} columns by ${rows} rows. ${parts.join("; ")}.`;
  }

  // True when the page shows the game's SVG: no board, hexagons or triangles, or the game's own picture (not for
  // gravity games: the server says own_picture false, and they keep their column buttons).
  function pictured(view) {
    const key = view.board ? `${view.game} ${view.board.rows}x${view.board.cols}` : null;
    if (byColumn(view)) gravityBoard = key;
    const lattice = view.board ? view.board.lattice || "square" : null;
    return !!view.svg && (!view.board || lattice !== "square" || !!view.own_picture);
  }

  // Each cell's moves (from the view's targets), keyed "row,col".
  function movesByCell(view) {
    const cellMoves = {};
    for (const [move, cells] of Object.entries(view.targets)) {
      for (const [r, c] of cells) (cellMoves[`${r},${c}`] ||= []).push(move);
    }
    return cellMoves;
  }

  // What a mark (State.marks) writes on its cell: its label, a tile's number, or the player's initial (a king's twice).
  function markText(view, mark) {
    if (mark.label) return mark.label;
    if (mark.number !== null && mark.number !== undefined) return String(mark.number);
    if (mark.player === null || !["piece", "king"].includes(mark.kind)) return "";
    const initial = (view.players[mark.player] || "?").slice(0, 1);
    return mark.kind === "king" ? initial + initial : initial;
  }

  // Draw the board; returns the legal moves a click on it plays (the page offers buttons only for the others).
  function draw(view, ctx) {
    const box = $("board");
    box.innerHTML = "";
    box.removeAttribute("aria-label");
    const cellMoves = movesByCell(view);
    const columns = byColumn(view);
    if (pictured(view)) return drawSvg(box, view, cellMoves, ctx); // the game's own picture, or hexagons, triangles
    if (!view.board) { const pre = document.createElement("pre"); pre.textContent = view.text; box.appendChild(pre); return new Set(); }
    const { rows, cols, cells } = view.board;
    const coords = view.coordinates;
    const grid = document.createElement("div");
    grid.className = "board" + (columns || view.game === "connect4" ? "" : " plain") + (coords ? " coords" : "");
    grid.style.setProperty("--cols", cols);
    document.documentElement.style.setProperty("--board-cols", cols); // the cells' size fits the width (style.css)
    document.documentElement.style.setProperty("--board-rows", rows); // and the height
    grid.setAttribute("role", "img");
    grid.setAttribute("aria-label", describe(view));
    edgesOf(view, grid);
    const win = new Set((view.outcome ? view.outcome.cells : []).map(([r, c]) => `${r},${c}`));
    const prev = ctx.previous && ctx.previous.board && ctx.previous.board.rows === rows && ctx.previous.board.cols === cols
      ? ctx.previous.board.cells : null;
    const fresh = [], clickable = new Set();
    const label = (text) => { const d = document.createElement("div"); d.className = "coord"; d.textContent = text; d.setAttribute("aria-hidden", "true"); grid.appendChild(d); };
    if (coords) { label(""); coords.cols.forEach(label); }
    for (let r = 0; r < rows; r++) {
      if (coords) label(coords.rows[r]);
      for (let c = 0; c < cols; c++) {
        const v = cells[r][c];
        const div = document.createElement("div");
        div.className = "cell";
        div.dataset.row = r; div.dataset.col = c;
        if (v < 0) div.classList.add("hole");
        const mark = view.marks ? view.marks[`${r},${c}`] : null;
        if (mark) drawMark(view, div, mark);
        else if (v > 0) {
          div.classList.add(`p${styleOf(view, v - 1)}`);
          div.textContent = markOf(view, v - 1);
          paint(div, view, v - 1);
        }
        if (v > 0 && prev && prev[r][c] === 0) fresh.push(div);
        if (win.has(`${r},${c}`)) div.classList.add("win");
        const moves = cellMoves[`${r},${c}`];
        if (moves && ctx.active) {
          div.classList.add("target");
          if (!columns && v === 0 && !mark) div.classList.add("legal");
          moves.forEach((m) => clickable.add(m));
          div.title = moves.length === 1 ? `play ${moves[0]}` : `moves: ${moves.join(", ")}`;
          div.addEventListener("click", () => (moves.length === 1 ? ctx.play(moves[0]) : ctx.offer(moves)));
          if (columns) {
            div.addEventListener("pointerenter", () => hover(grid, view, c, true));
            div.addEventListener("pointerleave", () => hover(grid, view, c, false));
          }
        }
        grid.appendChild(div);
      }
    }
    const gravity = columns || view.game === "connect4";
    const lastCell = gravity ? lastDisc(view, grid) : fresh.length === 1 ? fresh[0] : null;
    if (lastCell) { // the last move: a ring that shows on either colour, and its name for screen readers
      lastCell.classList.add("last");
      if (view.history) lastCell.title = `last move: ${view.history[view.history.length - 1]}`;
    }
    if (fresh.length === 1) { // one new disc or mark: it drops down its column (or appears), unless motion is reduced
      if (!reducedMotion()) {
        fresh[0].style.setProperty("--fall", Number(fresh[0].dataset.row) + 1);
        fresh[0].classList.add(columns || view.game === "connect4" ? "drop" : "pop");
      }
    }
    if (columns && ctx.best) {
      for (const m of ctx.best) {
        const c = columnOf(view.targets[m] || []);
        const r = c === null ? null : landing(view, c);
        if (r !== null) cellAt(grid, r, c).classList.add("best-cell");
      }
    }
    box.appendChild(grid);
    if (gravity) { // the column numbers under the board, as the moves name them
      const under = document.createElement("div");
      under.className = "under col-numbers";
      under.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
      under.setAttribute("aria-hidden", "true");
      for (let c = 0; c < cols; c++) { const d = document.createElement("div"); d.textContent = c + 1; under.appendChild(d); }
      box.appendChild(under);
    }
    if (view.paths && typeof GGPaths !== "undefined") GGPaths.attach(grid, view, ctx); // from->to moves: paths.js
    if (view.pieces) { // whole-piece moves: pieces.js (every legal placement is played from its picker)
      GGPieces.attach(grid, view, { play: ctx.play, active: ctx.active });
      view.legal.forEach((m) => m !== view.pass && clickable.add(m));
    } else GGPieces.detach();
    return clickable;
  }

  const cellAt = (grid, r, c) => grid.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);

  // A mark of State.marks on a square cell: a piece kind, a neutral line or dot, a numbered tile; its own colour.
  function drawMark(view, div, mark) {
    div.classList.add("marked", `k-${mark.kind}`);
    if (mark.player !== null) div.classList.add(`p${styleOf(view, mark.player)}`);
    else div.classList.add("neutral");
    div.dataset.kind = mark.kind;
    const text = markText(view, mark);
    if (mark.kind === "line-h" || mark.kind === "line-v" || mark.kind === "dot") {
      const bar = document.createElement("span");
      bar.className = "bar";
      if (mark.colour) bar.style.background = mark.colour;
      div.appendChild(bar);
      return;
    }
    if (mark.colour) div.style.background = mark.colour;
    const plain = !mark.label && (mark.number === null || mark.number === undefined) && mark.player !== null;
    div.textContent = plain ? markOf(view, mark.player) : text; // a piece or king: the player's mark, as elsewhere
    if (mark.kind === "king") div.title = "king";
  }

  // The board's sides a game gives its players (Game.edges) as borders of the players' colours.
  function edgesOf(view, grid) {
    for (const [side, player] of Object.entries(view.edges || {})) {
      grid.style.setProperty(`border-${side}`, `6px solid var(--p${styleOf(view, player)})`);
    }
  }

  // The cell of the last disc dropped: the top disc of the column the last move names (moves are column numbers).
  function lastDisc(view, grid) {
    const history = view.history || []; // (the drill page's views have none)
    const last = history.length ? history[history.length - 1] : null;
    if (last === null || !/^\d+$/.test(last)) return null;
    const c = Number(last) - 1, { rows, cols, cells } = view.board;
    if (c < 0 || c >= cols) return null;
    for (let r = 0; r < rows; r++) if (cells[r][c] > 0) return grid.children[r * cols + c];
    return null;
  }

  // Hover over a column: the column lit, a ghost disc of the side to move on the cell it lands on.
  function hover(grid, view, c, on) {
    const { rows } = view.board;
    for (let r = 0; r < rows; r++) cellAt(grid, r, c).classList.toggle("col-hover", on);
    const r = landing(view, c);
    if (r === null || view.to_move === null) return;
    const cell = cellAt(grid, r, c);
    cell.classList.toggle("ghost", on);
    cell.classList.toggle(`g${styleOf(view, view.to_move)}`, on);
  }

  // The game's picture (its own State.svg, or a hexagonal or triangular board): its cells (data-row/data-col) and
  // marked moves (data-move) clickable, legal cells dotted, coordinates around it when the notation names cells.
  function drawSvg(box, view, cellMoves, ctx) {
    box.innerHTML = view.svg;
    const clickable = new Set();
    const svg = box.querySelector("svg");
    if (!svg) return clickable;
    svg.classList.add("svg-board");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", view.board ? describe(view) : `${view.game}: ${view.text}`);
    const win = new Set((view.outcome ? view.outcome.cells : []).map(([r, c]) => `${r},${c}`));
    const legal = new Set(view.legal);
    const ns = svg.namespaceURI;
    const clickableEl = (el, moves) => {
      el.classList.add("target");
      moves.forEach((m) => clickable.add(m));
      const tip = document.createElementNS(ns, "title");
      tip.textContent = moves.length === 1 ? `play ${moves[0]}` : `moves: ${moves.join(", ")}`;
      el.appendChild(tip);
      el.addEventListener("click", () => (moves.length === 1 ? ctx.play(moves[0]) : ctx.offer(moves)));
    };
    const dots = [];
    for (const el of svg.querySelectorAll("[data-row][data-col]")) {
      const key = `${el.dataset.row},${el.dataset.col}`;
      el.classList.add("svg-cell");
      if (win.has(key)) el.classList.add("win");
      const moves = cellMoves[key];
      if (moves && ctx.active) { clickableEl(el, moves); dots.push(el); }
    }
    for (const el of svg.querySelectorAll("[data-move]")) {
      if (legal.has(el.dataset.move) && ctx.active) clickableEl(el, [el.dataset.move]);
    }
    for (const el of dots) { // a legal move's cell: a small dot in its middle (clicks go through it)
      const b = el.getBBox();
      const dot = document.createElementNS(ns, "circle");
      Object.entries({ cx: b.x + b.width / 2, cy: b.y + b.height / 2, r: Math.min(b.width, b.height) * 0.12, class: "legal-dot", "pointer-events": "none" })
        .forEach(([k, v]) => dot.setAttribute(k, v));
      el.parentNode.insertBefore(dot, el.nextSibling);
    }
    if (view.coordinates) coordinatesOn(svg, view.coordinates);
    if (view.paths && typeof GGPaths !== "undefined") GGPaths.attach(svg, view, ctx);
    return clickable;
  }

  // Column letters above the top row's cells and row names left of the first column's, on any lattice (read off the
  // cells' boxes); the picture grows to hold them.
  function coordinatesOn(svg, coords) {
    const ns = svg.namespaceURI;
    const cell = (r, c) => svg.querySelector(`[data-row="${r}"][data-col="${c}"]`);
    const put = (x, y, text, size) => {
      const t = document.createElementNS(ns, "text");
      Object.entries({ x, y, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central", class: "coord", "pointer-events": "none" })
        .forEach(([k, v]) => t.setAttribute(k, v));
      t.textContent = text;
      svg.appendChild(t);
    };
    const first = cell(0, 0) || svg.querySelector("[data-row][data-col]");
    if (!first) return;
    const unit = Math.min(first.getBBox().width, first.getBBox().height);
    const size = Math.max(7, unit * 0.36);
    coords.cols.forEach((name, c) => {
      const el = cell(0, c);
      if (!el) return;
      const b = el.getBBox();
      put(b.x + b.width / 2, b.y - size * 0.9, name, size);
    });
    coords.rows.forEach((name, r) => {
      const el = cell(r, 0);
      if (!el) return;
      const b = el.getBBox();
      put(b.x - size * (0.5 + 0.35 * name.length), b.y + b.height / 2, name, size);
    });
    const all = svg.getBBox(), pad = 3;
    const [vx, vy, vw, vh] = (svg.getAttribute("viewBox") || `0 0 ${all.width} ${all.height}`).split(/[ ,]+/).map(Number);
    const x0 = Math.min(vx, all.x - pad), y0 = Math.min(vy, all.y - pad);
    const x1 = Math.max(vx + vw, all.x + all.width + pad), y1 = Math.max(vy + vh, all.y + all.height + pad);
    svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
    svg.setAttribute("width", x1 - x0);
    svg.setAttribute("height", y1 - y0);
  }

  // A piece in the colour its game declares for its player (view.colours: Go's Black black), its mark readable on it.
  function paint(div, view, player) {
    const colour = view.colours && view.colours[player];
    if (!colour) return;
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    div.style.background = colour;
    div.style.color = 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#222" : "#fff";
  }

  const signed = (s) => (s > 0 ? `+${s}` : `${s}`);
  const resultClass = (s) => (s > 0 ? "score-win" : s < 0 ? "score-loss" : "score-draw");

  // In words: "wins in 7" (discs to the end with best play), "draws", "loses in 4".
  function outlook(s, end) {
    const when = end === undefined ? "" : ` in ${end}`;
    return s > 0 ? `wins${when}` : s < 0 ? `loses${when}` : "draws";
  }

  // The column buttons over a gravity board: a click (or Enter) plays the column; with scores, each shows its
  // exact score (coloured by result, the best starred) and the discs to the end. Other games: the scores as text.
  function columns(view, ctx) {
    const row = $("scores");
    row.innerHTML = "";
    const key = view.board ? `${view.game} ${view.board.rows}x${view.board.cols}` : null;
    const gravity = key !== null && gravityBoard === key;
    row.hidden = !gravity && !(ctx.scores && ctx.show);
    if (!gravity) {
      row.className = "score-text";
      if (ctx.scores && ctx.show) {
        row.textContent = Object.entries(ctx.scores.scores).map(([m, s]) => `${m}: ${s === null ? "?" : signed(s)}`).join("  ");
      }
      return;
    }
    row.className = "columns";
    row.style.setProperty("--cols", view.board.cols);
    const at = {};
    for (const m of view.legal) at[columnOf(view.targets[m])] = m;
    const scored = ctx.show && ctx.hasScores; // scores wanted: "\u2026" on a column until it is solved
    const scores = scored ? (ctx.scores ? ctx.scores.scores : {}) : null;
    const ends = ctx.show && ctx.scores ? ctx.scores.ends || {} : {};
    const best = new Set(ctx.best || []);
    for (let c = 0; c < view.board.cols; c++) {
      const m = at[c];
      const b = document.createElement("button");
      b.className = "col";
      b.type = "button";
      const score = document.createElement("span");
      score.className = "score";
      score.id = `score-${c + 1}`;
      if (m === undefined) { // a full column
        b.disabled = true; b.classList.add("full"); b.setAttribute("aria-label", `column ${c + 1}: full`);
        b.appendChild(score); row.appendChild(b); continue;
      }
      b.dataset.move = m;
      const end = document.createElement("span");
      end.className = "end";
      let label = `play ${m}`;
      if (scores) {
        const s = scores[m];
        score.textContent = s === undefined ? "\u2026" : s === null ? "?" : signed(s); // \u2026: still solving
        if (s !== undefined && s !== null) {
          b.classList.add(resultClass(s));
          if (best.has(m)) b.classList.add("best");
          end.textContent = ends[m] === undefined ? "" : `${s === 0 ? "=" : ends[m]}`;
          label += `: ${signed(s)}, ${view.players[view.to_move]} ${outlook(s, ends[m])}${best.has(m) ? " (best)" : ""}`;
        }
      } else {
        score.textContent = m;
        b.classList.add("plain-col");
      }
      b.setAttribute("aria-label", label);
      b.title = label;
      b.disabled = !ctx.active;
      b.addEventListener("click", () => ctx.play(m));
      const grid = () => $("board").querySelector(".board");
      for (const [kind, on] of [["pointerenter", true], ["pointerleave", false], ["focus", true], ["blur", false]]) {
        b.addEventListener(kind, () => grid() && ctx.active && hover(grid(), view, c, on)); // where the disc lands
      }
      b.append(score, end);
      row.appendChild(b);
    }
  }

  // The evaluation bar: the first player's share, from the exact score of the position (the best column's).
  function evalbar(view, ctx) {
    const bar = $("evalbar");
    const known = ctx.show && ctx.scores && !ctx.scores.partial ? Object.values(ctx.scores.scores).filter((s) => s !== null) : [];
    bar.hidden = !ctx.hasScores || view.players.length !== 2;
    if (bar.hidden) return;
    let share = 0.5, text = "", label;
    if (view.outcome) {
      share = view.outcome.winner === null ? 0.5 : view.outcome.winner === 0 ? 1 : 0;
      text = view.outcome.winner === null ? "\u00bd" : "#";
      label = view.outcome.text;
    } else if (known.length && view.to_move !== null) {
      const s = Math.max(...known);
      const first = view.to_move === 0 ? s : -s;
      const top = view.board ? Math.ceil((view.board.rows * view.board.cols) / 2) : Math.max(20, Math.abs(s));
      share = first === 0 ? 0.5 : 0.5 + Math.sign(first) * (0.2 + 0.3 * Math.min(1, Math.abs(first) / top));
      const winner = first > 0 ? view.players[0] : view.players[1];
      const bestMoves = Object.keys(ctx.scores.scores).filter((m) => ctx.scores.scores[m] === s);
      const end = ctx.scores.ends ? ctx.scores.ends[bestMoves[0]] : undefined;
      text = signed(first);
      label = first === 0 ? "a draw with best play" : `${winner} wins with best play${end === undefined ? "" : ` in ${end} more moves`}`;
    } else {
      label = "evaluation not known yet";
    }
    bar.style.setProperty("--share", share);
    bar.querySelector(".evaltext").textContent = text;
    bar.setAttribute("aria-label", `evaluation: ${label}`);
    bar.title = label;
  }

  // The review graph: the score after each move from the first player's view, a dot per move coloured by its
  // grade; a click on a dot goes to that move.
  function graph(view, goToPly) {
    const box = $("review-graph");
    box.innerHTML = "";
    if (!view.review || !view.review.length) return;
    const points = view.review.map((e, i) => (e.score === null ? null : i % 2 === 0 ? e.score : -e.score));
    const top = Math.max(1, ...points.filter((p) => p !== null).map(Math.abs));
    const W = 320, H = 120, step = W / Math.max(1, points.length - 1);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `-6 -6 ${W + 12} ${H + 12}`);
    svg.setAttribute("class", "graph");
    svg.setAttribute("role", "img");
    const summary = points.map((p, i) => `${i + 1}: ${p === null ? "?" : signed(p)}`).join(", ");
    svg.setAttribute("aria-label", `score after each move, ${view.players[0]} up: ${summary}`);
    const y = (p) => H / 2 - (p / top) * (H / 2);
    const mid = document.createElementNS(ns, "line");
    Object.entries({ x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-mid" }).forEach(([k, v]) => mid.setAttribute(k, v));
    svg.appendChild(mid);
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", points.map((p, i) => (p === null ? "" : `${(i * step).toFixed(1)},${y(p).toFixed(1)}`)).join(" "));
    line.setAttribute("class", "graph-line");
    svg.appendChild(line);
    points.forEach((p, i) => {
      if (p === null) return;
      const dot = document.createElementNS(ns, "circle");
      const e = view.review[i];
      Object.entries({ cx: (i * step).toFixed(1), cy: y(p).toFixed(1), r: e.grade && e.grade !== "best" ? 5 : 3 })
        .forEach(([k, v]) => dot.setAttribute(k, v));
      dot.setAttribute("class", `dot ${e.grade || e.mark || "best"}`);
      dot.dataset.ply = i + 1;
      const tip = document.createElementNS(ns, "title");
      tip.textContent = `${e.number}. ${e.player} ${e.move}: ${e.grade || e.mark || ""} (${signed(e.score)}, best ${signed(e.best)})`;
      dot.appendChild(tip);
      dot.addEventListener("click", () => goToPly(i + 1));
      svg.appendChild(dot);
    });
    box.appendChild(svg);
  }

  return { draw, pictured, columns, evalbar, graph, byColumn, columnOf, markOf, signed, outlook, MARKS };
})();
