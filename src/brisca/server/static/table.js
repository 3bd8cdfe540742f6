// The web table: the lobby that deals a table, and the table itself, which shows
// what the server sends this seat and sends back the actions clicked. It knows no
// rule of the game: the legal actions, the reasons, the views and the results all
// come from the server, which has them from the library. What it adds is how a
// table looks: seats around it, the trick in the middle, a pause to see each trick.
"use strict";

const $ = (selector) => document.querySelector(selector);
const $$ = (selector) => Array.from(document.querySelectorAll(selector));
const PLAY = /^\d{1,2}[OCEB]$/;
const HOLD_MS = 1500; // how long a completed trick stays on the table
const GATHER_MS = 350; // how long it takes to gather it to the winner

// ---------------------------------------------------------------------------
// The words, in English and Spanish: every text the page shows is here. The
// English mirrors the terminal's (brisca/formats/text.py) where it can.

const SUITS = { O: "oros", C: "copas", E: "espadas", B: "bastos" };
const ES_RANKS = {
  1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
  8: "ocho", 9: "nueve", 10: "sota", 11: "caballo", 12: "rey",
};
const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const dash = (a, b) => `${a}\u2013${b}`;

const WORDS = {
  en: {
    otherLanguage: "Español",
    // the lobby and the page's fixed texts
    newTable: "A new table", rules: "Rules", wholeMatch: "play a whole match",
    yourName: "Your name", seatsLegend: "Seats", deal: "Deal",
    sendLinks: "Send each player their link",
    linkSecret: "Each link holds that seat's secret: whoever opens it plays there.",
    sit: "Sit at seat 0", nextHand: "Next hand", download: "Download the record",
    newTableLink: "New table", emptySeats: "Seats nobody has taken:",
    fill: "Fill them with bots", logTitle: "What happened",
    presetOption: (name, n) => `${name} (${n} players)`,
    seatChoice: (k) => `Seat ${k} `, bot: (name) => `${name} bot`,
    person: "a person (send a link)", where: (id) => `table ${id}`,
    connecting: "connecting", connected: "connected",
    disconnected: "disconnected: joining again", notSeated: "not seated",
    notConnected: "Not connected: the move was not sent.",
    // cards and seats
    card: (rank, suit) => `${rank} of ${SUITS[suit]}`,
    the: (name) => `the ${name}`,
    you: "you", seat: (k) => `seat ${k}`, and: " + ",
    dealer: "dealer", toPlay: "to play", toBid: "to bid", partner: "partner",
    away: "away", nobody: "nobody yet", sitsOut: "sits out this hand",
    cards: (n) => `${n} card${n === 1 ? "" : "s"}`,
    declarer: "declarer", caller: "caller",
    seatLabel: (name, parts) => [name, ...parts].join(", "),
    // the trump and the stock
    trumps: (suit) => `Trumps: ${SUITS[suit]}`, noTrumpYet: "No trump yet",
    covered: "Trump covered (cubierta)",
    stockLabel: (n) => `the stock: ${n} card${n === 1 ? "" : "s"}`,
    turnedCard: (name) => `turned card: ${name}`,
    tookTurned: (who, name) => `${cap(who)} took the turned card, ${name}`,
    // the scores
    sideScore: (points, tricks) =>
      `${points} point${points === 1 ? "" : "s"} · ${tricks} trick${tricks === 1 ? "" : "s"}`,
    // the turn
    yourTurn: "Your turn", othersTurn: (who) => `${cap(who)} to play`,
    othersBid: (who) => `${cap(who)} to bid`,
    gatherHint: "Click the table to go on",
    waitNext: "The hand is over: deal the next one when you are ready",
    // señas
    signalNames: {
      lip_bite: "lip bite", shoulder: "shoulder", wink: "wink", head_shake: "head shake",
      lips: "lips", eyes_up: "eyes up",
    },
    meanings: {
      s000: {
        lip_bite: "I hold the 1 of trumps, without the 3",
        shoulder: "I hold the 3 of trumps, without the 1",
        wink: "I hold both the 1 and the 3 of trumps",
        head_shake: "I hold no trumps at all",
      },
      traditional: {
        lips: "I hold the 1 of trumps",
        wink: "I hold the 3 of trumps (also made as a twist of the mouth)",
        eyes_up: "I hold the 12 of trumps",
        shoulder: "I hold the 11 or the 10 of trumps (also made with the tongue)",
      },
    },
    signalSaid: (name, meaning) => `${name}: ${meaning}`,
    signalButton: (name, meaning) => `Seña “${name}”: ${meaning}`,
    // the auction and the contract
    bids: "Bids", bidRank: (rank) => `bid the ${rank}`, bidPoints: (n) => `bid ${n}`,
    pass: "pass",
    contract: (who, bid) => `${cap(who)} won the auction with ${bid}`,
    trumpNamed: (suit) => `trumps: ${SUITS[suit]}`,
    called: (name, partner) => `called ${name}; partner: ${partner}`,
    secret: "secret",
    cante: (who, points, suit) => `${who} sang ${points} in ${SUITS[suit]}`,
    cantes: "Cantes",
    // the actions
    swap: (name) => `Swap ${name} for the turned card`,
    claim: "Show a black hand and win the hand",
    nameTrump: (suit) => `Trumps: ${SUITS[suit]}`,
    call: (name) => `Call ${name}`, sing: (suit) => `Sing the pair in ${SUITS[suit]}`,
    goBid: "Bid", goCall: "Call", passButton: "Pass",
    // the result
    voidHand: "A void hand: everyone passed, so no card was played and nobody scores",
    pointsLine: (parts) => `Points: ${parts.join(", ")}`,
    tricksLine: (parts) => `Tricks: ${parts.join(", ")}`,
    youWon: (score) => `You won, ${score}`, youLost: (score) => `You lost, ${score}`,
    sideWon: (side, score) => `${cap(side)} won, ${score}`,
    wonWith: (side, p) => `${cap(side)} won with ${p}`, youTook: (p) => `; you took ${p}`,
    tie2: (score) => `A tie, ${score}`,
    tieMany: (p, names) => `A tie at ${p} between ${names.join(" and ")}`,
    tieAgain: "the hand is dealt again",
    tieAgainDouble: "the hand is dealt again, and the next one counts double",
    tieHalf: "the tied sides share the hand, half each",
    tieDrawn: "the hand is drawn",
    tieLast: (tie, side, mine) =>
      `${tie}: ${side} took the last trick, so ${mine ? "win" : "wins"} the hand`,
    blackHand: (side, mine, suit) =>
      `${mine ? "You" : cap(side)} won with a black hand, the 1, 3 and 12 of ${SUITS[suit]}`,
    noWinner: "No winner",
    contractResult: ({ who, needed, took, cards, cantes, made }) =>
      `The declarer (${who}) needed ${needed} and took ${took}` +
      (cantes ? ` (${cards} in cards + ${cantes} in cantes)` : "") +
      `: ${made ? "the contract was made" : "the contract failed"}.`,
    callerResult: ({ who, needed, took, made, name, partner, alone }) =>
      `The caller (${who}) called ${name} and ${alone ? "held it, playing alone" : `had ${partner} for a partner`}; ` +
      `the side needed ${needed} and took ${took}: ${made ? "the contract was made" : "the contract failed"}.`,
    // matches
    handNumber: (n) => `Hand ${n}`,
    target: (mode, n) =>
      mode === "single_hand" ? "one hand" :
        `first to ${n} ${{ hands_won: "hands won", game_points: "game points", cumulative_card_points: "card points" }[mode]}`,
    dealsNext: (who, mine) => (mine ? "You deal next" : `${cap(who)} deals next`),
    stake: (x) => `the next hand counts ×${x}`,
    replayed: "the tie counts for nothing: the same dealer deals again",
    standings: (text) => `Standings: ${text}`,
    matchWon: "You won the match", matchDrawn: "The match is drawn",
    matchLost: (side) => `You lost the match: ${side} won it`,
    matchOther: (side) => `${cap(side)} won the match`,
    matchAfter: (n) => `after ${n} hand${n === 1 ? "" : "s"}`,
    // what happened, for the log
    played: (who, name) => `${who} played ${name}`,
    wonTrick: (who, n, points) => `${who} won trick ${n} (${points} points)`,
    drew: (who, name) => `${who} drew ${name}`, drewOne: (who) => `${who} drew a card`,
    trumpShown: (suit) => `the trump is shown: ${SUITS[suit]}`,
    swapped: (who, given, taken) => `${who} swapped ${given} for the turned card, ${taken}`,
    blackClaimed: (who) => `${who} showed a black hand`,
    signalled: (who, said) => `${who} signalled ${said}`,
    announced: (who, what) => `${who}: ${what}`,
    auctionWon: (who, bid) => `${who} won the auction with ${bid}`,
    partnerShown: (who) => `the called card shows the partner: ${who}`,
    handEnded: (score) => `hand over: ${score}`,
  },
  es: {
    otherLanguage: "English",
    newTable: "Una mesa nueva", rules: "Reglas", wholeMatch: "jugar una partida entera",
    yourName: "Tu nombre", seatsLegend: "Asientos", deal: "Repartir",
    sendLinks: "Envía a cada jugador su enlace",
    linkSecret: "Cada enlace guarda el secreto de su asiento: quien lo abra juega ahí.",
    sit: "Siéntate en el asiento 0", nextHand: "Siguiente mano",
    download: "Descargar el registro", newTableLink: "Mesa nueva",
    emptySeats: "Asientos libres:", fill: "Llenarlos de bots", logTitle: "Qué ha pasado",
    presetOption: (name, n) => `${name} (${n} jugadores)`,
    seatChoice: (k) => `Asiento ${k} `, bot: (name) => `bot ${name}`,
    person: "una persona (envía un enlace)", where: (id) => `mesa ${id}`,
    connecting: "conectando", connected: "conectado",
    disconnected: "desconectado: volviendo a entrar", notSeated: "sin asiento",
    notConnected: "Sin conexión: la jugada no se ha enviado.",
    card: (rank, suit) => `${ES_RANKS[rank] || rank} de ${SUITS[suit]}`,
    the: (name) => (name.startsWith("as ") ? `el ${name}` : /^(sota) /.test(name) ? `la ${name}` : `el ${name}`),
    you: "tú", seat: (k) => `asiento ${k}`, and: " + ",
    dealer: "reparte", toPlay: "juega", toBid: "apuesta", partner: "compañero",
    away: "ausente", nobody: "aún vacío", sitsOut: "descansa esta mano",
    cards: (n) => `${n} carta${n === 1 ? "" : "s"}`,
    declarer: "ganó la subasta", caller: "llamó",
    seatLabel: (name, parts) => [name, ...parts].join(", "),
    trumps: (suit) => `Triunfo: ${SUITS[suit]}`, noTrumpYet: "Aún sin triunfo",
    covered: "Triunfo tapado (cubierta)",
    stockLabel: (n) => `el mazo: ${n} carta${n === 1 ? "" : "s"}`,
    turnedCard: (name) => `carta vuelta: ${name}`,
    tookTurned: (who, name) =>
      who === "tú" ? `Te llevaste la carta vuelta, ${name}` : `${cap(who)} se llevó la carta vuelta, ${name}`,
    sideScore: (points, tricks) =>
      `${points} punto${points === 1 ? "" : "s"} · ${tricks} baza${tricks === 1 ? "" : "s"}`,
    yourTurn: "Tu turno", othersTurn: (who) => `Juega ${who}`,
    othersBid: (who) => `Apuesta ${who}`,
    gatherHint: "Haz clic en la mesa para seguir",
    waitNext: "La mano ha terminado: reparte la siguiente cuando quieras",
    signalNames: {
      lip_bite: "morderse el labio", shoulder: "hombro", wink: "guiño",
      head_shake: "negar con la cabeza", lips: "labios", eyes_up: "ojos arriba",
    },
    meanings: {
      s000: {
        lip_bite: "tengo el as de triunfo, sin el tres",
        shoulder: "tengo el tres de triunfo, sin el as",
        wink: "tengo el as y el tres de triunfo",
        head_shake: "no tengo ningún triunfo",
      },
      traditional: {
        lips: "tengo el as de triunfo",
        wink: "tengo el tres de triunfo (también torciendo la boca)",
        eyes_up: "tengo el rey de triunfo",
        shoulder: "tengo el caballo o la sota de triunfo (también con la lengua)",
      },
    },
    signalSaid: (name, meaning) => `${name}: ${meaning}`,
    signalButton: (name, meaning) => `Seña «${name}»: ${meaning}`,
    bids: "Apuestas", bidRank: (rank) => `apuesta al ${ES_RANKS[rank] || rank}`,
    bidPoints: (n) => `apuesta ${n}`, pass: "paso",
    contract: (who, bid) => `${cap(who)} ganó la subasta con ${bid}`,
    trumpNamed: (suit) => `triunfo: ${SUITS[suit]}`,
    called: (name, partner) => `llamó ${name}; compañero: ${partner}`,
    secret: "secreto",
    cante: (who, points, suit) => `${who} cantó las ${points} en ${SUITS[suit]}`,
    cantes: "Cantes",
    swap: (name) => `Cambiar ${name} por la carta vuelta`,
    claim: "Mostrar la mano negra y ganar la mano",
    nameTrump: (suit) => `Triunfo: ${SUITS[suit]}`,
    call: (name) => `Llamar ${name}`, sing: (suit) => `Cantar en ${SUITS[suit]}`,
    goBid: "Apostar", goCall: "Llamar", passButton: "Paso",
    voidHand: "Una mano nula: todos pasaron, no se jugó ninguna carta y nadie puntúa",
    pointsLine: (parts) => `Puntos: ${parts.join(", ")}`,
    tricksLine: (parts) => `Bazas: ${parts.join(", ")}`,
    youWon: (score) => `Has ganado, ${score}`, youLost: (score) => `Has perdido, ${score}`,
    sideWon: (side, score) => `${cap(side)} ganó, ${score}`,
    wonWith: (side, p) => `${cap(side)} ganó con ${p}`, youTook: (p) => `; tú sumaste ${p}`,
    tie2: (score) => `Empate, ${score}`,
    tieMany: (p, names) => `Empate a ${p} entre ${names.join(" y ")}`,
    tieAgain: "la mano se reparte otra vez",
    tieAgainDouble: "la mano se reparte otra vez, y la siguiente vale doble",
    tieHalf: "los empatados se reparten la mano, la mitad cada uno",
    tieDrawn: "la mano queda en tablas",
    tieLast: (tie, side, mine) =>
      `${tie}: ${side} se llevó la última baza, así que ${mine ? "ganas" : "gana"} la mano`,
    blackHand: (side, mine, suit) =>
      `${mine ? "Has ganado" : `${cap(side)} ganó`} con la mano negra: el as, el tres y el rey de ${SUITS[suit]}`,
    noWinner: "Nadie gana",
    contractResult: ({ who, needed, took, cards, cantes, made }) =>
      `Quien ganó la subasta (${who}) necesitaba ${needed} y sumó ${took}` +
      (cantes ? ` (${cards} en cartas + ${cantes} en cantes)` : "") +
      `: ${made ? "el contrato se cumplió" : "el contrato fracasó"}.`,
    callerResult: ({ who, needed, took, made, name, partner, alone }) =>
      `Quien llamó (${who}) llamó ${name} y ${alone ? "la tenía: jugó solo" : `tuvo a ${partner} de compañero`}; ` +
      `el bando necesitaba ${needed} y sumó ${took}: ${made ? "el contrato se cumplió" : "el contrato fracasó"}.`,
    handNumber: (n) => `Mano ${n}`,
    target: (mode, n) =>
      mode === "single_hand" ? "una mano" :
        `gana quien llegue a ${n} ${{ hands_won: "manos ganadas", game_points: "puntos de partida", cumulative_card_points: "puntos de cartas" }[mode]}`,
    dealsNext: (who, mine) => (mine ? "Repartes tú la siguiente" : `Reparte la siguiente ${who}`),
    stake: (x) => `la siguiente mano vale ×${x}`,
    replayed: "el empate no cuenta: reparte otra vez el mismo",
    standings: (text) => `Clasificación: ${text}`,
    matchWon: "Has ganado la partida", matchDrawn: "La partida queda en tablas",
    matchLost: (side) => `Has perdido la partida: la ganó ${side}`,
    matchOther: (side) => `${cap(side)} ganó la partida`,
    matchAfter: (n) => `tras ${n} mano${n === 1 ? "" : "s"}`,
    played: (who, name) => (who === "tú" ? `jugaste ${name}` : `${who} jugó ${name}`),
    wonTrick: (who, n, points) =>
      `${who === "tú" ? "ganaste" : `${who} ganó`} la baza ${n} (${points} puntos)`,
    drew: (who, name) => (who === "tú" ? `robaste ${name}` : `${who} robó ${name}`),
    drewOne: (who) => (who === "tú" ? "robaste una carta" : `${who} robó una carta`),
    trumpShown: (suit) => `se muestra el triunfo: ${SUITS[suit]}`,
    swapped: (who, given, taken) => `${who} cambió ${given} por la carta vuelta, ${taken}`,
    blackClaimed: (who) => `${who} mostró la mano negra`,
    signalled: (who, said) => `${who} hizo la seña ${said}`,
    announced: (who, what) => `${who}: ${what}`,
    auctionWon: (who, bid) => `${who} ganó la subasta con ${bid}`,
    partnerShown: (who) => `la carta llamada muestra al compañero: ${who}`,
    handEnded: (score) => `fin de la mano: ${score}`,
  },
};

