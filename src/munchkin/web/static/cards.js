// Card faces drawn as SVG from the card data (name, type, numbers): no images needed.

import { h } from "./dom.js";

const TYPE_WORDS = {
  one_shot: "one-shot",
  go_up_a_level: "go up a level",
  monster_enhancer: "monster enhancer",
  steed_enhancer: "steed enhancer",
  item_enhancer: "item enhancer",
  wandering_monster: "wandering monster",
  divine_intervention: "divine intervention",
};

let catalogue = new Map();

/** Load the card data of the game's sets (once per set list). */
export async function loadCards(sets) {
  const response = await fetch(`/api/cards?sets=${encodeURIComponent(sets.join(","))}`);
  if (response.ok) catalogue = new Map((await response.json()).map((card) => [card.id, card]));
}

function typeWord(type) {
  return TYPE_WORDS[type] || type;
}

/** The numbers printed on a card, as short phrases. */
function numbers(card) {
  const out = [];
  if (card.type === "monster") {
    out.push(`level ${card.level}`);
    out.push(`${card.treasures} treasure${card.treasures === 1 ? "" : "s"}`);
    if (card.levels > 1) out.push(`${card.levels} levels`);
    if (card.undead) out.push("undead");
  } else if (card.bonus) {
    out.push(`${card.bonus > 0 ? "+" : ""}${card.bonus} bonus`);
  }
  if (card.run_away) out.push(`${card.run_away > 0 ? "+" : ""}${card.run_away} to run away`);
  if (card.slot && card.slot !== "none") out.push(card.slot === "hands" ? `${card.hands} hand${card.hands > 1 ? "s" : ""}` : card.slot);
  if (card.big) out.push("big");
  if (card.value) out.push(`${card.value} gold`);
  return out;
}

/** A card's face in words, for screen readers and tooltips. */
export function describeCard(card) {
  const data = { ...card, ...(catalogue.get(card.id) || {}) };
  const parts = [data.name || card.id, typeWord(data.type), ...numbers(data)];
  if (card.attached) parts.push(`with ${card.attached.map((a) => a.name).join(", ")}`);
  return parts.join(", ");
}

/** Split a name at spaces into lines of about `width` characters; the last of `most` lines
 * takes the rest (and is squeezed to fit). */
function wrap(text, width, most = 3) {
  const lines = [];
  for (const word of text.split(/\s+/)) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last] + " " + word).length <= width) lines[last] += " " + word;
    else lines.push(word);
  }
  return lines.length > most ? [...lines.slice(0, most - 1), lines.slice(most - 1).join(" ")] : lines;
}

/** SVG text, squeezed to `width` when longer than `room` characters. */
function line(text, cls, y, room, width) {
  const fit = text.length > room ? { textLength: width, lengthAdjust: "spacingAndGlyphs" } : {};
  return h("svg:text", { class: cls, x: 60, y, "text-anchor": "middle", ...fit }, text);
}

/** The SVG face of a card (`{id, name, type}` from a view), labelled for screen readers. */
export function cardFace(card, size = "normal") {
  const data = { ...card, ...(catalogue.get(card.id) || {}) };
  const label = describeCard(card);
  const deck = data.deck || "door";
  const bonus = data.bonus ? `${data.bonus > 0 ? "+" : ""}${data.bonus}` : "";
  const main = data.type === "monster" ? String(data.level) : bonus;
  const extra = numbers(data).filter((n) => !n.startsWith("level") && !n.endsWith("bonus"));
  const attached = card.attached && card.attached.length > 0;
  return h(
    "svg:svg",
    { class: `card ${deck} ${size}`, viewBox: "0 0 120 168", role: "img", "aria-label": label },
    h("svg:title", {}, label),
    data.text && h("svg:desc", {}, data.text),
    h("svg:rect", { class: "card-bg", x: 2, y: 2, width: 116, height: 164, rx: 10 }),
    h("svg:rect", { class: "card-band", x: 2, y: 2, width: 116, height: 22, rx: 10 }),
    line(typeWord(data.type).toUpperCase(), "card-type", 17, 14, 106),
    ...wrap(data.name || card.id, 14).map((text, i) => line(text, "card-name", 42 + i * 15, 14, 108)),
    main && line(main, "card-number", 112, 6, 100),
    attached && line(`+ ${card.attached.length} attached`, "card-extra", 129, 20, 108),
    ...extra.slice(0, 2).map((text, i) => line(text, "card-extra", 146 + i * 12, 20, 108)),
  );
}

/** A list of card faces, or a dash when there are none. */
export function cardList(cards, label, size = "small") {
  if (!cards || cards.length === 0) return h("p", { class: "none" }, `${label}: none`);
  return h(
    "ul",
    { class: "cards", "aria-label": label },
    cards.map((card) => h("li", {}, cardFace(card, size))),
  );
}
