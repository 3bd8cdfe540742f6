// Spanish cards drawn as inline SVG: the suit signs, the pips up to 7 and the three
// figures (sota, caballo, rey) are simple shapes drawn for this page, no artwork
// from elsewhere. The words (a card's name) come from table.js's WORDS.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

// Each sign on a 24x24 grid: [element, attributes] pairs.
const SIGNS = {
  O: [ // a coin
    ["circle", { cx: 12, cy: 12, r: 10, fill: "#e0a800", stroke: "#8a6200", "stroke-width": 1.5 }],
    ["circle", { cx: 12, cy: 12, r: 5.5, fill: "none", stroke: "#8a6200", "stroke-width": 1.5 }],
    ["circle", { cx: 12, cy: 12, r: 1.5, fill: "#8a6200" }],
  ],
  C: [ // a cup
    ["path", { d: "M4 3h16c0 6.5-3.5 9.5-8 9.5S4 9.5 4 3z", fill: "#c62828" }],
    ["rect", { x: 10.8, y: 12, width: 2.4, height: 6, fill: "#c62828" }],
    ["path", { d: "M6.5 22c0-2.5 2.5-3.8 5.5-3.8s5.5 1.3 5.5 3.8z", fill: "#c62828" }],
  ],
  E: [ // a sword
    ["path", { d: "M12 1l2.2 3.2V15h-4.4V4.2z", fill: "#1e5aa8" }],
    ["rect", { x: 5.5, y: 15, width: 13, height: 2.2, rx: 1.1, fill: "#1e5aa8" }],
    ["rect", { x: 10.9, y: 17, width: 2.2, height: 4, fill: "#1e5aa8" }],
    ["circle", { cx: 12, cy: 22, r: 1.6, fill: "#1e5aa8" }],
  ],
  B: [ // a club
    ["path", { d: "M8.5 3.5C9.5 1 15 1 15.5 3.8L13.6 21.2c-.2 1.5-3 1.5-3.2 0z", fill: "#2e7d32" }],
    ["circle", { cx: 11.2, cy: 7, r: 1.1, fill: "#a5d6a7" }],
    ["circle", { cx: 13.3, cy: 11, r: 1, fill: "#a5d6a7" }],
    ["circle", { cx: 11.6, cy: 15, r: 0.9, fill: "#a5d6a7" }],
  ],
};
const INK = { O: "#8a6200", C: "#c62828", E: "#1e5aa8", B: "#2e7d32" };

// Where the pips of ranks 2 to 7 sit on the 60x90 face, as Spanish packs lay them out.
const PIPS = {
  2: [[30, 22], [30, 68]],
  3: [[30, 17], [30, 45], [30, 73]],
  4: [[18, 22], [42, 22], [18, 68], [42, 68]],
  5: [[18, 20], [42, 20], [30, 45], [18, 70], [42, 70]],
  6: [[18, 17], [42, 17], [18, 45], [42, 45], [18, 73], [42, 73]],
  7: [[18, 15], [42, 15], [30, 31], [18, 48], [42, 48], [18, 74], [42, 74]],
};

// The figures, on the same 60x90 face: a page standing (sota), a horse's head
// (caballo) and a crowned king (rey), each holding its suit's sign.
const FIGURE_ART = {
  10: [
    ["circle", { cx: 30, cy: 24, r: 7, fill: "#f3d2b3", stroke: "#333", "stroke-width": 1 }],
    ["path", { d: "M22 21c1-7 15-7 16 0z", fill: "#333" }],
    ["path", { d: "M21 34h18l4 28H17z", fill: "var(--robe)", stroke: "#333", "stroke-width": 1 }],
    ["rect", { x: 22, y: 62, width: 6, height: 16, fill: "#f2c14e", stroke: "#333", "stroke-width": 1 }],
    ["rect", { x: 32, y: 62, width: 6, height: 16, fill: "#f2c14e", stroke: "#333", "stroke-width": 1 }],
  ],
  11: [
    ["path", {
      d: "M16 80c2-14 4-22 10-30-5 1-9 0-12-3 4-9 12-17 22-19l2-6 4 7c6 4 8 14 7 26 0 9-1 17-2 25z",
      fill: "#8d5a2b", stroke: "#333", "stroke-width": 1,
    }],
    ["path", { d: "M38 22c4 3 7 10 7 18", fill: "none", stroke: "#333", "stroke-width": 3 }],
    ["circle", { cx: 27, cy: 34, r: 1.8, fill: "#222" }],
    ["path", { d: "M20 50c8 0 14 6 24 4", fill: "none", stroke: "var(--robe)", "stroke-width": 3 }],
  ],
  12: [
    ["path", { d: "M21 18l3 6 6-8 6 8 3-6v10H21z", fill: "#f2c14e", stroke: "#8a6200", "stroke-width": 1 }],
    ["circle", { cx: 30, cy: 33, r: 7, fill: "#f3d2b3", stroke: "#333", "stroke-width": 1 }],
    ["path", { d: "M24 36c2 7 10 7 12 0 0 6-3 9-6 9s-6-3-6-9z", fill: "#eee", stroke: "#333", "stroke-width": 0.8 }],
    ["path", { d: "M19 45h22l5 33H14z", fill: "var(--robe)", stroke: "#333", "stroke-width": 1 }],
    ["path", { d: "M19 47h22v5H19z", fill: "#fff", opacity: 0.6 }],
  ],
};
// Where the figure holds its sign, and how big.
const FIGURE_SIGN = { 10: [44, 44, 14], 11: [44, 64, 13], 12: [44, 56, 14] };