let language = WORDS[localStorage.getItem("brisca-language")] ? localStorage.getItem("brisca-language") : "en";
const W = () => WORDS[language];

function cardName(code) {
  const card = parseCard(code);
  return card ? W().card(card.rank, card.suit) : String(code);
}
const theCard = (code) => W().the(cardName(code));

// What the page needs of the rules that the view gives only as a preset and its
// overrides: the match's goal, the señas' vocabulary, which way play goes.
const MATCH_GOALS = {
  "subastada-3p": ["game_points", 500], "subastada-4p": ["game_points", 500],
  "chiamata-5p": ["game_points", 10], "chilean-rematada": ["cumulative_card_points", 101],
};
function ruleOf(update, name) {
  const rules = update.view.rules || {};
  const overrides = rules.overrides || {};
  if (name in overrides) return overrides[name];
  const goal = MATCH_GOALS[rules.preset] || ["hands_won", 3];
  const covered = rules.preset === "cubierta-2p" ? "cubierta" : "face_up";
  const defaults = {
    match_mode: goal[0], match_target: goal[1], signal_vocabulary: "s000", direction: "ccw",
    trump_visibility: covered,
  };
  return defaults[name];
}

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

// The page's fixed texts, in the language chosen.
function relabel() {
  document.documentElement.lang = language;
  $$("[data-words]").forEach((node) => { node.textContent = W()[node.dataset.words]; });
  const button = $("#lang");
  button.textContent = W().otherLanguage;
  button.lang = language === "en" ? "es" : "en";
}

