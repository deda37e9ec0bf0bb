// Dialogs instead of walls of buttons: a trade (partner and items), a help request with a
// bribe (treasures and items; a player who declined may be asked again with more, as often
// as the table allows), and a confirmation before a play that costs more than it says.
// Each is a modal <dialog>: the focus stays in it, Esc closes it.

import { carriedWhy } from "./cards.js";
import { fill, h, treasures } from "./dom.js";

function dialog() {
  return document.getElementById("dialog");
}

function open(title, ...body) {
  const el = dialog();
  fill("dialog", h("form", { method: "dialog", "aria-labelledby": "dialog-title" }, h("h3", { id: "dialog-title" }, title), ...body));
  el.showModal();
  const first = el.querySelector("select, input, button");
  if (first) first.focus();
  return el;
}

function close() {
  dialog().close();
}

function checkboxes(name, ids, names, checked = []) {
  if (ids.length === 0) return h("p", { class: "none" }, "nothing to choose");
  return ids.map((id) => h("label", { class: "check" },
    h("input", { type: "checkbox", name, value: id, checked: checked.includes(id) || null }), names.get(id) || id));
}

function chosen(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((el) => el.value);
}

/** A warning in words: an item only carried says why, if its card and `me` (the player's
 * table) tell. */
function warning(w, me) {
  const why = w.kind === "carried" && me ? carriedWhy(w.card, me) : null;
  return `${w.message}${why ? `: ${why}` : ""} (${w.rule})`;
}

/** Ask before a play with consequences (a race or class discarded, an item only carried, a
 * card lost to a limit); `go()` plays it; `me`: the player's table. */
export function confirmPlay(label, warnings, go, me = null) {
  open(`${label}?`,
    h("ul", { class: "warnings" }, warnings.map((w) => h("li", {}, warning(w, me)))),
    h("p", { class: "buttons" },
      h("button", { type: "button", class: "primary", onclick: () => { close(); go(); } }, "Yes, do it"),
      h("button", { type: "button", onclick: close }, "Think again")));
}

/** The trade dialog: a partner, what you give and what you take (from the trades the game
 * lists: each item that may change hands); `send(action)` offers it. */
export function tradeDialog(trades, names, send) {
  const partners = [...new Set(trades.map((a) => a.arg))];
  const items = (partner, field) => [...new Set(trades.filter((a) => a.arg === partner).flatMap((a) => a[field] || []))];
  const render = (partner) => {
    fill("trade-items",
      h("fieldset", {}, h("legend", {}, "You give"), checkboxes("give", items(partner, "give"), names)),
      h("fieldset", {}, h("legend", {}, `You take from ${partner}`), checkboxes("take", items(partner, "take"), names),
        h("p", { class: "none" }, "Take nothing to give it as a gift.")));
  };
  const el = open("Trade or give",
    h("label", {}, "Trade with", h("select", { name: "partner", onchange: (e) => render(e.target.value) },
      partners.map((p) => h("option", { value: p }, p)))),
    h("div", { id: "trade-items", class: "dialog-items" }),
    h("p", { class: "buttons" },
      h("button", { type: "button", class: "primary", onclick: () => {
        const form = el.querySelector("form");
        const give = chosen(form, "give");
        const take = chosen(form, "take");
        if (give.length === 0 && take.length === 0) {
          fill("dialog-note", "Choose at least one item to give or take.");
          return;
        }
        close();
        send({ verb: "trade", arg: form.partner.value, ...(give.length ? { give } : {}), ...(take.length ? { take } : {}) });
      } }, "Offer it"),
      h("button", { type: "button", onclick: close }, "Cancel")),
    h("p", { id: "dialog-note", role: "status" }));
  render(partners[0]);
}

/** The help request: whom, how many of the fight's treasures, which of your items in play;
 * `asked` holds the treasures last offered to each player in this fight, `declined` who said
 * no, `times` how often the table lets one player be asked; `send(action)` asks. */
export function helpDialog(asks, items, names, asked, declined, times, send) {
  const helpers = [...new Set(asks.map((a) => a.arg))];
  const most = Math.max(0, ...asks.map((a) => a.reward || 0));
  const suggest = (helper) => (helper in asked ? Math.min(most, asked[helper] + 1) : 0);
  const note = (helper) => (declined.includes(helper)
    ? `${helper} declined ${treasures(asked[helper] ?? 0)} before: offer more? (each player may be asked ${times} time(s) a fight)`
    : "");
  const el = open("Ask for help",
    h("label", {}, "Whom to ask", h("select", { name: "helper", onchange: (e) => {
      el.querySelector('[name="reward"]').value = suggest(e.target.value);
      fill("dialog-note", note(e.target.value));
    } }, helpers.map((p) => h("option", { value: p }, p)))),
    h("div", { class: "bribe" },
      h("label", {}, `Treasures promised (of ${most})`,
        h("input", { type: "number", name: "reward", min: 0, max: most, value: suggest(helpers[0]), inputmode: "numeric" })),
      h("button", { type: "button", "aria-label": "One treasure less", onclick: () => step(-1) }, "−"),
      h("button", { type: "button", "aria-label": "One treasure more", onclick: () => step(1) }, "+")),
    h("fieldset", {}, h("legend", {}, "Items of yours as a bribe"), checkboxes("give", items, names)),
    h("p", { id: "dialog-note", role: "status" }, note(helpers[0])),
    h("p", { class: "buttons" },
      h("button", { type: "button", class: "primary", onclick: () => {
        const form = el.querySelector("form");
        const reward = Math.max(0, Math.min(most, Number(form.reward.value) || 0));
        const give = chosen(form, "give");
        close();
        send({ verb: "ask_help", arg: form.helper.value, ...(reward ? { reward } : {}), ...(give.length ? { give } : {}) });
      } }, "Ask"),
      h("button", { type: "button", onclick: close }, "Cancel")));
  function step(by) {
    const input = el.querySelector('[name="reward"]');
    input.value = Math.max(0, Math.min(most, (Number(input.value) || 0) + by));
  }
}
