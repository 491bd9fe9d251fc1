// Whole-piece moves on the play page (games with Game.piece_moves): a piece picker, orientation buttons and keys,
// a preview under the pointer (green: legal, red: not), a click plays the move's text through the page's play().
// play.js calls GGPieces.attach(boardElement, view, {play, active}) after drawing the board; the view's "pieces"
// holds each piece's orientations (cell lists) and whether it can be placed now, and the text of every action
// under "piece/orientation/row/col" of its anchor (the top-left corner of the oriented piece's bounding box).
"use strict";
const GGPieces = (() => {
  const $ = (id) => document.getElementById(id);
  let chosen = null, orientation = 0, hover = null, ctx = null, keysBound = false;

  const key = (cells) => cells.map(([r, c]) => `${r},${c}`).sort().join(" ");
  function normalised(cells) {
    const r0 = Math.min(...cells.map((c) => c[0])), c0 = Math.min(...cells.map((c) => c[1]));
    return cells.map(([r, c]) => [r - r0, c - c0]);
  }
  // The cell of a piece kept under the pointer: its first cell along the top row (always one of its cells).
  function handle(cells) {
    return cells.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
  }

  function orientations() { return ctx.view.pieces.pieces[chosen].orientations; }

  // Turn (or mirror) the current orientation and find it among the piece's; if the piece may not turn so, the next one.
  function transform(map) {
    const list = orientations();
    const wanted = key(normalised(list[orientation].map(map)));
    const found = list.findIndex((cells) => key(cells) === wanted);
    orientation = found >= 0 ? found : (orientation + 1) % list.length;
    update();
  }
  const rotate = () => transform(([r, c]) => [c, -r]);
  const flip = () => transform(([r, c]) => [r, -c]);

  function placement() {
    if (chosen === null || hover === null) return null;
    const cells = orientations()[orientation];
    const [hr, hc] = handle(cells);
    const anchor = [hover[0] - hr, hover[1] - hc];
    const text = ctx.view.pieces.moves[`${chosen}/${orientation}/${anchor[0]}/${anchor[1]}`] || null;
    return { cells: cells.map(([r, c]) => [anchor[0] + r, anchor[1] + c]), text, legal: text !== null && ctx.legal.has(text) };
  }

  function preview() {
    if (!ctx) return;
    ctx.grid.querySelectorAll(".preview-ok, .preview-bad").forEach((d) => d.classList.remove("preview-ok", "preview-bad"));
    const place = ctx.active ? placement() : null;
    const note = $("piece-note");
    if (note) note.textContent = place ? (place.text ? place.text : "off the board") + (place.legal ? "" : " (not legal here)") : "";
    if (!place) return;
    for (const [r, c] of place.cells) {
      const cell = ctx.grid.querySelector(`.cell[data-row="${r}"][data-col="${c}"]`);
      if (cell) cell.classList.add(place.legal ? "preview-ok" : "preview-bad");
    }
  }

  function drawShape(cells) {
    const size = 14, rows = 1 + Math.max(...cells.map((c) => c[0])), cols = 1 + Math.max(...cells.map((c) => c[1]));
    const squares = cells.map(([r, c]) => `<rect x="${c * size}" y="${r * size}" width="${size - 1}" height="${size - 1}"/>`).join("");
    return `<svg width="${cols * size}" height="${rows * size}" aria-hidden="true">${squares}</svg>`;
  }

  function renderPicker() {
    const box = $("pieces");
    box.hidden = false;
    box.innerHTML = "";
    const row = document.createElement("div");
    row.className = "piece-row";
    ctx.view.pieces.pieces.forEach((piece, i) => {
      const b = document.createElement("button");
      b.className = "piece" + (i === chosen ? " chosen" : "");
      b.dataset.piece = piece.name;
      b.innerHTML = `${drawShape(piece.orientations[0])}<span>${piece.name}</span>`;
      b.disabled = !piece.playable || !ctx.active;
      b.title = piece.playable ? `place ${piece.name}` : `${piece.name} cannot be placed now`;
      b.addEventListener("click", () => { chosen = i; orientation = 0; renderPicker(); preview(); });
      row.appendChild(b);
    });
    box.appendChild(row);
    if (chosen === null) return;
    const tools = document.createElement("div");
    const list = orientations();
    tools.innerHTML = `<span class="piece-shape">${drawShape(list[orientation])}</span> ` +
      `<span id="piece-orientation">${ctx.view.pieces.pieces[chosen].name}: orientation ${orientation + 1} of ${list.length}</span> `;
    for (const [label, id, fn, title] of [["Rotate (r)", "piece-rotate", rotate, "turn a quarter clockwise"], ["Flip (f)", "piece-flip", flip, "mirror left-right"]]) {
      const b = document.createElement("button");
      b.textContent = label; b.id = id; b.title = title; b.disabled = list.length === 1;
      b.addEventListener("click", fn);
      tools.appendChild(b);
    }
    const note = document.createElement("span");
    note.id = "piece-note"; note.className = "muted";
    tools.appendChild(note);
    box.appendChild(tools);
  }

  function update() { renderPicker(); preview(); }

  function place(r, c) {
    if (!ctx.active) return;
    hover = [r, c];
    const spot = placement();
    if (!spot) return;
    if (spot.text) ctx.play(spot.text); // an illegal placement is sent too: the server says why it is refused
    else preview();
  }

  function attach(grid, view, options) {
    ctx = { grid, view, play: options.play, active: options.active, legal: new Set(view.legal) };
    const pieces = view.pieces.pieces;
    if (chosen === null || chosen >= pieces.length || !pieces[chosen].playable) {
      const first = pieces.findIndex((p) => p.playable);
      chosen = first >= 0 ? first : null;
      orientation = 0;
    }
    if (chosen !== null && orientation >= pieces[chosen].orientations.length) orientation = 0;
    grid.querySelectorAll(".cell").forEach((div) => {
      const r = Number(div.dataset.row), c = Number(div.dataset.col);
      if (ctx.active) div.classList.add("target");
      div.addEventListener("mouseenter", () => { hover = [r, c]; preview(); });
      div.addEventListener("click", () => place(r, c));
    });
    grid.addEventListener("mouseleave", () => { hover = null; preview(); });
    update();
    if (!keysBound) {
      keysBound = true;
      document.addEventListener("keydown", (event) => {
        const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName);
        if (!ctx || !ctx.active || chosen === null || typing || event.ctrlKey || event.metaKey || event.altKey) return;
        if (event.key === "r") rotate();
        else if (event.key === "f") flip();
      });
    }
  }

  function detach() {
    ctx = null;
    const box = $("pieces");
    if (box) { box.hidden = true; box.innerHTML = ""; }
  }

  return { attach, detach };
})();
