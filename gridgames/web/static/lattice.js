// Drawing cells of any lattice as SVG polygons, shared by the pages (plain JS, no library).
// A cell is given by its drawing position (gridgames.lattices.position): [row, col] on the square, triangular and
// hexagonal lattices (a triangle points up when row + col is even; hexagons sit in "doubled" columns, two apart),
// [layer, row, col] on the cubic one (a box is drawn as its layers side by side, each captioned).
// GGLattice.geometry(lattice, positions, size) -> {polygons, centres, width, height, captions}
// GGLattice.svg(lattice, positions, {size, fill(i), label(i), cls(i), title, captions}) -> an SVG string whose
// polygons carry data-i (the cell's number) for the page's handlers.
"use strict";
const GGLattice = (() => {
  const ROOT3 = Math.sqrt(3);
  const MARGIN = 6, CAPTION = 18;

  function polygon(lattice, pos, size, layerStep, stack) {
    if (lattice === "triangular") {
      const [row, col] = pos, h = size * ROOT3 / 2;
      const left = col * size / 2, right = (col / 2 + 1) * size, middle = (col + 1) * size / 2;
      if (((row + col) % 2 + 2) % 2 === 0) return [[left, (row + 1) * h], [right, (row + 1) * h], [middle, row * h]];
      return [[left, row * h], [right, row * h], [middle, (row + 1) * h]];
    }
    if (lattice === "hexagonal") {
      const [row, col] = pos, r = size * 0.62, width = ROOT3 * r;
      const cx = (col + 1) * width / 2, cy = row * 1.5 * r + r;
      return [30, 90, 150, 210, 270, 330].map((a) => [cx + r * Math.cos(a * Math.PI / 180), cy + r * Math.sin(a * Math.PI / 180)]);
    }
    let x, y;
    if (lattice === "cubic" && stack) { const [layer, row, col] = pos; x = col * size; y = layer * layerStep + row * size + CAPTION * (layer + 1); }
    else if (lattice === "cubic") { const [layer, row, col] = pos; x = layer * layerStep + col * size; y = row * size + CAPTION; }
    else { const [row, col] = pos; x = col * size; y = row * size; }
    return [[x, y], [x + size, y], [x + size, y + size], [x, y + size]];
  }

  // ``stack``: a box's layers one under another (for narrow screens) instead of side by side.
  function geometry(lattice, positions, size, stack = false) {
    let layerStep = 0;
    const captions = [];
    if (lattice === "cubic") {
      const along = positions.map((p) => p[stack ? 1 : 2]);
      layerStep = (stack ? 1.3 : 2) * size + (Math.max(...along) - Math.min(...along)) * size;
    }
    const raw = positions.map((p) => polygon(lattice, p, size, layerStep, stack));
    const xs = raw.flat().map((p) => p[0]), ys = raw.flat().map((p) => p[1]);
    const x0 = Math.min(...xs) - MARGIN, y0 = (lattice === "cubic" ? 0 : Math.min(...ys)) - MARGIN;
    const polygons = raw.map((poly) => poly.map(([x, y]) => [x - x0, y - y0]));
    const centres = polygons.map((poly) => [poly.reduce((s, p) => s + p[0], 0) / poly.length, poly.reduce((s, p) => s + p[1], 0) / poly.length]);
    if (lattice === "cubic") {
      const layers = [...new Set(positions.map((p) => p[0]))].sort((a, b) => a - b);
      const minCol = Math.min(...positions.map((p) => p[2])), minRow = Math.min(...positions.map((p) => p[1]));
      layers.forEach((layer, k) => captions.push(stack ?
        { x: minCol * size - x0, y: layer * layerStep + minRow * size + CAPTION * (layer + 1) - 5 - y0, text: `layer ${k + 1}` } :
        { x: layer * layerStep + minCol * size - x0, y: CAPTION - 5 - y0, text: `layer ${k + 1}` }));
    }
    return { polygons, centres, width: Math.max(...xs) - x0 + MARGIN, height: Math.max(...ys) - y0 + MARGIN, captions };
  }

  const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

  function svg(lattice, positions, options = {}) {
    const size = options.size || 32;
    const g = geometry(lattice, positions, size, !!options.stack);
    const out = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${g.width.toFixed(1)} ${g.height.toFixed(1)}" ` +
      `width="${g.width.toFixed(1)}" height="${g.height.toFixed(1)}" class="${options.svgClass || "lattice"}"${options.attrs || ""}>`];
    if (options.title) out.push(`<title>${escape(options.title)}</title>`);
    if (options.captions !== false) for (const c of g.captions) out.push(`<text class="caption" x="${c.x.toFixed(1)}" y="${c.y.toFixed(1)}">${escape(c.text)}</text>`);
    g.polygons.forEach((poly, i) => {
      const fill = options.fill ? options.fill(i) : null;
      const cls = options.cls ? options.cls(i) : "";
      out.push(`<polygon data-i="${i}" class="lcell ${cls}" points="${poly.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" ")}"` +
        `${fill ? ` style="fill:${fill}"` : ""}/>`);
    });
    if (options.label) {
      g.centres.forEach(([x, y], i) => {
        const text = options.label(i);
        if (text) out.push(`<text class="llabel" x="${x.toFixed(1)}" y="${(y + size * 0.13).toFixed(1)}" font-size="${(size * 0.42).toFixed(1)}">${escape(text)}</text>`);
      });
    }
    out.push("</svg>");
    return out.join("");
  }

  // Okabe-Ito first (colour-blind safe), then lighter tints: one colour per piece number.
  const COLOURS = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#a6761d",
    "#8dd3c7", "#fdb462", "#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f", "#80b1d3", "#fb8072", "#bebada"];
  const colour = (k) => COLOURS[k % COLOURS.length];

  // Each cell's place in words, counted from 1 as a person reads the picture: "row 2, column 3" (the n-th cell of
  // its row, whatever the lattice's coordinates), "layer 1, row 2, column 3" in a box.
  function names(lattice, positions) {
    const rank = (values) => { const sorted = [...new Set(values)].sort((a, b) => a - b); return (v) => sorted.indexOf(v) + 1; };
    if (lattice === "cubic") {
      const [l, r, c] = [0, 1, 2].map((k) => rank(positions.map((p) => p[k])));
      return positions.map((p) => `layer ${l(p[0])}, row ${r(p[1])}, column ${c(p[2])}`);
    }
    const row = rank(positions.map((p) => p[0]));
    return positions.map((p) => {
      const inRow = positions.filter((q) => q[0] === p[0]).map((q) => q[1]).sort((a, b) => a - b);
      return `row ${row(p[0])}, column ${inRow.indexOf(p[1]) + 1}`;
    });
  }

  return { geometry, svg, colour, names };
})();
