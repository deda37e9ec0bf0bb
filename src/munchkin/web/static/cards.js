// Cards: their data (from /api/cards, with every line of each card in words), their faces
// as buttons, and the card panel that shows a card in full when it is hovered, focused or
// tapped. Every card on the page, in the log too, can be opened this way.

import { h } from "./dom.js";

let catalogue = new Map();
let namePattern = null;
let byName = new Map();

/** Load the card data of the game's sets (once per set list). */
export async function loadCards(sets) {
  const response = await fetch(`/api/cards?sets=${encodeURIComponent(sets.join(","))}`);
  if (!response.ok) return;
  catalogue = new Map((await response.json()).map((card) => [card.id, card]));
  byName = new Map([...catalogue.values()].map((card) => [card.name, card.id]));
  const names = [...byName.keys()].sort((a, b) => b.length - a.length);
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  namePattern = names.length > 0 ? new RegExp(`(${escaped.join("|")})`, "g") : null;
}

export function cardData(id) {
  return catalogue.get(id) || {};
}

/** A card's kind in words, as the terminal says it: the first phrase of its first line
 * (`cardtext.brief`: "one-shot" for a card of type `other` played once into a fight, "kept in
 * play" for one that stays); the bare type until the card data is in. */
export function kindWord(data) {
  const first = data.details && data.details.length > 0 ? data.details[0].split(", ")[0] : null;
  if (first) return first[0].toLowerCase() + first.slice(1);
  return String(data.type || "").replaceAll("_", " ");
}

const NEEDS = [
  [/^Only for: (.+) \(others carry it\)$/, (words, has) => !words.split(" and ").every((any) => any.split(" or ").some(has)), "only for"],
  [/^Not for: (.+) \(they carry it\)$/, (words, has) => words.split(" or ").some(has), "not for"],
];

/** Why an item would go into play carried, not in use (B11), from the card's own lines
 * (`cardtext.details`: "Only for: Wizard", "Not for: Elf") and the player's table `me` (a
 * view's): the race, class or sex it needs or refuses, else no free hands or slot; null when
 * neither tells. */
export function carriedWhy(cardId, me) {
  const data = cardData(cardId);
  const traits = new Set([me.sex, ...[...me.races, ...me.classes].flatMap((c) => [c.name, c.id.replaceAll("-", " ")])]
    .filter(Boolean).map((word) => word.toLowerCase()));
  const has = (word) => traits.has(word.toLowerCase());
  for (const [pattern, hinders, words] of NEEDS) {
    const found = (data.details || []).map((line) => line.match(pattern)).find(Boolean);
    if (found && hinders(found[1], has)) return `it is ${words} ${found[1]}`;
  }
  if (data.slot === "hands") return "you have no free hands for it";
  if (data.slot && data.slot !== "none") return `your ${data.slot} slot is taken`;
  return null;
}

const signed = (n) => `${n > 0 ? "+" : ""}${n}`;

/** The numbers printed on a card, as short phrases. */
function numbers(card) {
  const out = [];
  if (card.type === "monster") {
    out.push(`level ${card.level}`);
    out.push(`${card.treasures} treasure${card.treasures === 1 ? "" : "s"}`);
    if (card.levels > 1) out.push(`${card.levels} levels`);
    if (card.undead) out.push("undead");
  } else if (card.bonus) {
    out.push(signed(card.bonus));
  }
  if (card.run_away) out.push(`${signed(card.run_away)} to run away`);
  if (card.slot && card.slot !== "none") out.push(card.slot === "hands" ? `${card.hands} hand${card.hands > 1 ? "s" : ""}` : card.slot);
  if (card.big) out.push("big");
  if (card.value) out.push(`${card.value} gold`);
  return out;
}

/** What is attached to a card in play, in words: a steed's enhancers, a hireling's load. */
function attachments(card) {
  const out = [];
  if (card.attached && card.attached.length > 0) out.push(`with ${card.attached.map((a) => a.name).join(", ")}`);
  if (card.carrying && card.carrying.length > 0) out.push(`carrying ${card.carrying.map((c) => c.name).join(", ")}`);
  return out;
}

/** A card in words, for its accessible name: name, type, numbers, what it carries. */
export function describeCard(card) {
  const data = { ...cardData(card.id), ...card };
  return [data.name || card.id, kindWord(data), ...numbers(data), ...attachments(card)].join(", ");
}

// -- the card panel ------------------------------------------------------------------------

let pinned = null;
/** The face whose card the panel shows, and the part of the page it is in. */
let showing = null;
let showingIn = null;
/** Each face's card and note, to show a face drawn anew in place of the one shown. */
const faces = new WeakMap();

function panel() {
  return document.getElementById("card-info");
}

