// The game table: what to do, the fight, your hand, everyone's table and the log.

import { cardFace, cardList } from "./cards.js";
import { fill, h } from "./dom.js";

const FIRST = ["kick_door", "resolve_combat", "run_away", "pass", "accept_help", "decline_help",
  "accept_trade", "decline_trade", "choose", "loot_room", "end_turn"];
const GROUPS = [
  { title: "Ask for help", verbs: ["ask_help"] },
  { title: "Your cards: take off, sell, discard", verbs: ["unequip", "sell", "discard"] },
  { title: "Trade and give", verbs: ["trade"] },
];
const PRIMARY = new Set(["kick_door", "resolve_combat", "end_turn"]);
const LOG_KEEP = 300;

let shownActions = "";

/** The table's rules in words: the standard ones, or the options chosen (those not at their
 * defaults, as the lobby table gives them). */
export function rulesLine(options) {
  const chosen = Object.entries(options || {});
  if (chosen.length === 0) return "Standard rules.";
  return `Table rules: ${chosen.map(([name, value]) => `${name.replaceAll("_", " ")} ${value}`).join(", ")}.`;
}

/** The legal actions as buttons: the usual ones first, the many small ones in groups. The
 * buttons stay as they are while the actions do not change (focus and clicks are kept). */
function renderActions(state, act) {
  const list = document.getElementById("action-list");
  const key = JSON.stringify([state.seat, state.view.legal, state.labels]);
  if (key === shownActions) {
    for (const button of list.querySelectorAll("button")) button.disabled = false;
    return;
  }
  shownActions = key;
  const focused = list.contains(document.activeElement) ? document.activeElement.textContent : null;
  const legal = state.view.legal || [];
  if (!state.seat) {
    fill("action-list", h("p", {}, "You are watching: spectators see no hand and have no actions."));
    return;
  }
  if (legal.length === 0) {
    fill("action-list", h("p", {}, "Nothing to do right now."));
    return;
  }
  const button = (i) => h("button", { type: "button", class: PRIMARY.has(legal[i].verb) ? "primary" : null,
    onclick: () => act(i) }, state.labels[i] || legal[i].verb);
  const indexes = legal.map((_, i) => i);
  const grouped = new Set(GROUPS.flatMap((g) => g.verbs));
  const rank = (i) => { const r = FIRST.indexOf(legal[i].verb); return r < 0 ? FIRST.length : r; };
  const main = indexes.filter((i) => !grouped.has(legal[i].verb)).sort((a, b) => rank(a) - rank(b) || a - b);
  fill(
    "action-list",
    main.length > 0 && h("div", { class: "buttons", role: "group", "aria-label": "Main actions" }, main.map(button)),
    GROUPS.map((group) => {
      const mine = indexes.filter((i) => group.verbs.includes(legal[i].verb));
      return mine.length > 0 && h("details", {},
        h("summary", {}, `${group.title} (${mine.length})`),
        h("div", { class: "buttons", role: "group", "aria-label": group.title }, mine.map(button)));
    }),
  );
  if (focused !== null) {
    const buttons = [...list.querySelectorAll("button")];
    (buttons.find((b) => b.textContent === focused) || buttons[0] || list).focus();
  }
}

/** A strength breakdown ("munchkins 7 = 3 Ann's level (B6) + 4 ...") as a list of its parts. */
function breakdown(title, side) {
  const [head, parts = ""] = side.explain.split(" = ");
  const terms = parts ? parts.split(/ (?=[+-] \d)/) : [];
  return h("div", { class: "breakdown" },
    h("h4", {}, `${title}: ${side.total}`),
    h("ul", { "aria-label": head }, terms.map((term) => h("li", {}, term))));
}

function renderCombat(view) {
  const combat = view.combat;
  document.getElementById("combat").hidden = !combat;
  if (!combat) return;
  const who = combat.helper ? `${combat.fighter}, helped by ${combat.helper},` : combat.fighter;
  fill(
    "combat-body",
    h("p", {}, `${who} fights${combat.stage === "run" ? ", and must run away" : ""}.`),
    combat.asked && h("p", {}, `${combat.asked} is asked to help for ${combat.reward} treasure(s).`),
    cardList(combat.monsters, "Monsters", "normal"),
    combat.played.length > 0 && cardList(combat.played, "Cards played in the fight"),
    h("div", { class: "sides" }, breakdown("Munchkins", combat.munchkins), breakdown("Monsters", combat.monster_side)),
  );
}

