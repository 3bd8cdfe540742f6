// The web table: the lobby that deals a table, and the table itself, which shows
// what the server sends this seat and sends back the actions clicked. It knows no
// rule of the game: the legal actions, the reasons and the views all come from the
// server, which has them from the library.
"use strict";

const $ = (selector) => document.querySelector(selector);
const PLAY = /^\d{1,2}[OCEB]$/;

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

// ---------------------------------------------------------------------------
// The lobby

async function startLobby() {
  $("#lobby").hidden = false;
  $("#where").textContent = "";
  const options = await (await fetch("/api/options")).json();
  const select = $("#preset");
  for (const preset of options.presets) {
    const option = element("option", "", `${preset.name} (${preset.players} players)`);
    option.value = preset.name;
    select.appendChild(option);
  }
  $("#name").value = localStorage.getItem("brisca-name") || "";
  const seatChoices = () => {
    const preset = options.presets.find((p) => p.name === select.value);
    $("#match").disabled = !preset.match;
    if (!preset.match) $("#match").checked = false;
    const box = $("#seat-choices");
    box.querySelectorAll("label").forEach((label) => label.remove());
    for (let seat = 0; seat < preset.players; seat++) {
      const label = element("label", "seat-choice", `Seat ${seat} `);
      if (seat === 0) {
        label.appendChild(element("strong", "", "you"));
      } else {
        const choice = element("select");
        choice.dataset.seat = String(seat);
        for (const bot of options.bots) {
          const option = element("option", "", `${bot} bot`);
          option.value = bot;
          option.selected = bot === "heuristic";
          choice.appendChild(option);
        }
        const person = element("option", "", "a person (send a link)");
        person.value = "human";
        choice.appendChild(person);
        label.appendChild(choice);
      }
      box.appendChild(label);
    }
  };
  select.addEventListener("change", seatChoices);
  seatChoices();
  $("#new-table").addEventListener("submit", async (event) => {
    event.preventDefault();
    localStorage.setItem("brisca-name", $("#name").value);
    const seats = ["human"];
    document.querySelectorAll("#seat-choices select").forEach((s) => seats.push(s.value));
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
      const item = element("li", "", `Seat ${link.seat}: `);
      const field = element("input");
      field.readOnly = true;
      field.value = link.url;
      field.addEventListener("focus", () => field.select());
      item.appendChild(field);
      $("#link-list").appendChild(item);
    }
    $("#sit").href = made.links[0].url;
  });
}

// ---------------------------------------------------------------------------
// The table

const table = {
  id: decodeURIComponent(location.pathname.split("/")[2] || ""),
  token: location.hash.slice(1),
  socket: null,
  last: null, // the last update
  retry: 500,
  stopped: false,
  updates: 0,
};

async function startTable() {
  $("#table").hidden = false;
  $("#where").textContent = `table ${table.id}`;
  $("#fill").addEventListener("click", () =>
    send({ type: "fill", bot: $("#fill-bot").value }));
  connect();
  const options = await (await fetch("/api/options")).json();
  for (const bot of options.bots) {
    const option = element("option", "", `${bot} bot`);
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
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (table.stopped) return;
    status("disconnected: joining again");
    setTimeout(connect, table.retry);
    table.retry = Math.min(table.retry * 2, 5000);
  });
}

function send(message) {
  if (table.socket && table.socket.readyState === WebSocket.OPEN) {
    table.socket.send(JSON.stringify(message));
  } else {
    say("Not connected: the move was not sent.", true);
  }
}

function status(text) {
  $("#status").textContent = text;
  document.body.dataset.status = text;
}

function say(text, isError) {
  const box = $("#message");
  box.textContent = text;
  box.classList.toggle("error", Boolean(isError));
}

function receive(message) {
  if (message.type === "error") {
    say(message.error, true);
    if (["no_table", "bad_token", "replaced"].includes(message.code)) {
      table.stopped = true;
      table.socket.close();
      status("not seated");
    }
    return;
  }
  if (message.type === "update") {
    status("connected");
    const fresh = table.last === null;
    table.last = message;
    render(message, fresh);
    table.updates += 1;
    document.body.dataset.updates = String(table.updates);
  }
}

// "you", or the seat's number: names repeat ("heuristic bot"), numbers do not.
function seatName(update, seat) {
  return seat === update.seat ? "you" : `seat ${seat}`;
}

function sideName(update, side) {
  return side.map((seat) => seatName(update, seat)).join(" + ");
}

function fraction(pair) {
  return pair[1] === 1 ? String(pair[0]) : `${pair[0]}/${pair[1]}`;
}

