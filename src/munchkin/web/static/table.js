// The game table: where the turn is, what to do (grouped, with dialogs for trades and help),
// the fight with its verdict and escape chances, your hand (greyed cards say why), everyone's
// table, the log, and the standings at the end.

import { cardFace, cardList, followCardPanel, logLine } from "./cards.js";
import { fill, h, treasures } from "./dom.js";

export const GROUP_TITLES = {
  main: "To do now",
  play: "Play a card",
  powers: "Race and class powers",
  items: "Your items: put on, take off, sell, discard",
  help: "Ask for help",
  trade: "Trade and give",
  self_curse: "Curses on yourself",
};
const FIRST = ["kick_door", "resolve_combat", "run_away", "pass", "accept_help", "decline_help",
  "accept_trade", "decline_trade", "choose", "loot_room", "end_turn"];
const PRIMARY = new Set(["kick_door", "resolve_combat", "end_turn"]);
const OPEN_GROUPS = new Set(["main", "play"]);
const STEPS = [
  ["setup", "Before the first turn"],
  ["door", "Kick open the door"],
  ["combat", "Fight"],
  ["after_door", "Loot or look for trouble"],
  ["end", "Charity and end of turn"],
  ["over", "Game over"],
];
const STEP_OF = { setup: "setup", start: "door", face_up: "door", combat: "combat", after_door: "after_door", end: "end", over: "over" };
const HINTS = {
  setup: "Before the first turn you may play a race, a class and items from your hand. Choose Pass once you are ready.",
  door: "Kick open the door: the top door card is turned face up. A monster must be fought; a curse hits you at once.",
  combat: "You win only when stronger than the monsters (a Warrior wins ties). Play one-shots, ask someone for help with a bribe, or choose Fight! to settle it. If you lose, you roll a die per monster to run away: 5 or more escapes.",
  after_door: "No monster behind the door? Look for trouble (fight a monster from your hand), or loot the room (draw a door card face down).",
  end: "End your turn. With more cards in hand than your limit, the excess goes to the lowest-level player (charity).",
  charity: "Your hand is over its limit: choose the cards to part with, one at a time. Each goes to the lowest-level player, or to the discard pile when that is you (charity).",
};
/** The questions of charity (B5): while one is open, its hint, not the end of the turn's. */
const CHARITY = new Set(["charity", "charity_to"]);

let shownActions = "";
let focusActions = false;

/** The table's rules in words: the standard ones, or the options chosen (those not at their
 * defaults, as the lobby table gives them). */
export function rulesLine(options) {
  const chosen = Object.entries(options || {});
  if (chosen.length === 0) return "Standard rules.";
  return `Table rules: ${chosen.map(([name, value]) => `${name.replaceAll("_", " ")} ${value}`).join(", ")}.`;
}

/** Whether the viewer fights, or helps, the fight on now, and is losing it. */
export function losing(state) {
  const combat = state.advice && state.advice.combat;
  return Boolean(combat && !combat.wins && [combat.fighter, combat.helper].includes(state.seat));
}

/** After the next render, put the focus on the first action (an action was just taken). */
export function focusNextAction() {
  focusActions = true;
}

// -- the turn --------------------------------------------------------------------------------

function renderTracker(view) {
  const current = STEP_OF[view.phase] || "door";
  const shown = ([key]) => (key !== "setup" || current === "setup") && (key !== "over" || current === "over");
  fill("tracker", STEPS.filter(shown).map(([key, words]) =>
    h("li", { class: key === current ? "current" : null, "aria-current": key === current ? "step" : null }, words)));
}

function renderScore(state) {
  const combat = state.view.combat;
  const el = document.getElementById("fight-score");
  el.hidden = !combat;
  if (!combat) return;
  const verdict = state.advice && state.advice.combat ? state.advice.combat.verdict : "";
  fill("fight-score",
    h("span", { class: "ours" }, `Munchkins ${combat.munchkins.total}`), " vs ",
    h("span", { class: "theirs" }, `Monsters ${combat.monster_side.total}`),
    verdict && h("span", { class: "verdict" }, ` · ${verdict}`));
}

function renderHints(state) {
  const view = state.view;
  const el = document.getElementById("hints");
  const players = view.players.length;
  const early = view.turn <= 2 * players;
  const charity = view.prompt && view.prompt.player === state.seat && CHARITY.has(view.prompt.kind);
  const step = charity ? "charity" : STEP_OF[view.phase];
  const mine = state.seat && (view.phase === "setup" || view.active === state.seat) && view.deciding;
  const off = localStorage.getItem("munchkin.hints") === "off";
  el.hidden = !(early && mine && !off && HINTS[step]);
  if (el.hidden) return;
  fill("hints", h("p", {}, h("strong", {}, "Hint: "), HINTS[step]),
    h("button", { type: "button", onclick: () => { localStorage.setItem("munchkin.hints", "off"); el.hidden = true; } }, "No more hints"));
}