function renderHand(state) {
  const view = state.view;
  if (!state.seat) {
    fill("hand-cards", h("p", {}, "Spectators do not see any hand."));
    return;
  }
  fill("hand-cards",
    h("p", {}, `${view.hand.length} card(s); your hand limit is ${view.hand_limit}.`),
    cardList(view.hand, "Your hand", "normal"));
}

function offerLine(offer) {
  const names = (cards) => cards.map((card) => card.name).join(", ") || "nothing";
  return h("p", {}, `${offer.from} offers ${offer.to} ${names(offer.give)} for ${names(offer.take)}.`);
}

function renderPiles(view, table) {
  const top = (pile) => (pile.length > 0 ? [pile[pile.length - 1]] : []);
  fill("pile-body",
    table && h("p", { class: "rules" }, rulesLine(table.options)),
    view.offer && offerLine(view.offer),
    h("p", {}, `Door deck: ${view.door_deck_count} cards. Treasure deck: ${view.treasure_deck_count} cards.`),
    view.face_up && h("div", {}, h("h4", {}, "Drawn face up"), cardFace(view.face_up)),
    h("div", { class: "piles" },
      h("div", {}, h("h4", {}, "Door discards"), cardList(top(view.door_discard), "Top door discard")),
      h("div", {}, h("h4", {}, "Treasure discards"), cardList(top(view.treasure_discard), "Top treasure discard"))),
    view.body.length > 0 && h("div", {}, h("h4", {}, "A body to loot"), cardList(view.body, "Body")));
}

function playerTitle(player, state, seat) {
  const notes = [`level ${player.level}`, `strength ${player.strength}`, player.sex, `${player.hand_count} card(s) in hand`];
  for (const lasting of player.lasting) {
    notes.push(`${lasting.amount > 0 ? "+" : ""}${lasting.amount} to ${lasting.kind.replace("_", " ")}`);
  }
  const mine = player.name === state.seat;
  if (player.name === state.view.active && state.view.phase !== "setup") notes.push(mine ? "your turn" : "their turn");
  if (player.dead) notes.push("dead");
  if ((state.view.winners || []).includes(player.name)) {
    notes.push(state.view.winners.length > 1 ? "won the game together" : "won the game");
  }
  if (seat && seat.kind !== "human") notes.push(`bot (${seat.kind.slice(4)})`);
  if (seat && !seat.present) notes.push("away");
  if (seat && seat.standin) notes.push("a bot plays for them");
  return `${player.name}${mine ? " (you)" : ""}: ${notes.join(", ")}`;
}

function renderPlayers(state) {
  const seats = new Map((state.seats || []).map((s) => [s.name, s]));
  fill("player-list", state.view.players.map((player) => {
    const zones = [
      ["Race", player.races], ["Class", player.classes], ["In use", player.equipped],
      ["Carried", player.carried], ["Steeds", player.steeds], ["Hirelings", player.hirelings],
      ["Curses", player.curses], ["Other cards", player.boosts],
    ].filter(([, cards]) => cards.length > 0);
    return h("article", { class: `player${player.name === state.view.active ? " active" : ""}`,
      "aria-label": player.name },
      h("h4", {}, playerTitle(player, state, seats.get(player.name))),
      zones.map(([label, cards]) => h("div", { class: "zone" }, h("span", { class: "zone-label" }, label),
        cardList(cards, `${player.name}: ${label}`))));
  }));
}

function appendLog(lines) {
  const log = document.getElementById("log");
  for (const line of lines) log.append(h("li", {}, line));
  while (log.children.length > LOG_KEEP) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

/** Draw the whole table from the state the server sent; `act(i)` plays legal action i. */
export function renderTable(state, lines, act) {
  const view = state.view;
  document.getElementById("table-title").textContent = `Game ${state.code}, turn ${view.turn}`;
  fill("situation", state.situation || "");
  renderActions(state, act);
  renderCombat(view);
  renderHand(state);
  renderPiles(view, state.table);
  renderPlayers(state);
  appendLog(lines);
}

/** Empty the table (another game is opened). */
export function clearTable() {
  fill("log");
  fill("action-list");
  shownActions = "";
}
