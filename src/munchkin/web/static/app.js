// The browser client: home page, rules, lobby and table, over the server's HTTP API and
// WebSocket. A seat's secret token is kept in localStorage and sent with every action.

import { cardData, loadCards } from "./cards.js";
import { confirmPlay, helpDialog, tradeDialog } from "./dialogs.js";
import { fill, h, say, show } from "./dom.js";
import { showRules } from "./rules.js";
import { clearTable, focusNextAction, renderTable, replaceLog, rulesLine } from "./table.js";

const state = {
  code: null, socket: null, seat: null, table: null,
  view: null, labels: [], groups: [], advice: null, end: null, standin: [],
  seq: 0, situation: "", seats: [], deadlineAt: null, retries: 0,
  asked: {}, deciding: false,
};
const SET_NAMES = { base: "the base game", horses: "Hirelings, Steeds and Centaurs" };

// -- seats kept in this browser --------------------------------------------------------

const seatKey = (code) => `munchkin.seat.${code}`;

function storedSeat(code) {
  try {
    return JSON.parse(localStorage.getItem(seatKey(code)));
  } catch {
    return null;
  }
}

function keepSeat(granted) {
  localStorage.setItem(seatKey(granted.code), JSON.stringify(granted));
}

// -- the HTTP API ------------------------------------------------------------------------

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(`/api${path}`, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

/** Run `work`; say what went wrong if it fails. Whether it worked. */
async function attempt(what, work) {
  try {
    await work();
    const status = document.getElementById("status");
    if (status.textContent.startsWith(`${what}:`)) say("");  // a failure of before is stale now
    return true;
  } catch (error) {
    say(`${what}: ${error.message}`);
    return false;
  }
}

// -- home ------------------------------------------------------------------------------

const OPTION = "option:";
/** The table options' labels, as the main ones read ("Level that wins"); the description
 * comes from the server. */
const OPTION_LABELS = {
  hand_limit: "Hand limit",
  power_discards: "Most cards discarded for one power",
  charm_cards: "Fewest cards for the Wizard's charm",
  halfling_reroll: "Halfling re-rolls",
  loot_ties: "Looters tied in level",
  sale_gold: "Gold left over from a sale",
  curses_before_first_door: "Curses before the first door",
  help_asks: "Times one player may be asked for help",
};

function optionLabel(name) {
  const words = name.replaceAll("_", " ");
  return OPTION_LABELS[name] || words[0].toUpperCase() + words.slice(1);
}

/** One table option as a form field: a number, a checkbox or a choice, with its description. */
function optionField(option) {
  const attrs = { name: OPTION + option.name, "data-default": String(option.default) };
  let input;
  if (option.type === "boolean") {
    input = h("input", { ...attrs, type: "checkbox", checked: option.default });
  } else if (option.type === "choice") {
    input = h("select", attrs, option.choices.map((c) => h("option", { value: c, selected: c === option.default }, c)));
  } else {
    input = h("input", { ...attrs, type: "number", min: option.minimum, max: option.maximum, value: option.default, required: true });
  }
  return h("label", {}, optionLabel(option.name), input, h("small", {}, option.description));
}

/** The table options the server offers beyond the ones the page shows already. */
async function loadTableOptions() {
  try {
    const offered = (await api("/options")).table_options || [];
    const shown = new Set([...document.querySelectorAll(`#table-options [name^="${OPTION}"]`)].map((el) => el.name));
    fill("more-option-fields", offered.filter((o) => !shown.has(OPTION + o.name)).map(optionField));
  } catch {
    document.getElementById("more-options").hidden = true;  // the main rules are still there
  }
}

/** The options of the form that differ from their defaults, as the server takes them. */
function chosenOptions(formElement) {
  const options = {};
  for (const el of formElement.querySelectorAll(`[name^="${OPTION}"]`)) {
    const value = el.type === "checkbox" ? el.checked : el.type === "number" ? Number(el.value) : el.value;
    if (String(value) !== el.dataset.default) options[el.name.slice(OPTION.length)] = value;
  }
  return options;
}

function createGame(event) {
  event.preventDefault();
  const form = new FormData(event.target);
  const bots = Number(form.get("bots"));
  const body = {
    name: form.get("name"), sex: form.get("sex"), sets: form.get("sets").split(","),
    seats: Number(form.get("seats")), bots: Array(bots).fill(form.get("bot_kind")),
    response_seconds: Number(form.get("response_seconds")), options: chosenOptions(event.target),
  };
  attempt("Could not create the game", async () => {
    const granted = await api("/games", body);
    keepSeat(granted);
    location.hash = `#/game/${granted.code}`;
  });
}

const CODE = /^[A-Za-z0-9]{6}$/;
const CODE_WORDS = "A game code is 6 letters and digits, like K7QX2M.";

/** The code field says at once what a code is, before a wrong one is sent anywhere. */
function checkCode(event) {
  const code = event.target.value.trim();
  event.target.setCustomValidity(code === "" || CODE.test(code) ? "" : CODE_WORDS);
}

function findGame(event) {
  event.preventDefault();
  const code = new FormData(event.target).get("code").trim().toUpperCase();
  if (!CODE.test(code)) {
    say(CODE_WORDS);
    return;
  }
  location.hash = `#/game/${code}`;
}

// -- lobby -----------------------------------------------------------------------------

function seatLine(seat, index, mine) {
  if (seat.kind !== "human") return `Seat ${index + 1}: a bot (${seat.kind.slice(4)})${seat.name ? `, ${seat.name}` : ""}`;
  if (!seat.taken) return `Seat ${index + 1}: free`;
  const notes = [index === 0 ? "host" : null, mine ? "you" : null, seat.ready ? "ready" : "not ready yet"];
  return `Seat ${index + 1}: ${seat.name} (${notes.filter(Boolean).join(", ")})`;
}

function renderLobby(table) {
  const mine = storedSeat(table.code);
  const link = `${location.origin}/#/game/${table.code}`;
  document.getElementById("lobby-title").textContent = `Game ${table.code}`;
  document.getElementById("share-link").value = link;
  fill("share-code", `Or give them the code ${table.code}: they enter it on the home page.`);
  fill("lobby-sets", `Card sets: ${table.sets.map((s) => SET_NAMES[s] || s).join(" with ")}.`);
  fill("lobby-timer", `Out-of-turn answers: ${table.response_seconds} seconds each (no timer before the first turn).`);
  fill("lobby-options", rulesLine(table.options));
  const host = mine && mine.seat === 0;
  fill("seats", table.seats.map((seat, i) => h("li", {}, seatLine(seat, i, mine && mine.seat === i),
    host && i > 0 && seat.kind === "human" && seat.taken
      ? [" ", h("button", { type: "button", onclick: () => freeSeat(i), "aria-label": `Free seat ${i + 1}` }, "Free")]
      : null)));
  const humans = table.seats.filter((s) => s.kind === "human");
  const free = humans.some((s) => !s.taken);
  document.getElementById("join-form").hidden = Boolean(mine) || !free;
  const ready = document.getElementById("ready-button");
  const me = mine ? table.seats[mine.seat] : null;
  ready.hidden = !me;
  if (me) {
    ready.textContent = me.ready ? "I'm not ready after all" : "I'm ready";
    ready.setAttribute("aria-pressed", String(me.ready));
  }
  const start = document.getElementById("start-button");
  start.hidden = !(mine && mine.seat === 0);
  document.getElementById("close-button").hidden = start.hidden;
  start.disabled = free || !humans.every((s) => s.ready);
  const note = !mine ? (free ? "Join a free seat to play, or stay to watch." : "You are watching this game.")
    : `${mine.seat === 0 ? "You start" : "The host starts"} the game once every seat is taken and everyone is ready.`;
  fill("lobby-note", note, waitingFor(table.seats));
}

/** Who the start waits for: the free seats, and the players not ready yet. */
function waitingFor(seats) {
  const free = seats.flatMap((s, i) => (s.kind === "human" && !s.taken ? [`seat ${i + 1}`] : []));
  const unready = seats.filter((s) => s.kind === "human" && s.taken && !s.ready).map((s) => s.name);
  const parts = [];
  if (free.length > 0) parts.push(`${free.join(", ")} ${free.length > 1 ? "are" : "is"} free: send the link to a friend`);
  if (unready.length > 0) parts.push(`not ready yet: ${unready.join(", ")}`);
  return parts.length > 0 ? ` Waiting: ${parts.join("; ")}.` : "";
}

function joinGame(event) {
  event.preventDefault();
  const form = new FormData(event.target);
  attempt("Could not join", async () => {
    keepSeat(await api(`/games/${state.code}/join`, { name: form.get("name"), sex: form.get("sex") }));
    reconnect();
  });
}

function toggleReady() {
  const mine = storedSeat(state.code);
  const ready = !state.table.seats[mine.seat].ready;
  attempt("Could not change", () => api(`/games/${state.code}/ready`, { token: mine.token, ready }));
}

function freeSeat(seat) {
  attempt("Could not free the seat", () => api(`/games/${state.code}/free`, { token: storedSeat(state.code).token, seat }));
}

function closeGame() {
  if (!confirm("Close this game for everyone? It cannot be opened again.")) return;
  const code = state.code;
  attempt("Could not close the game", async () => {
    await api(`/games/${code}/close`, { token: storedSeat(code).token });
    localStorage.removeItem(seatKey(code));
  });
}

function startGame() {
  attempt("Could not start", () => api(`/games/${state.code}/start`, { token: storedSeat(state.code).token }));
}

async function copyLink() {
  const link = document.getElementById("share-link").value;
  try {
    await navigator.clipboard.writeText(link);
    say("The link is copied: send it to your friends.", 6000);
  } catch {
    document.getElementById("share-link").select();
    say("Copy the selected link and send it to your friends.", 6000);
  }
}

// -- the game connection ---------------------------------------------------------------

/** Send a decision (a legal action, or one a dialog put together: the engine checks it). */
function send(action) {
  const mine = storedSeat(state.code);
  if (!mine || !state.socket || state.socket.readyState !== WebSocket.OPEN) return;
  for (const button of document.querySelectorAll("#action-list button")) button.disabled = true;
  if (action.verb === "ask_help") state.asked[action.arg] = action.reward || 0;
  focusNextAction();
  state.socket.send(JSON.stringify({ type: "act", token: mine.token, action, seq: state.seq }));
}

/** The handed items of a player's table: items, steeds, what hirelings carry, hirelings worth gold. */
function handed(player) {
  const cards = [...player.equipped, ...player.carried, ...player.steeds,
    ...player.hirelings.flatMap((hireling) => hireling.carrying || []),
    ...player.hirelings.filter((hireling) => cardData(hireling.id).value != null)];
  return [...new Set(cards.map((card) => card.id))];
}

function names() {
  const found = new Map();
  const add = (card) => { found.set(card.id, card.name); (card.attached || []).forEach(add); (card.carrying || []).forEach(add); };
  for (const player of state.view.players) {
    for (const zone of ["equipped", "carried", "steeds", "hirelings", "races", "classes", "boosts", "curses"]) player[zone].forEach(add);
  }
  state.view.hand.forEach(add);
  return found;
}

const ui = {
  dismissed: new Set(),
  /** Legal action `i`: asked first when it costs more than it says. */
  choose(i) {
    const action = state.view.legal[i];
    const warnings = (state.advice && state.advice.warnings && state.advice.warnings[String(i)]) || [];
    const me = state.view.players.find((p) => p.name === state.seat);
    if (warnings.length > 0) confirmPlay(state.labels[i] || action.verb, warnings, () => send(action), me);
    else send(action);
  },
  trade() {
    tradeDialog(state.view.legal.filter((a) => a.verb === "trade"), names(), send);
  },
  askHelp() {
    const me = state.view.players.find((p) => p.name === state.seat);
    const combat = state.view.combat || {};
    helpDialog(state.view.legal.filter((a) => a.verb === "ask_help"), handed(me), names(), state.asked,
      combat.declined || [], (state.view.options || {}).help_asks || 1, send);
  },
  playAgain() {
    const mine = storedSeat(state.code);
    attempt("Could not start another game", async () => {
      const table = state.table && state.table.again ? state.table : await api(`/games/${state.code}/again`, { token: mine.token });
      keepSeat({ ...mine, code: table.again });
      location.hash = `#/game/${table.again}`;
    });
  },
  watchNext(code) {
    location.hash = `#/game/${code}`;
  },
};

let beeps = 0;

/** The tab's title says when a decision is yours; with sound on, a short tone too. */
function yourMove(deciding) {
  const base = state.code ? `Game ${state.code} · Munchkin online` : "Munchkin online";
  document.title = deciding ? `(Your move) ${base}` : base;
  if (deciding && !state.deciding && document.getElementById("sound").checked) {
    beeps += 1;
    document.body.dataset.beeps = String(beeps);
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      volume.gain.value = 0.08;
      tone.frequency.value = 660;
      tone.connect(volume).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.15);
    } catch {
      // no sound here: the title still says so
    }
  }
  state.deciding = deciding;
}