function shape(tag, attributes) {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  return made;
}

// The suit sign as a nested <svg>: at (x, y), its centre, `size` across.
function placedSign(suit, x, y, size) {
  const sign = shape("svg", { x: x - size / 2, y: y - size / 2, width: size, height: size, viewBox: "0 0 24 24" });
  for (const [tag, attributes] of SIGNS[suit]) sign.appendChild(shape(tag, attributes));
  return sign;
}

function suitSign(suit) {
  const svg = shape("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" });
  svg.classList.add("sign");
  for (const [tag, attributes] of SIGNS[suit]) svg.appendChild(shape(tag, attributes));
  return svg;
}

// The middle of a face: one big sign for the ace, the pips to 7, or a figure.
function faceArt(rank, suit) {
  const svg = shape("svg", { viewBox: "0 0 60 90", "aria-hidden": "true" });
  svg.classList.add("art");
  svg.style.setProperty("--robe", INK[suit]);
  if (rank === 1) svg.appendChild(placedSign(suit, 30, 45, 44));
  else if (PIPS[rank]) {
    const size = rank <= 3 ? 23 : rank <= 5 ? 20 : 18;
    for (const [x, y] of PIPS[rank]) svg.appendChild(placedSign(suit, x, y, size));
  }
  else if (FIGURE_ART[rank]) {
    svg.appendChild(shape("rect", { x: 8, y: 10, width: 44, height: 72, rx: 4, fill: "none", stroke: INK[suit], "stroke-width": 1.2 }));
    for (const [tag, attributes] of FIGURE_ART[rank]) svg.appendChild(shape(tag, attributes));
    const [x, y, size] = FIGURE_SIGN[rank];
    svg.appendChild(placedSign(suit, x, y, size));
  } else svg.appendChild(placedSign(suit, 30, 45, 26)); // a rank no Spanish pack draws (8, 9)
  return svg;
}

// A card code ("3C", "12E") split into its rank and suit; null if it is none.
function parseCard(code) {
  const found = /^(\d{1,2})([OCEB])$/.exec(code || "");
  return found ? { rank: Number(found[1]), suit: found[2] } : null;
}

// A card face, as a <button> when it can be clicked, else a <div> read as an image.
// The corners carry the rank, broken by the suit's colour as Spanish packs do.
function cardFace(code, clickable) {
  const card = parseCard(code);
  const face = document.createElement(clickable ? "button" : "div");
  face.className = `card face suit-${card.suit} rank-${card.rank}`;
  face.dataset.card = code;
  const name = cardName(code);
  face.title = name;
  face.setAttribute("aria-label", name);
  if (!clickable) face.setAttribute("role", "img");
  for (const where of ["top", "bottom"]) {
    const corner = document.createElement("span");
    corner.className = `rank ${where}`;
    corner.setAttribute("aria-hidden", "true");
    corner.textContent = String(card.rank);
    face.appendChild(corner);
  }
  face.appendChild(faceArt(card.rank, card.suit));
  return face;
}

function cardBack() {
  const back = document.createElement("div");
  back.className = "card back";
  back.setAttribute("aria-hidden", "true");
  return back;
}