function switchLanguage() {
  language = language === "en" ? "es" : "en";
  localStorage.setItem("brisca-language", language);
  relabel();
  if (lobby.redraw) lobby.redraw();
  if (table.shown) {
    $("#where").textContent = W().where(table.id);
    render();
    renderLog();
  }
}

// ---------------------------------------------------------------------------
// The lobby

const lobby = { options: null, redraw: null };

async function startLobby() {
  $("#lobby").hidden = false;
  $("#where").textContent = "";
  const options = await (await fetch("/api/options")).json();
  lobby.options = options;
  const select = $("#preset");
  const presetOptions = () => {
    const chosen = select.value;
    select.replaceChildren();
    for (const preset of options.presets) {
      const option = element("option", "", W().presetOption(preset.name, preset.players));
      option.value = preset.name;
      select.appendChild(option);
    }
    if (chosen) select.value = chosen;
  };
  presetOptions();
  $("#name").value = localStorage.getItem("brisca-name") || "";
  const seatChoices = () => {
    const preset = options.presets.find((p) => p.name === select.value);
    $("#match").disabled = !preset.match;
    if (!preset.match) $("#match").checked = false;
    const box = $("#seat-choices");
    const before = $$("#seat-choices select").map((s) => s.value);
    box.querySelectorAll("label").forEach((label) => label.remove());
    for (let seat = 0; seat < preset.players; seat++) {
      const label = element("label", "seat-choice", W().seatChoice(seat));
      if (seat === 0) {
        label.appendChild(element("strong", "", W().you));
      } else {
        const choice = element("select");
        choice.dataset.seat = String(seat);
        for (const bot of options.bots) {
          const option = element("option", "", W().bot(bot));
          option.value = bot;
          option.selected = bot === (before[seat - 1] || "heuristic");
          choice.appendChild(option);
        }
        const person = element("option", "", W().person);
        person.value = "human";
        person.selected = before[seat - 1] === "human";
        choice.appendChild(person);
        label.appendChild(choice);
      }
      box.appendChild(label);
    }
  };
  lobby.redraw = () => { presetOptions(); seatChoices(); };
  select.addEventListener("change", seatChoices);
  seatChoices();
  $("#new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    localStorage.setItem("brisca-name", $("#name").value);
    const seats = ["human"];
    $$("#seat-choices select").forEach((s) => seats.push(s.value));
    const answer = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rules: select.value, match: $("#match").checked, seats }),
    });
    const made = await answer.json();
    if (!answer.ok) {
      $("#lobby-error").textContent = made.error;
      return;
    }
    if (made.links.length === 1) {
      location.assign(made.links[0].url);
      return;
    }
    $("#new-table").hidden = true;
    $("#links").hidden = false;
    for (const link of made.links.slice(1)) {
      const item = element("li", "", W().seatChoice(link.seat));
      const field = element("input");
      field.readOnly = true;
      field.value = link.url;
      field.setAttribute("aria-label", W().seat(link.seat));
      field.addEventListener("focus", () => field.select());
      item.appendChild(field);
      $("#link-list").appendChild(item);
    }
    $("#sit").href = made.links[0].url;
  });
}