function onGame(message) {
  state.view = message.full ? message.view : { ...state.view, ...message.view };
  if (message.labels) state.labels = message.labels;
  if (message.groups) state.groups = message.groups;
  state.advice = message.advice || null;
  state.end = message.end || null;
  state.standin = message.standin || [];
  state.seq = message.seq;
  state.situation = message.situation;
  state.seats = message.seats;
  state.deadlineAt = message.deadline === null ? null : Date.now() + message.deadline * 1000;
  if (!state.view.combat) state.asked = {};
  const first = document.getElementById("table").hidden;
  show("table");
  renderTable(state, message.log, ui);
  if (first) document.getElementById("table-title").focus();  // screen readers hear which game and turn
  yourMove(Boolean(state.seat && state.view.deciding));
  tickDeadline();
}

function onMessage(message) {
  if (message.type === "welcome") {
    state.seat = message.seat;
    state.retries = 0;
  } else if (message.type === "lobby") {
    state.table = message.table;
    if (message.table.status === "open") {
      show("lobby");
      renderLobby(message.table);
    } else if (state.view) {
      renderTable(state, [], ui);  // the next game's code, at the end
    }
  } else if (message.type === "game") {
    onGame(message);
  } else if (message.type === "refused") {
    const why = message.code === "stale" ? "the game had moved on before your click: look again" : message.message;
    say(`Not done: ${why}`);
    for (const button of document.querySelectorAll("#action-list button")) button.disabled = false;
  }
}