function renderStandin(state, dismissed) {
  const el = document.getElementById("standin");
  const did = state.standin || [];
  el.hidden = did.length === 0 || dismissed.has(did.length);
  if (el.hidden) return;
  fill("standin",
    h("h3", {}, "While you were away, a bot played for you"),
    h("ol", {}, did.map((line) => h("li", {}, line))),
    h("button", { type: "button", onclick: () => { dismissed.add(did.length); el.hidden = true; } }, "Got it"));
}

// -- actions ---------------------------------------------------------------------------------

/** The legal actions as buttons, by kind: what to do now first, self-curses last; trades and
 * help requests open a dialog. The buttons stay as they are while the actions do not change. */
function renderActions(state, ui) {
  const list = document.getElementById("action-list");
  const lose = losing(state);
  const key = JSON.stringify([state.seat, state.view.legal, state.labels, state.groups, lose]);
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
    fill("action-list", h("p", {}, state.view.winners && state.view.winners.length ? "The game is over." : "Nothing to do right now."));
    return;
  }
  const groups = state.groups && state.groups.length === legal.length ? state.groups : legal.map(() => "main");
  const label = (i) => {
    const words = state.labels[i] || legal[i].verb;
    return legal[i].verb === "resolve_combat" && lose ? `${words}: you lose it now, then run away` : words;
  };
  const loses = (i) => lose && legal[i].verb === "resolve_combat";
  const button = (i) => h("button", {
    type: "button",
    class: PRIMARY.has(legal[i].verb) && !loses(i) ? "primary" : null,
    "data-loses": loses(i) ? "true" : null,
    onclick: () => ui.choose(i),
  }, label(i));
  const rank = (i) => { const r = FIRST.indexOf(legal[i].verb); return r < 0 ? FIRST.length : r; };
  const sections = Object.keys(GROUP_TITLES).map((group) => {
    const mine = legal.map((_, i) => i).filter((i) => groups[i] === group);
    if (mine.length === 0) return null;
    if (group === "help") {
      return h("div", { class: "buttons", role: "group", "aria-label": GROUP_TITLES.help },
        h("button", { type: "button", onclick: () => ui.askHelp() }, `Ask for help… (${new Set(mine.map((i) => legal[i].arg)).size} player(s))`));
    }
    if (group === "trade") {
      return h("div", { class: "buttons", role: "group", "aria-label": GROUP_TITLES.trade },
        h("button", { type: "button", onclick: () => ui.trade() }, "Trade or give…"));
    }
    if (group === "main") mine.sort((a, b) => rank(a) - rank(b) || a - b);
    if (lose && group === "main") mine.sort((a, b) => (legal[a].verb === "resolve_combat") - (legal[b].verb === "resolve_combat"));
    const buttons = h("div", { class: "buttons", role: "group", "aria-label": GROUP_TITLES[group] }, mine.map(button));
    if (group === "main") return buttons;
    return h("details", { open: OPEN_GROUPS.has(group) || null },
      h("summary", {}, `${GROUP_TITLES[group]} (${mine.length})`), buttons);
  });
  fill("action-list", sections);
  const buttons = [...list.querySelectorAll("button")];
  if (focused !== null || focusActions) {
    // Enter never takes a lost fight unasked: the focus skips the losing Fight! (README).
    const first = buttons.find((b) => !b.dataset.loses) || buttons[0];
    (buttons.find((b) => b.textContent === focused) || first || list).focus();
  }
  focusActions = false;
}

// -- the fight -------------------------------------------------------------------------------

/** A strength breakdown ("munchkins 7 = 3 Ann's level (B6) + 4 ...") as a list of its parts. */
function breakdown(title, side) {
  const [head, parts = ""] = side.explain.split(" = ");
  const terms = parts ? parts.split(/ (?=[+-] \d)/) : [];
  return h("div", { class: "breakdown" },
    h("h4", {}, `${title}: ${side.total}`),
    h("ul", { "aria-label": head }, terms.map((term) => h("li", {}, term))));
}

/** One runner's chance against one monster, as the terminal reads it (`words.fight.escape_line`):
 * the modifier's parts only when it has any. */
export function escapeLine(entry, names) {
  const name = names.get(entry.monster) || entry.monster;
  if (entry.automatic === "escapes") return `${name}: escaped at once, no roll`;
  if (entry.automatic === "caught") return `${name}: nobody escapes it by running`;
  const need = entry.needs - entry.modifier;
  const roll = need <= 1 ? "every roll escapes" : need > 6 ? "even a 6 fails" : `a roll of ${need} or more`;
  const parts = entry.explain.split(" = ")[1] || "";
  return `${name}: ${entry.faces} in 6 (${roll}${parts === "" || parts === "0" ? "" : `; ${entry.explain}`})`;
}

