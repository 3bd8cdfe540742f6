// Spanish cards drawn as HTML and inline SVG: the suit signs are simple shapes drawn
// for this page, no artwork from elsewhere.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const SUIT_NAMES = { O: "oros", C: "copas", E: "espadas", B: "bastos" };
const FIGURES = { 1: "As", 10: "Sota", 11: "Caballo", 12: "Rey" };

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

function suitSign(suit) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("sign");
  for (const [tag, attributes] of SIGNS[suit]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) shape.setAttribute(name, value);
    svg.appendChild(shape);
  }
  return svg;
}

// A card code ("3C", "12E") split into its rank and suit; null if it is none.
function parseCard(code) {
  const found = /^(\d{1,2})([OCEB])$/.exec(code || "");
  return found ? { rank: Number(found[1]), suit: found[2] } : null;
}

function cardName(code) {
  const card = parseCard(code);
  if (!card) return code;
  return `${FIGURES[card.rank] || card.rank} de ${SUIT_NAMES[card.suit]}`;
}

// A card face, as a <button> when it can be clicked, else a <div>.
function cardFace(code, clickable) {
  const card = parseCard(code);
  const face = document.createElement(clickable ? "button" : "div");
  face.className = `card suit-${card.suit}`;
  face.dataset.card = code;
  face.title = cardName(code);
  face.setAttribute("aria-label", cardName(code));
  const corner = document.createElement("span");
  corner.className = "rank";
  corner.textContent = String(card.rank);
  const figure = document.createElement("span");
  figure.className = "figure";
  figure.textContent = FIGURES[card.rank] || "";
  face.append(corner, suitSign(card.suit), figure);
  return face;
}

function cardBack() {
  const back = document.createElement("div");
  back.className = "card back";
  return back;
}