// ---------------------------------------------------------------------------
// The connection

const table = {
  id: decodeURIComponent(location.pathname.split("/")[2] || ""),
  token: location.hash.slice(1),
  socket: null,
  retry: 500,
  stopped: false,
  updates: 0,
  queue: [], // updates received, not shown yet: the table is pausing on a trick or a hand
  shown: null, // the update shown
  hand: null, // the hand shown: the update's, or a finished one kept until "Next hand"
  completed: null, // the trick on show after it was won, until it is gathered
  between: false, // a match's hand is over and the next waits for the player
  hold: null, // null, "trick", "gathering" or "between": while set, the queue waits
  timer: null,
  log: [], // the events seen, newest last
  tricks: [], // the finished tricks of the hand, as the updates received so far give them
};

async function startTable() {
  $("#table").hidden = false;
  $("#where").textContent = W().where(table.id);
  $("#fill").addEventListener("click", () => send({ type: "fill", bot: $("#fill-bot").value }));
  $("#felt").addEventListener("click", catchUp); // a click: go on at once, no gathering shown
  $("#next-hand").addEventListener("click", nextHand);
  document.addEventListener("keydown", keyPressed);
  connect();
  const options = await (await fetch("/api/options")).json();
  for (const bot of options.bots) {
    const option = element("option", "", W().bot(bot));
    option.value = bot;
    $("#fill-bot").appendChild(option);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(`${scheme}${location.host}/ws`);
  table.socket = socket;
  status("connecting");
  socket.addEventListener("open", () => {
    table.retry = 500;
    const name = localStorage.getItem("brisca-name") || null;
    socket.send(JSON.stringify({ type: "join", table: table.id, token: table.token, name }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data), socket));
  socket.addEventListener("close", () => {
    if (table.stopped) return;
    status("disconnected");
    setTimeout(connect, table.retry);
    table.retry = Math.min(table.retry * 2, 5000);
  });
}

function send(message) {
  if (table.socket && table.socket.readyState === WebSocket.OPEN) {
    table.socket.send(JSON.stringify(message));
  } else {
    say(W().notConnected, true);
  }
}

function status(key) {
  $("#status").textContent = W()[key];
  document.body.dataset.status = key === "notSeated" ? "not seated" : key;
}

function say(text, isError) {
  const box = $("#message");
  box.textContent = text;
  box.classList.toggle("error", Boolean(isError));
}

function receive(message, socket) {
  if (message.type === "error") {
    catchUp(); // the reason is about the table as it is now: show it so
    say(message.error, true);
    if (["no_table", "bad_token", "replaced", "expired"].includes(message.code)) {
      table.stopped = true;
      table.socket.close();
      status("notSeated");
    }
    return;
  }
  if (message.type === "update") {
    if (!wholeView(message)) {
      socket.close(); // tricks we do not hold: a new connection gets a full view
      return;
    }
    status("connected");
    table.queue.push(message);
    pump();
  }
}

// An update holds only the finished tricks not sent before, from index tricks_from
// (0 and all of them in a full view): keep the list, and make the view whole again.
function wholeView(message) {
  const hand = message.match ? message.view.current : message.view;
  if (!hand || hand.tricks_from === undefined) return true;
  if (hand.tricks_from > table.tricks.length) return false;
  hand.tricks = table.tricks.slice(0, hand.tricks_from).concat(hand.tricks);
  delete hand.tricks_from;
  table.tricks = hand.tricks;
  return true;
}

// Show the updates received, one after the other, unless the table is pausing.
function pump() {
  while (!table.hold && table.queue.length) show(table.queue.shift());
}

const handOf = (update) => (update.match ? update.view.current : update.view);
const lastEvent = (update, type) => update.events.filter((e) => e.type === type).pop();

function show(update) {
  const fresh = table.shown === null;
  const before = table.hand;
  table.shown = update;
  table.updates += 1;
  document.body.dataset.updates = String(table.updates);
  table.log.push(...update.events);
  if (table.log.length > 200) table.log.splice(0, table.log.length - 200);
  say(""); // an error is about the move before: it goes with the next update
  const won = lastEvent(update, "trick_won");
  const ended = lastEvent(update, "hand_ended");
  let hand = handOf(update);
  const keep = Boolean(ended && update.match && before && !fresh);
  if (keep) hand = finishedHand(before, update, won);
  table.hand = hand;
  table.between = keep && !update.over;
  table.completed = won && !fresh && hand && hand.tricks[won.trick] ? hand.tricks[won.trick] : null;
  render();
  renderLog();
  if (table.completed) {
    table.hold = "trick";
    table.timer = setTimeout(gather, HOLD_MS);
  } else if (table.between) table.hold = "between";
}

// A match deals the next hand at once: the finished one, as it ended, from the hand
// shown before and the events of its last move.
function finishedHand(before, update, won) {
  const played = update.events.filter((e) => e.type === "card_played");
  const record = update.view.hands[update.view.hands.length - 1];
  const sizes = before.hand_sizes.slice();
  for (const e of played) sizes[e.seat] = Math.max(0, sizes[e.seat] - 1);
  const tricks = before.tricks.slice();
  const points = before.side_points.slice();
  if (won) {
    const cards = [...before.trick, ...played.map((e) => [e.seat, e.card])].slice(-update.seats.length);
    tricks.push({ leader: cards[0][0], cards, winner: won.seat, points: won.points });
    const side = before.sides.findIndex((s) => s.includes(won.seat));
    if (side >= 0) points[side] += won.points;
  }
  const mine = new Set(played.filter((e) => e.seat === update.seat).map((e) => e.card));
  return {
    ...before, trick: won ? [] : before.trick, tricks, hand_sizes: sizes, side_points: points,
    hand: before.hand.filter((c) => !mine.has(c)), to_act: null, record, stock_size: 0,
  };
}

function gather() {
  if (table.hold !== "trick") return;
  clearTimeout(table.timer);
  table.hold = "gathering";
  const trick = $("#trick");
  const to = placeOf(table.shown, table.completed.winner);
  trick.style.setProperty("--gx", `${to.seatX}%`);
  trick.style.setProperty("--gy", `${to.seatY}%`);
  trick.classList.add("gathering");
  table.timer = setTimeout(gathered, GATHER_MS);
}

function gathered() {
  clearTimeout(table.timer);
  table.completed = null;
  table.hold = table.between ? "between" : null;
  $("#trick").classList.remove("gathering");
  render();
  pump();
}

// Skip the pause on a trick: a card was chosen, or the server has something to say.
function catchUp() {
  if (table.hold === "trick" || table.hold === "gathering") gathered();
}

function nextHand() {
  if (table.hold !== "between") return;
  table.hold = null;
  table.between = false;
  table.hand = handOf(table.shown);
  render();
  pump();
}

function keyPressed(event) {
  const typing = event.target.closest && event.target.closest("input, select, textarea");
  if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[1-9]$/.test(event.key)) {
    const card = $$("#hand .card")[Number(event.key) - 1];
    if (card) {
      event.preventDefault();
      card.click();
    }
  } else if ((event.key === "Enter" || event.key === " ") && event.target === document.body) {
    if (table.hold === "trick") catchUp();
    else if (table.hold === "between") nextHand();
  }
}

// ---------------------------------------------------------------------------
// Seats, sides and where each sits

function seatName(update, seat) {
  if (seat === update.seat) return W().you;
  const info = update.seats[seat];
  const named = info && info.kind === "human" && info.name && info.name !== `seat ${seat}`;
  return named ? info.name : W().seat(seat);
}

function sideName(update, side) {
  return side.map((seat) => seatName(update, seat)).join(W().and);
}

// You at the bottom; the seat after you on your right when play goes
// counter-clockwise (SPEC §0), so that in four your partner sits opposite.
function placeOf(update, seat) {
  const n = update.seats.length;
  const turn = (seat - update.seat + n) % n;
  const way = ruleOf(update, "direction") === "cw" ? 1 : -1;
  const angle = ((90 + (way * turn * 360) / n) * Math.PI) / 180;
  const x = Math.cos(angle), y = Math.sin(angle);
  const narrow = window.innerWidth <= 480;
  return {
    turn,
    seatX: 50 + 43 * x, seatY: 50 + 41 * y,
    cardX: 50 + (narrow ? 23 : 25) * x, cardY: 50 + 22 * y,
  };
}

function sidesInOrder(update, hand) {
  const order = hand.sides.map((side, k) => k);
  const mine = hand.sides.findIndex((side) => side.includes(update.seat));
  if (mine > 0) order.unshift(...order.splice(mine, 1));
  return order;
}

// ---------------------------------------------------------------------------
// Drawing the table

function render() {
  const update = table.shown;
  const hand = table.hand;
  renderScores(update, hand);
  renderSeats(update, hand);
  renderPile(update, hand);
  renderTrick(update, hand);
  renderAuction(update, hand);
  renderContract(update, hand);
  renderMatch(update);
  renderTurn(update, hand);
  renderHand(update, hand);
  renderActions(update);
  renderOver(update, hand);
  const empty = update.seats.filter((s) => s.kind === "human" && !s.joined);
  $("#fill-box").hidden = empty.length === 0 || update.over;
}

function renderScores(update, hand) {
  const box = $("#scores");
  box.replaceChildren();
  if (!hand) return;
  for (const k of sidesInOrder(update, hand)) {
    const side = hand.sides[k];
    const tricks = hand.tricks.filter((t) => side.includes(t.winner)).length;
    const row = element("div", "side");
    if (side.includes(update.seat)) row.classList.add("mine");
    row.dataset.side = String(k);
    row.append(element("span", "side-name", cap(sideName(update, side))), " ",
      element("span", "side-score", W().sideScore(hand.side_points[k], tricks)));
    box.appendChild(row);
  }
}

function renderSeats(update, hand) {
  const box = $("#seats");
  box.replaceChildren();
  const playing = new Set(hand ? hand.sides.flat() : []);
  const mySide = hand ? hand.sides.find((side) => side.includes(update.seat)) || [] : [];
  const contract = hand ? hand.contract : null;
  update.seats.forEach((info, seat) => {
    const place = placeOf(update, seat);
    const mine = seat === update.seat;
    const box2 = element("div", `seat${mine ? " me" : ""}`);
    box2.dataset.seat = String(seat);
    box2.style.setProperty("--x", `${place.seatX}%`);
    box2.style.setProperty("--y", `${place.seatY}%`);
    if (Math.abs(place.seatX - 50) < 20) box2.classList.add("across");
    const tags = [];
    if (!mine && info.kind === "bot") tags.push(W().bot(info.bot));
    if (hand && mySide.length > 1 && mySide.includes(seat) && !mine) tags.push(W().partner);
    if (hand && hand.dealer === seat) tags.push(W().dealer);
    if (contract && contract.declarer === seat) tags.push(contract.called ? W().caller : W().declarer);
    if (contract && contract.partner === seat && contract.partner !== contract.declarer) tags.push(W().partner);
    if (hand && !playing.has(seat)) tags.push(W().sitsOut);
    if (info.kind === "human" && !info.joined) tags.push(W().nobody);
    else if (!info.connected) tags.push(W().away);
    const acting = hand && hand.to_act === seat && !table.completed;
    if (acting) {
      box2.classList.add("to-act");
      tags.push(auctionOn(hand) ? W().toBid : W().toPlay);
    }
    if (!info.connected) box2.classList.add("away");
    if (hand && hand.dealer === seat) box2.classList.add("dealer");
    const plate = element("div", "plate");
    plate.append(element("span", "seat-name", cap(seatName(update, seat))));
    if (tags.length) plate.append(element("span", "seat-tags", tags.join(" · ")));
    const count = hand ? hand.hand_sizes[seat] : 0;
    box2.setAttribute("aria-label", W().seatLabel(cap(seatName(update, seat)), [...tags, W().cards(count)]));
    box2.appendChild(plate);
    if (!mine) {
      const backs = element("div", "backs");
      for (let k = 0; k < count; k++) backs.appendChild(cardBack());
      box2.appendChild(backs);
    }
    for (const said of hand ? hand.signals.filter((s) => s.seat === seat) : []) {
      const bubble = element("div", "bubble sena", signalSaid(update, said.signal));
      bubble.dataset.signal = said.signal;
      box2.appendChild(bubble);
    }
    if (hand && auctionOn(hand)) {
      const bid = hand.bids.filter((b) => b.seat === seat).pop();
      if (bid) box2.appendChild(element("div", "bubble bid", bidText(bid.bid)));
    }
    box.appendChild(box2);
  });
}

function signalMeaning(update, name) {
  const meanings = W().meanings;
  const vocabulary = meanings[ruleOf(update, "signal_vocabulary")] || {};
  return vocabulary[name] || (meanings.s000[name] || meanings.traditional[name] || "");
}

function signalSaid(update, name) {
  return W().signalSaid(W().signalNames[name] || name, signalMeaning(update, name));
}

function renderPile(update, hand) {
  const pile = $("#pile");
  const stock = $("#stock-pile");
  const turned = $("#trump-card");
  stock.replaceChildren();
  turned.replaceChildren();
  const size = hand ? hand.stock_size : 0;
  for (let k = 0; k < Math.min(size, 4); k++) stock.appendChild(cardBack());
  $("#stock").textContent = size ? String(size) : "";
  $("#stock").hidden = !size;
  const labels = [];
  if (size) labels.push(W().stockLabel(size));
  if (hand && hand.trump_card) {
    turned.appendChild(cardFace(hand.trump_card, false));
    labels.push(W().turnedCard(cardName(hand.trump_card)));
  }
  pile.hidden = !labels.length;
  pile.setAttribute("aria-label", labels.join("; "));
  const line = $("#trump-line");
  line.replaceChildren();
  if (!hand) return;
  if (hand.trump) {
    line.append(suitSign(hand.trump), element("span", "", W().trumps(hand.trump)));
  } else {
    const covered = ruleOf(update, "trump_visibility") === "cubierta";
    line.append(element("span", "", covered ? W().covered : W().noTrumpYet));
  }
  if (hand.trump_card_drawn) {
    const [seat, card] = hand.trump_card_drawn;
    line.append(element("span", "drawn", W().tookTurned(seatName(update, seat), theCard(card))));
  }
}

function renderTrick(update, hand) {
  const box = $("#trick");
  box.replaceChildren();
  const completed = table.completed;
  const cards = completed ? completed.cards : hand ? hand.trick : [];
  $("#felt").classList.toggle("holding", Boolean(completed));
  for (const [seat, code] of cards) {
    const place = placeOf(update, seat);
    const played = element("div", "played");
    played.dataset.seat = String(seat);
    played.style.setProperty("--x", `${place.cardX}%`);
    played.style.setProperty("--y", `${place.cardY}%`);
    const face = cardFace(code, false);
    face.setAttribute("aria-label", `${cardName(code)}: ${seatName(update, seat)}`);
    played.appendChild(face);
    if (completed && completed.winner === seat) {
      played.classList.add("winner");
      const says = `${cap(seatName(update, seat))} +${completed.points}`;
      played.appendChild(element("span", "takes", says));
    }
    box.appendChild(played);
  }
  if (completed) box.appendChild(element("div", "hint", W().gatherHint));
}

function auctionOn(hand) {
  return hand.contract === null && hand.trump === null && (hand.bids.length > 0 || table.shown.legal.some((a) => a.startsWith("bid") || a === "pass"));
}

function bidText(bid) {
  let m;
  if ((m = /^bid rank (\d+)$/.exec(bid))) return W().bidRank(m[1]);
  if ((m = /^bid (\d+)$/.exec(bid))) return W().bidPoints(m[1]);
  if (bid === "pass") return W().pass;
  return bid;
}

function renderAuction(update, hand) {
  const box = $("#auction");
  box.replaceChildren();
  box.hidden = !(hand && auctionOn(hand) && hand.bids.length && !table.completed);
  if (box.hidden) return;
  box.appendChild(element("div", "label", W().bids));
  const list = element("ol", "bids");
  for (const bid of hand.bids) list.appendChild(element("li", "", `${cap(seatName(update, bid.seat))}: ${bidText(bid.bid)}`));
  box.appendChild(list);
}

// The contract and the cantes, in view all hand once the auction is over.
function contractText(update, hand) {
  const contract = hand.contract;
  const parts = [];
  if (contract) {
    let text = W().contract(seatName(update, contract.declarer), bidText(contract.bid));
    if (contract.trump) text += `; ${W().trumpNamed(contract.trump)}`;
    if (contract.called) {
      const partner = contract.partner === null ? W().secret : seatName(update, contract.partner);
      text += `; ${W().called(theCard(contract.called), partner)}`;
    }
    parts.push(text);
  }
  if (hand.cantes.length) {
    parts.push(`${W().cantes}: ${hand.cantes.map((c) => W().cante(seatName(update, c.seat), c.points, c.suit)).join(", ")}`);
  }
  return parts;
}

function renderContract(update, hand) {
  const box = $("#contract");
  box.replaceChildren();
  const parts = hand ? contractText(update, hand) : [];
  box.hidden = !parts.length;
  for (const part of parts) box.appendChild(element("div", "", part));
}

function number(pair) {
  return pair[1] === 1 ? String(pair[0]) : String(Math.round((pair[0] / pair[1]) * 100) / 100);
}

// By side when every seat of each side stands the same, else by seat (as text.py).
function standingsText(update, standings, sides) {
  const whole = sides && sides.flat().length === standings.length;
  const same = whole && sides.every((side) => side.every((s) => number(standings[s]) === number(standings[side[0]])));
  if (same) {
    const mine = sides.findIndex((side) => side.includes(update.seat));
    const order = sides.map((side, k) => k);
    if (mine > 0) order.unshift(...order.splice(mine, 1));
    return order.map((k) => `${sideName(update, sides[k])} ${number(standings[sides[k][0]])}`).join(" · ");
  }
  return standings.map((s, seat) => `${seatName(update, seat)} ${number(s)}`).join(" · ");
}

function matchLines(update) {
  const view = update.view;
  const last = view.hands.length ? view.hands[view.hands.length - 1] : null;
  const sides = last ? last.result.sides : view.current ? view.current.sides : null;
  const done = view.earlier_hands + view.hands.length;
  const lines = [
    `${W().handNumber(done + (table.between || update.over ? 0 : 1))} · ${W().target(ruleOf(update, "match_mode"), ruleOf(update, "match_target"))}`,
    W().standings(standingsText(update, view.standings, sides)),
  ];
  if (table.between || !done) {
    if (last && last.replayed) lines.push(W().replayed);
    if (view.stake > 1) lines.push(W().stake(view.stake));
  }
  if (table.between && view.current) {
    const dealer = view.current.dealer;
    lines.push(W().dealsNext(seatName(update, dealer), dealer === update.seat));
  }
  return lines;
}

function renderMatch(update) {
  const box = $("#match-panel");
  box.hidden = !update.match;
  box.replaceChildren();
  if (!update.match) return;
  for (const line of matchLines(update)) box.appendChild(element("div", "", line));
}

function renderTurn(update, hand) {
  const turn = $("#turn");
  let text = "";
  const mine = Boolean(hand && hand.to_act === update.seat && !update.over && !table.between);
  if (table.between) text = W().waitNext;
  else if (mine) text = W().yourTurn;
  else if (hand && hand.to_act !== null && !update.over) {
    const who = seatName(update, hand.to_act);
    text = auctionOn(hand) ? W().othersBid(who) : W().othersTurn(who);
  }
  turn.textContent = text;
  turn.classList.toggle("mine", mine);
}

function renderHand(update, hand) {
  const box = $("#hand");
  box.replaceChildren();
  if (!hand) return;
  const live = !table.between;
  const legal = new Set(live ? update.legal.filter((a) => PLAY.test(a)) : []);
  const myTurn = live && hand.to_act === update.seat && update.legal.some((a) => PLAY.test(a));
  hand.hand.forEach((code, k) => {
    const face = cardFace(code, true);
    if (legal.has(code)) face.classList.add("legal");
    else if (myTurn) face.classList.add("barred");
    if (k < 9) {
      face.setAttribute("aria-keyshortcuts", String(k + 1));
      face.appendChild(element("span", "key", String(k + 1)));
      face.lastChild.setAttribute("aria-hidden", "true");
    }
    face.disabled = !live;
    face.addEventListener("click", (event) => {
      event.stopPropagation();
      catchUp();
      send({ type: "action", action: code });
    });
    box.appendChild(face);
  });
}

function actionLabel(update, action) {
  let m;
  if ((m = /^swap (\S+)$/.exec(action))) return W().swap(theCard(m[1]));
  if (action === "claim") return W().claim;
  if ((m = /^signal (\S+)$/.exec(action))) {
    return W().signalButton(W().signalNames[m[1]] || m[1], signalMeaning(update, m[1]));
  }
  if (/^bid /.test(action) || action === "pass") return cap(bidText(action));
  if ((m = /^trump ([OCEB])$/.exec(action))) return W().nameTrump(m[1]);
  if ((m = /^call (\S+)$/.exec(action))) return W().call(theCard(m[1]));
  if ((m = /^sing ([OCEB])$/.exec(action))) return W().sing(m[1]);
  return action;
}

function actionKind(action) {
  return action.startsWith("bid rank") ? "bid rank" : action.split(" ")[0];
}

// The optional actions: buttons, or a list to choose from where there are many.
function renderActions(update) {
  const box = $("#actions");
  box.replaceChildren();
  if (table.between) return;
  const groups = new Map();
  for (const action of update.legal) {
    if (PLAY.test(action)) continue;
    const kind = actionKind(action);
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(action);
  }
  const act = (action) => (event) => {
    event.stopPropagation();
    catchUp();
    send({ type: "action", action });
  };
  for (const [kind, actions] of groups) {
    if (actions.length <= 6) {
      for (const action of actions) {
        const button = element("button", `action kind-${kind.replace(" ", "-")}`, actionLabel(update, action));
        button.dataset.action = action;
        button.addEventListener("click", act(action));
        box.appendChild(button);
      }
      continue;
    }
    const choice = element("select");
    choice.dataset.kind = kind;
    choice.setAttribute("aria-label", kind === "call" ? W().goCall : W().goBid);
    for (const action of actions) {
      const option = element("option", "", actionLabel(update, action));
      option.value = action;
      choice.appendChild(option);
    }
    const go = element("button", "action", kind === "call" ? W().goCall : W().goBid);
    go.dataset.kindGo = kind;
    go.addEventListener("click", (event) => act(choice.value)(event));
    const group = element("span", "choice");
    group.append(choice, go);
    box.appendChild(group);
  }
}

// ---------------------------------------------------------------------------
// The result, in words (as text.py's describe_result, from the seat's side)

function verdict(update, result, hand, stake) {
  const { sides, points } = result;
  const mine = sides.findIndex((side) => side.includes(update.seat));
  const named = sides.map((side) => sideName(update, side));
  if (result.termination === "void") return W().voidHand;
  if (result.tied.length) {
    let tie;
    if (sides.length === 2) {
      const first = mine >= 0 ? mine : 0;
      tie = W().tie2(dash(points[first], points[1 - first]));
    } else tie = W().tieMany(points[result.tied[0]], result.tied.map((k) => named[k]));
    if (result.winner === null) {
      const half = stake && stake.half;
      const words = result.replay ? (stake && stake.doubled ? W().tieAgainDouble : W().tieAgain) : half ? W().tieHalf : W().tieDrawn;
      return `${tie}: ${words}`;
    }
    return W().tieLast(tie, named[result.winner], result.winner === mine);
  }
  if (result.winner === null) return W().noWinner;
  const winner = result.winner;
  if (result.details && result.details.seat !== undefined) {
    return W().blackHand(named[winner], winner === mine, hand && hand.trump ? hand.trump : "O");
  }
  if (sides.length === 2) {
    const first = mine >= 0 ? mine : winner;
    const score = dash(points[first], points[1 - first]);
    if (mine < 0) return W().sideWon(named[winner], score);
    return winner === mine ? W().youWon(score) : W().youLost(score);
  }
  return W().wonWith(named[winner], points[winner]) + (mine >= 0 && mine !== winner ? W().youTook(points[mine]) : "");
}

function contractResultLine(update, result) {
  const details = result.details;
  if (!details || !details.contract) return null;
  const contract = details.contract;
  const ours = result.sides.findIndex((side) => side.includes(contract.declarer));
  const bid = /^bid (\d+)$/.exec(contract.bid);
  const bidPoints = bid ? Number(bid[1]) : 0;
  const cards = result.points[ours];
  const who = seatName(update, contract.declarer);
  if (contract.called) {
    return W().callerResult({
      who, needed: Math.max(61, bidPoints), took: cards, made: details.made,
      name: theCard(contract.called), alone: contract.partner === contract.declarer,
      partner: contract.partner === null ? W().secret : seatName(update, contract.partner),
    });
  }
  const cantes = details.cantes[ours] || 0;
  return W().contractResult({ who, needed: bidPoints, took: cards + cantes, cards, cantes, made: details.made });
}

function resultLines(update, result, hand) {
  if (result.termination === "void") return [];
  const order = result.sides.map((side, k) => k);
  const mine = result.sides.findIndex((side) => side.includes(update.seat));
  if (mine > 0) order.unshift(...order.splice(mine, 1));
  const lines = [W().pointsLine(order.map((k) => `${sideName(update, result.sides[k])} ${result.points[k]}`))];
  if (hand) {
    const tricks = order.map((k) => `${sideName(update, result.sides[k])} ${hand.tricks.filter((t) => result.sides[k].includes(t.winner)).length}`);
    lines.push(W().tricksLine(tricks));
  }
  const contract = contractResultLine(update, result);
  if (contract) lines.push(contract);
  if (hand && hand.cantes.length) {
    lines.push(`${W().cantes}: ${hand.cantes.map((c) => W().cante(seatName(update, c.seat), c.points, c.suit)).join(", ")}`);
  }
  return lines;
}

function matchVerdict(update, result) {
  const you = update.seat;
  const hands = result.hands.length;
  let text;
  const sides = result.sides;
  if (!result.winners.length) text = W().matchDrawn;
  else if (result.winners.includes(you)) text = W().matchWon;
  else if (result.winner !== null && sides) text = W().matchLost(sideName(update, sides[result.winner]));
  else text = W().matchLost(result.winners.map((s) => seatName(update, s)).join(W().and));
  return `${text} (${W().matchAfter(hands)})`;
}

function renderOver(update, hand) {
  const box = $("#over");
  const handDone = update.over || table.between;
  box.hidden = !handDone || Boolean(table.completed);
  const download = $("#download");
  download.hidden = update.hands_finished === 0;
  download.href = `/api/tables/${encodeURIComponent(table.id)}/records`;
  $("#next-hand").hidden = !table.between;
  $("#new-link").hidden = !update.over;
  const text = $("#over-text");
  const matchBox = $("#over-match");
  text.replaceChildren();
  matchBox.replaceChildren();
  if (box.hidden) {
    $("#over-title").textContent = "";
    return;
  }
  let result, stake = null;
  if (update.match) {
    const record = update.view.hands[update.view.hands.length - 1];
    result = record ? record.result : null;
    if (record) stake = { doubled: update.view.stake > record.stake, half: record.credits.some((c) => c[1] === 2) };
  } else result = update.result;
  const lines = [];
  let title = "";
  if (result) {
    title = verdict(update, result, hand, stake);
    lines.push(...resultLines(update, result, hand));
  }
  if (update.match && update.over) {
    lines.unshift(title);
    title = matchVerdict(update, update.result);
  }
  $("#over-title").textContent = title;
  for (const line of lines) text.appendChild(element("p", "", line));
  if (update.match) for (const line of matchLines(update)) matchBox.appendChild(element("p", "", line));
  if (table.between) $("#next-hand").focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------
// What happened: the events in words

function describeEvent(update, event) {
  const w = W();
  const who = event.seat === undefined ? "" : seatName(update, event.seat);
  switch (event.type) {
    case "card_played": return w.played(who, theCard(event.card));
    case "trick_won": return w.wonTrick(who, event.trick + 1, event.points);
    case "cards_drawn":
      if (event.public && event.card) return w.tookTurned(who, theCard(event.card));
      return event.card ? w.drew(who, theCard(event.card)) : w.drewOne(who);
    case "trump_revealed": return w.trumpShown(event.suit);
    case "swapped": return w.swapped(who, theCard(event.given), theCard(event.taken));
    case "black_hand_claimed": return w.blackClaimed(who);
    case "signalled": return w.signalled(who, signalSaid(update, event.signal));
    case "announced": {
      const bidding = /^bid /.test(event.action) || event.action === "pass";
      return w.announced(who, bidding ? bidText(event.action) : actionLabel(update, event.action));
    }
    case "auction_won": return w.auctionWon(who, bidText(event.bid));
    case "partner_revealed": return w.partnerShown(who);
    case "hand_ended": return event.void ? w.voidHand : w.handEnded(event.points.join("\u2013"));
    default: return event.type;
  }
}

function renderLog() {
  const log = $("#log");
  log.replaceChildren();
  for (const event of table.log.slice(-60)) {
    log.insertBefore(element("li", "", cap(describeEvent(table.shown, event))), log.firstChild);
  }
}

// ---------------------------------------------------------------------------

$("#lang").addEventListener("click", switchLanguage);
relabel();
if (location.pathname.startsWith("/table/")) startTable();
else startLobby();