function renderCombat(state) {
  const view = state.view;
  const combat = view.combat;
  document.getElementById("combat").hidden = !combat;
  if (!combat) return;
  const advice = state.advice && state.advice.combat;
  const who = combat.helper ? `${combat.fighter}, helped by ${combat.helper},` : combat.fighter;
  const names = new Map([...combat.monsters, ...combat.played].map((card) => [card.id, card.name]));
  const run = advice ? Object.entries(advice.run).sort(([a], [b]) => (b === state.seat) - (a === state.seat)) : [];
  fill(
    "combat-body",
    h("p", {}, `${who} fights${combat.stage === "run" ? ", and must run away" : ""}.`),
    advice && h("p", { class: `verdict ${advice.wins ? "winning" : "losing"}` }, advice.verdict),
    combat.asked && h("p", {}, `${combat.asked} is asked to help for ${treasures(combat.reward)}.`),
    cardList(combat.monsters, "Monsters", "normal"),
    combat.played.length > 0 && h("div", {}, h("h4", {}, "Cards played in the fight"), cardList(combat.played, "Cards played in the fight")),
    h("div", { class: "sides" }, breakdown("Munchkins", combat.munchkins), breakdown("Monsters", combat.monster_side)),
    run.map(([runner, entries]) => h("details", { class: "escape", open: runner === state.seat || null },
      h("summary", {}, `${runner === state.seat ? "If you must run away" : `If ${runner} must run away`}: chances per monster`),
      h("ul", {}, entries.map((entry) => h("li", {}, escapeLine(entry, names)))))),
  );
}

// -- cards -----------------------------------------------------------------------------------

function renderHand(state) {
  const view = state.view;
  if (!state.seat) {
    fill("hand-cards", h("p", {}, "Spectators do not see any hand."));
    return;
  }
  const notes = {};
  for (const [id, why] of Object.entries((state.advice && state.advice.why_not) || {})) notes[id] = `${why.message} (${why.rule})`;
  fill("hand-cards",
    h("p", {}, `${view.hand.length} card(s); your hand limit is ${view.hand_limit}. Greyed cards cannot be played now: open one to see why.`),
    cardList(view.hand, "Your hand", "normal", notes));
}

function offerLine(offer) {
  const names = (cards) => cards.map((card) => card.name).join(", ") || "nothing";
  const what = offer.take.length > 0 ? `for ${names(offer.take)}` : "as a gift";
  return h("p", {}, `${offer.from} offers ${offer.to} ${names(offer.give)} ${what}.`);
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

// -- the log ---------------------------------------------------------------------------------

export function appendLog(lines) {
  const log = document.getElementById("log");
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  for (const line of lines) log.append(h("li", {}, logLine(line)));
  if (atEnd || lines.length > 0) log.scrollTop = log.scrollHeight;
}

/** Replace the log with these lines (the whole log, fetched). */
export function replaceLog(lines) {
  fill("log");
  appendLog(lines);
}

// -- the end ---------------------------------------------------------------------------------

function renderEnd(state, ui) {
  const end = state.end;
  const el = document.getElementById("end");
  el.hidden = !end;
  if (!end) return;
  const next = state.table && state.table.again;
  const mine = state.seat !== null;
  fill("end",
    h("h3", { id: "end-title" }, end.title),
    h("p", {}, `${end.turns} turns played.`),
    end.how.map((line) => h("p", {}, line)),
    h("table", { class: "standings" },
      h("caption", {}, "Standings"),
      h("thead", {}, h("tr", {}, ["Place", "Player", "Level", "Race and class", "Fights won", "Deaths"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, end.rows.map((row) => h("tr", { class: row.won ? "won" : null },
        h("td", {}, row.won ? "winner" : `#${row.place}`), h("th", { scope: "row" }, row.name), h("td", {}, String(row.level)),
        h("td", {}, row.traits), h("td", {}, String(row.fights_won)), h("td", {}, String(row.deaths)))))),
    h("p", { class: "buttons" },
      mine && h("button", { type: "button", class: "primary", onclick: () => ui.playAgain() },
        next ? `Join the next game (${next})` : "Play again with the same seats"),
      !mine && next && h("button", { type: "button", class: "primary", onclick: () => ui.watchNext(next) }, `Watch their next game (${next})`),
      !mine && !next && h("span", {}, "The players may start another game: you can watch it from here. "),
      h("a", { href: "#/", class: "button" }, "New game")));
}

// -- all of it -------------------------------------------------------------------------------

/** Draw the whole table from the state the server sent. `ui`: what the controls do. */
export function renderTable(state, lines, ui) {
  const view = state.view;
  document.getElementById("table-title").textContent = `Game ${state.code}, turn ${view.turn}`;
  fill("situation", state.situation || "");
  renderTracker(view);
  renderScore(state);
  renderHints(state);
  renderStandin(state, ui.dismissed);
  renderEnd(state, ui);
  renderActions(state, ui);
  renderCombat(state);
  renderHand(state);
  renderPiles(view, state.table);
  renderPlayers(state);
  appendLog(lines);
  followCardPanel();
}

/** Empty the table (another game is opened). */
export function clearTable() {
  fill("log");
  fill("action-list");
  shownActions = "";
}