/** Show a card in full in the card panel: its lines, what is attached, why it is not playable. */
export function showCard(card, note = null) {
  const data = { ...cardData(card.id), ...card };
  const lines = data.details || [kindWord(data)];
  const extra = [];
  if (card.attached && card.attached.length > 0) extra.push(`With: ${card.attached.map((a) => a.name).join(", ")}`);
  if (card.carrying && card.carrying.length > 0) extra.push(`Carrying: ${card.carrying.map((c) => c.name).join(", ")}`);
  if (card.sex) extra.push(`Now ${card.sex}`);
  const el = panel();
  el.replaceChildren(
    h("div", { class: "card-info-head" },
      h("h4", { id: "card-info-title" }, data.name || card.id),
      h("button", { type: "button", class: "close", "aria-label": "Close the card", onclick: hideCard }, "×")),
    h("ul", {}, [...lines, ...extra].map((line) => h("li", {}, line))),
    note && h("p", { class: "card-note" }, note),
  );
  el.hidden = false;
}

export function hideCard() {
  pinned = null;
  panel().hidden = true;
}

function hover(card, note) {
  const open = (event) => {
    showing = event.currentTarget;
    showingIn = showing.parentElement && showing.parentElement.closest("[id]");
    showCard(card, note);
  };
  return {
    onmouseenter: (event) => { if (!pinned) open(event); },
    onmouseleave: () => { if (!pinned) panel().hidden = true; },
    onfocus: open,
    onblur: () => { if (!pinned) panel().hidden = true; },
    onclick: (event) => {
      const same = pinned === event.currentTarget;
      pinned = same ? null : event.currentTarget;
      if (same) panel().hidden = true;
      else open(event);
    },
  };
}

/** After the page is drawn anew: the panel follows its card to its new face in the same
 * part of the page, and closes when the card is gone from there (no stale card or reason). */
export function followCardPanel() {
  if (!showing || showing.isConnected || panel().hidden) return;
  const id = showing.dataset.card;
  const next = showingIn && showingIn.isConnected
    ? [...showingIn.querySelectorAll("[data-card]")].find((el) => el.dataset.card === id && faces.has(el))
    : null;
  if (!next) {
    showing = null;
    hideCard();
    return;
  }
  if (pinned === showing) pinned = next;
  showing = next;
  const [card, note] = faces.get(next);
  showCard(card, note);
}

// -- faces ---------------------------------------------------------------------------------

const LONG_WORD = /[^\s-]{10}/;

/** A name whose long words may break only with a hyphen: a soft hyphen (shown only where the
 * line breaks) between any two letters with four on each side ("Torchbea-rer", never
 * "Torchbeare r"). Browsers without a hyphenation dictionary break long words anywhere. */
function breakable(name) {
  return name.replace(/[^\s-]{8,}/g, (word) =>
    [...word].map((ch, i) => (i >= 4 && i <= word.length - 4 ? `\u00ad${ch}` : ch)).join(""));
}

/** A card's face, a button that opens it in full: `{id, name, type, attached?, carrying?}`
 * from a view; `note` (why it cannot be played now) greys it and is shown on it. */
export function cardFace(card, size = "normal", note = null, side = null) {
  const data = { ...cardData(card.id), ...card };
  const deck = data.deck || "door";
  const main = data.type === "monster" ? String(data.level) : data.bonus ? signed(data.bonus) : "";
  const extra = numbers(data).filter((n) => !n.startsWith("level") && n !== main).slice(0, 2);
  const label = [describeCard(card), side && `played for the ${side}`, note && `not playable now: ${note}`]
    .filter(Boolean).join("; ");
  const face = h("button", {
    type: "button",
    class: `card ${deck} ${size}${note ? " unplayable" : ""}`,
    "aria-label": label,
    "data-card": card.id,
    ...hover(card, note && `Not now: ${note}`),
  },
  h("span", { class: "card-type" }, kindWord(data)),
  h("span", { class: `card-name${LONG_WORD.test(data.name || card.id) ? " long" : ""}` }, breakable(data.name || card.id)),
  main && h("span", { class: "card-number" }, main),
  extra.length > 0 && h("span", { class: "card-extra" }, extra.join(" · ")),
  ...attachments(card).map((text) => h("span", { class: "card-with" }, text)),
  side && h("span", { class: `card-side ${side}` }, `for the ${side}`),
  note && h("span", { class: "card-why" }, `Not now: ${note}`));
  faces.set(face, [card, note && `Not now: ${note}`]);
  return face;
}

/** A list of card faces, or a word when there are none; `notes` by card id grey some. */
export function cardList(cards, label, size = "small", notes = {}) {
  if (!cards || cards.length === 0) return h("p", { class: "none" }, `${label}: none`);
  return h(
    "ul",
    { class: "cards", "aria-label": label },
    cards.map((card) => h("li", {}, cardFace(card, size, notes[card.id] || null, card.side || null))),
  );
}

/** A line of the log with each card name in it a button that opens the card. */
export function logLine(text) {
  if (!namePattern) return text;
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(namePattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    const id = byName.get(match[0]);
    const link = h("button", { type: "button", class: "card-link", "data-card": id, ...hover({ id, name: match[0] }) }, match[0]);
    faces.set(link, [{ id, name: match[0] }, null]);
    parts.push(link);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && !panel().hidden) hideCard();
});