function connect() {
  const code = state.code;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${code}`);
  state.socket = socket;
  socket.onopen = () => {
    const mine = storedSeat(code);
    socket.send(JSON.stringify({ type: "hello", token: mine ? mine.token : null }));
  };
  socket.onmessage = (event) => onMessage(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (state.socket !== socket) return;
    if (event.code === 4404) {
      say(`There is no game ${code} on this server.`);
      show("home");
      return;
    }
    if (event.code === 4409) {
      say("This seat is open in another tab or window.");
      return;
    }
    if (event.code === 1000 && event.reason.includes("closed")) {
      say("The host closed this game.");
      show("home");
      return;
    }
    if (event.code === 1008 && event.reason.includes("token")) {
      localStorage.removeItem(seatKey(code));  // back at once, watching: nothing was lost
      say(event.reason.includes("freed")
        ? "The host freed your seat: you are watching now; join again to play."
        : "Your seat's key no longer holds a seat here: you are watching now.");
      state.retries = 0;
      connect();
      return;
    }
    say("Connection lost: reconnecting…");
    state.retries += 1;
    setTimeout(() => state.socket === socket && connect(), Math.min(10000, 500 * 2 ** state.retries));
  };
}

function reconnect() {
  const old = state.socket;
  state.socket = null;
  if (old) old.close();
  connect();
}

function tickDeadline() {
  const el = document.getElementById("deadline");
  const left = state.deadlineAt === null ? null : Math.max(0, Math.ceil((state.deadlineAt - Date.now()) / 1000));
  el.textContent = left === null ? "" : `Answer within ${left} s.`;
}

/** Every line of the game's log so far, as this seat may read it. */
async function wholeLog() {
  const mine = storedSeat(state.code);
  await attempt("Could not load the log", async () => {
    const { lines } = await api(`/games/${state.code}/log`, mine ? { token: mine.token } : {});
    replaceLog(lines);
    say(`The whole log: ${lines.length} lines.`, 4000);
  });
}

/** On a phone: the table, or the log, as a tab of its own. */
function showTab(which) {
  document.getElementById("board").classList.toggle("show-log", which === "log");
  document.getElementById("tab-table").setAttribute("aria-selected", String(which === "table"));
  document.getElementById("tab-log").setAttribute("aria-selected", String(which === "log"));
}

// -- pages -----------------------------------------------------------------------------

async function openGame(code) {
  Object.assign(state, {
    code, seat: null, view: null, labels: [], groups: [], advice: null, end: null, standin: [],
    seq: 0, retries: 0, table: null, asked: {}, deciding: false,
  });
  ui.dismissed.clear();
  clearTable();
  const opened = await attempt("Could not open the game", async () => {
    const table = await api(`/games/${code}`);
    await loadCards(table.sets);
    state.table = table;
    show(table.status === "open" ? "lobby" : "table");
    if (table.status === "open") {
      renderLobby(table);
      document.getElementById("lobby-title").focus();  // a keyboard goes on from the game's name
    }
    connect();
  });
  if (!opened) show("home");
}

function route() {
  const old = state.socket;
  state.socket = null;
  if (old) old.close();
  say("");
  document.title = "Munchkin online";
  const match = location.hash.match(/^#\/game\/([A-Za-z0-9]{6})$/);
  if (match) openGame(match[1].toUpperCase());
  else if (location.hash.startsWith("#/game/")) {
    say(`There is no game ${location.hash.slice(7)}: ${CODE_WORDS[0].toLowerCase()}${CODE_WORDS.slice(1)}`);
    show("home");
  }
  else if (location.hash === "#/rules") {
    show("rules");
    showRules();
    document.getElementById("rules-title").focus();
  } else show("home");
}

document.getElementById("create-form").addEventListener("submit", createGame);
document.getElementById("find-form").addEventListener("submit", findGame);
document.querySelector('#find-form [name="code"]').addEventListener("input", checkCode);
document.getElementById("join-form").addEventListener("submit", joinGame);
document.getElementById("ready-button").addEventListener("click", toggleReady);
document.getElementById("start-button").addEventListener("click", startGame);
document.getElementById("close-button").addEventListener("click", closeGame);
document.getElementById("copy-link").addEventListener("click", copyLink);
document.getElementById("whole-log").addEventListener("click", wholeLog);
document.getElementById("tab-table").addEventListener("click", () => showTab("table"));
document.getElementById("tab-log").addEventListener("click", () => showTab("log"));
const sound = document.getElementById("sound");
sound.checked = localStorage.getItem("munchkin.sound") === "on";
sound.addEventListener("change", () => localStorage.setItem("munchkin.sound", sound.checked ? "on" : "off"));
window.addEventListener("hashchange", route);
setInterval(tickDeadline, 1000);
loadTableOptions();
route();
