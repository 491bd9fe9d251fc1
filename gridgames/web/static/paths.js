// Piece-then-target moves (draughts): a game that gives each legal move's path (view.paths: move -> its cells, the
// piece's own first; State.move_path) is played by clicks on the board. A click on a piece that can move selects
// it and marks the cells its moves reach; a click on one of them plays the one move that fits the cells clicked so
// far (the landings of a multi-step capture are clicked in turn only where several moves share the target). The
// board's cells are board.js's (data-row/data-col on a cell or an SVG element). Plain DOM, no library.
"use strict";
const GGPaths = (() => {
  let chosen = []; // the cells clicked so far ("r,c"), the piece first
  let position = null; // the position the clicks belong to (its moves' notation)

  const keyOf = ([r, c]) => `${r},${c}`;

  // The moves whose path starts on the chosen piece and passes every other chosen cell.
  function fitting(moves) {
    if (!chosen.length) return moves;
    return moves.filter(([, cells]) => cells[0] === chosen[0] && chosen.slice(1).every((k) => cells.slice(1).includes(k)));
  }

  function mark(cells, moves) {
    const fits = fitting(moves);
    const next = new Set();
    if (!chosen.length) for (const [, path] of moves) next.add(path[0]);
    else for (const [, path] of fits) for (const k of path.slice(1)) if (!chosen.includes(k)) next.add(k);
    for (const [k, el] of cells) {
      el.classList.toggle("path-from", chosen[0] === k);
      el.classList.toggle("path-via", chosen.slice(1).includes(k));
      el.classList.toggle("path-next", next.has(k));
      el.classList.toggle("target", next.has(k) || chosen[0] === k);
    }
  }

  function click(k, cells, moves, ctx) {
    const starts = new Set(moves.map(([, path]) => path[0]));
    if (chosen[0] === k) chosen = []; // the selected piece again: let go of it
    else if (!chosen.length || (starts.has(k) && !fitting(moves).some(([, path]) => path.slice(1).includes(k)))) {
      chosen = starts.has(k) ? [k] : []; // (another) piece selected
    } else {
      chosen = [...chosen, k];
      const fits = fitting(moves);
      if (fits.length === 1) { const move = fits[0][0]; chosen = []; ctx.play(move); return; }
      if (!fits.length) chosen = [];
      else if (fits.every(([, path]) => path.slice(1).every((c) => chosen.includes(c)))) { // nothing left to tell them apart
        chosen = [];
        ctx.offer(fits.map(([m]) => m));
        return;
      }
    }
    mark(cells, moves);
  }

  // Make the board's cells in `box` clickable along view.paths (called by board.js after every drawing).
  function attach(box, view, ctx) {
    if (position !== view.moves) { chosen = []; position = view.moves; }
    const cells = new Map();
    for (const el of box.querySelectorAll("[data-row][data-col]")) cells.set(`${el.dataset.row},${el.dataset.col}`, el);
    if (!ctx.active) return;
    const moves = Object.entries(view.paths).map(([m, path]) => [m, path.map(keyOf)]);
    for (const [k, el] of cells) el.addEventListener("click", () => click(k, cells, moves, ctx));
    mark(cells, moves);
  }

  return { attach };
})();
