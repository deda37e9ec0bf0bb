// Building the page from data: elements are made with text nodes, never from HTML strings,
// so a player's name can never become markup.

const SVG = "http://www.w3.org/2000/svg";

/** An element with attributes (`on*` functions become listeners) and children (text or nodes). */
export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of the element with this id. */
export function fill(id, ...children) {
  const el = document.getElementById(id);
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Show the one main section with this id, hide the others. */
export function show(id) {
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== id;
}

/** A number of treasures in words, as the log says it (`text.treasures`): `no treasure`,
 * `1 treasure`, `2 treasures`. */
export function treasures(n) {
  return n === 0 ? "no treasure" : `${n} treasure${n === 1 ? "" : "s"}`;
}

let sayTimer = null;

/** Say something in the status line (read out by screen readers); it clears itself after
 * `ms` milliseconds, so that no stale message stays (a newer one replaces it at once). */
export function say(text, ms = 10000) {
  const el = document.getElementById("status");
  el.textContent = text;
  clearTimeout(sayTimer);
  const wait = Math.min(ms, window.munchkinSayMs ?? ms);  // tests make messages go sooner
  if (text) sayTimer = setTimeout(() => { if (el.textContent === text) el.textContent = ""; }, wait);
}