function render(update, fresh) {
  const hand = update.match ? update.view.current : update.view;
  renderInfo(update, hand);
  renderOthers(update, hand);
  renderTricks(update, hand);
  renderHand(update, hand);
  renderActions(update);
  renderLog(update);
  renderOver(update, hand);
  const empty = update.seats.filter((s) => s.kind === "human" && !s.joined);
  $("#fill-box").hidden = empty.length === 0 || update.over;
  if (!fresh && !$("#message").classList.contains("error")) say("");
}

function renderInfo(update, hand) {
  const trumpCard = $("#trump-card");
  trumpCard.replaceChildren();
  if (!hand) {
    $("#trump").textContent = "";
    $("#stock").textContent = "";
    $("#points").textContent = "";
  } else {
    $("#trump").textContent = hand.trump ? SUIT_NAMES[hand.trump] : "not known yet";
    if (hand.trump_card) trumpCard.appendChild(cardFace(hand.trump_card, false));
    else if (hand.trump_card_drawn) {
      const [seat, card] = hand.trump_card_drawn;
      trumpCard.textContent = `${card} drawn by ${seatName(update, seat)}`;
    }
    $("#stock").textContent = String(hand.stock_size);
    $("#points").textContent = hand.sides
      .map((side, k) => `${sideName(update, side)}: ${hand.side_points[k]}`)
      .join(" · ");
  }
  $("#match-panel").hidden = !update.match;
  if (update.match) {
    const view = update.view;
    const standings = view.standings
      .map((s, seat) => `${seatName(update, seat)} ${fraction(s)}`)
      .join(" · ");
    const number = view.hands.length + (view.current ? 1 : 0);
    $("#standings").textContent = `hand ${number} · ${standings}`;
  }
}

function renderOthers(update, hand) {
  const box = $("#others");
  box.replaceChildren();
  update.seats.forEach((info, seat) => {
    if (seat === update.seat) return;
    const card = element("div", "seat");
    card.dataset.seat = String(seat);
    if (hand && hand.to_act === seat) card.classList.add("to-act");
    if (!info.connected) card.classList.add("away");
    const name = element("div", "seat-name", seatName(update, seat));
    const note = [info.name];
    if (hand && hand.dealer === seat) note.push("dealer");
    if (info.kind === "human" && !info.joined) note.push("empty");
    else if (!info.connected) note.push("away");
    if (hand && hand.to_act === seat) note.push("to play");
    const detail = element("div", "seat-note", note.join(" · "));
    const backs = element("div", "backs");
    const count = hand ? hand.hand_sizes[seat] : 0;
    for (let k = 0; k < count; k++) backs.appendChild(cardBack());
    card.append(name, detail, backs);
    box.appendChild(card);
  });
}

function renderTrick(box, cards, update) {
  box.replaceChildren();
  for (const [seat, code] of cards) {
    const played = element("div", "played");
    played.append(cardFace(code, false), element("span", "who", seatName(update, seat)));
    box.appendChild(played);
  }
}

function renderTricks(update, hand) {
  renderTrick($("#trick"), hand ? hand.trick : [], update);
  const done = hand ? hand.tricks : [];
  const last = done.length ? done[done.length - 1] : null;
  renderTrick($("#last-trick"), last ? last.cards : [], update);
  $("#last-box").dataset.winner = last ? `${seatName(update, last.winner)} took ${last.points}` : "";
  const turn = $("#turn");
  if (update.over) turn.textContent = "";
  else if (hand && hand.to_act === update.seat) turn.textContent = "Your turn";
  else if (hand && hand.to_act !== null) turn.textContent = `${seatName(update, hand.to_act)} to play`;
  turn.classList.toggle("mine", Boolean(hand && hand.to_act === update.seat && !update.over));
}

function renderHand(update, hand) {
  const box = $("#hand");
  box.replaceChildren();
  if (!hand) return;
  const legal = new Set(update.legal.filter((a) => PLAY.test(a)));
  const myTurn = hand.to_act === update.seat;
  for (const code of hand.hand) {
    const face = cardFace(code, true);
    if (legal.has(code)) face.classList.add("legal");
    else if (myTurn) face.classList.add("barred");
    face.addEventListener("click", () => send({ type: "action", action: code }));
    box.appendChild(face);
  }
}

function actionLabel(action) {
  let m;
  if ((m = /^swap (\S+)$/.exec(action))) return `Swap ${m[1]} for the turned card`;
  if (action === "claim") return "Claim the black hand";
  if ((m = /^signal (\S+)$/.exec(action))) return `Signal: ${m[1].replace("_", " ")}`;
  if ((m = /^bid rank (\d+)$/.exec(action))) return `Bid rank ${m[1]}`;
  if ((m = /^bid (\d+)$/.exec(action))) return `Bid ${m[1]}`;
  if (action === "pass") return "Pass";
  if ((m = /^trump ([OCEB])$/.exec(action))) return `Trump: ${SUIT_NAMES[m[1]]}`;
  if ((m = /^call (\S+)$/.exec(action))) return `Call the ${cardName(m[1])}`;
  if ((m = /^sing ([OCEB])$/.exec(action))) return `Sing ${SUIT_NAMES[m[1]]}`;
  return action;
}

function actionKind(action) {
  return action.startsWith("bid rank") ? "bid rank" : action.split(" ")[0];
}

// The optional actions: buttons, or a list to choose from where there are many.
function renderActions(update) {
  const box = $("#actions");
  box.replaceChildren();
  const groups = new Map();
  for (const action of update.legal) {
    if (PLAY.test(action)) continue;
    const kind = actionKind(action);
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(action);
  }
  for (const [kind, actions] of groups) {
    if (actions.length <= 6) {
      for (const action of actions) {
        const button = element("button", "action", actionLabel(action));
        button.dataset.action = action;
        button.addEventListener("click", () => send({ type: "action", action }));
        box.appendChild(button);
      }
      continue;
    }
    const choice = element("select");
    choice.dataset.kind = kind;
    for (const action of actions) {
      const option = element("option", "", actionLabel(action));
      option.value = action;
      choice.appendChild(option);
    }
    const verb = kind.split(" ")[0];
    const go = element("button", "action", verb[0].toUpperCase() + verb.slice(1));
    go.dataset.kindGo = kind;
    go.addEventListener("click", () => send({ type: "action", action: choice.value }));
    const group = element("span", "choice");
    group.append(choice, go);
    box.appendChild(group);
  }
}

function describeEvent(update, event) {
  const who = event.seat === undefined ? "" : seatName(update, event.seat);
  switch (event.type) {
    case "card_played": return `${who} played ${cardName(event.card)}`;
    case "trick_won": return `${who} won trick ${event.trick + 1} (${event.points} points)`;
    case "cards_drawn":
      return event.card ? `${who} drew ${cardName(event.card)}` : `${who} drew a card`;
    case "trump_revealed": return `the trump is ${SUIT_NAMES[event.suit]}`;
    case "swapped": return `${who} swapped ${event.given} for ${event.taken}`;
    case "black_hand_claimed": return `${who} won with a black hand`;
    case "signalled": return `${who} signalled: ${event.signal.replace("_", " ")}`;
    case "announced": return `${who}: ${actionLabel(event.action).toLowerCase()}`;
    case "auction_won": return `${who} won the auction (${event.bid})`;
    case "partner_revealed": return `${who} is the called partner`;
    case "hand_ended":
      return event.void ? "everyone passed: no hand" : `hand over: ${event.points.join("-")}`;
    default: return event.type;
  }
}

function renderLog(update) {
  const log = $("#log");
  for (const event of update.events) {
    const line = element("li", "", describeEvent(update, event));
    log.insertBefore(line, log.firstChild);
  }
  while (log.children.length > 60) log.removeChild(log.lastChild);
}

function renderOver(update, hand) {
  const box = $("#over");
  box.hidden = !update.over && update.hands_finished === 0;
  const download = $("#download");
  download.hidden = update.hands_finished === 0;
  download.href = `/api/tables/${encodeURIComponent(table.id)}/records`;
  if (!update.over) {
    $("#over-title").textContent = "";
    const records = update.view.hands || [];
    const last = records.length ? records[records.length - 1].result : null;
    $("#over-text").textContent = last
      ? `Last hand: ${last.points.join("-")}` +
        (last.winner === null ? ", no winner" : `, won by ${sideName(update, last.sides[last.winner])}`)
      : "";
    return;
  }
  const result = update.result;
  if (update.match) {
    const winners = result.winners.map((seat) => seatName(update, seat));
    $("#over-title").textContent = winners.length ? `${winners.join(" + ")} won the match` : "A draw";
    $("#over-text").textContent = `Standings: ${result.standings.map(fraction).join(" - ")}`;
  } else {
    const winner = result.winner === null ? null : result.sides[result.winner];
    $("#over-title").textContent = winner ? `${sideName(update, winner)} won` : "No winner";
    $("#over-text").textContent = `Points: ${result.sides
      .map((side, k) => `${sideName(update, side)} ${result.points[k]}`)
      .join(", ")}`;
  }
}

// ---------------------------------------------------------------------------

if (location.pathname.startsWith("/table/")) startTable();
else startLobby();
