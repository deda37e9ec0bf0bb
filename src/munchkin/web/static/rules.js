// The rules page: the rules in short, in the words of the terminal's `?` screen (/api/rules),
// drawn from their few Markdown forms (headings, paragraphs, numbered lists, bold, italics,
// code) into elements, never into HTML strings.

import { fill, h } from "./dom.js";

function inline(text) {
  const parts = [];
  const pattern = /\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    if (match[1]) parts.push(h("strong", {}, match[1]));
    else if (match[2]) parts.push(h("em", {}, match[2]));
    else parts.push(h("code", {}, match[3]));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** Markdown of the rules as elements. */
export function markdown(source) {
  const out = [];
  for (const block of source.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((line) => line.trim());
    const heading = lines.length > 0 && lines[0].match(/^(#+)\s+(.*)$/);
    if (heading) {
      out.push(h(`h${Math.min(6, heading[1].length + 1)}`, {}, inline(heading[2])));
      continue;
    }
    let text = [];
    let items = null;
    const flush = () => {
      if (text.length > 0) out.push(h("p", {}, inline(text.join(" "))));
      if (items) out.push(h("ol", {}, items.map((item) => h("li", {}, inline(item)))));
      text = [];
      items = null;
    };
    for (const line of lines) {
      if (/^\d+\.\s/.test(line)) {
        if (text.length > 0) { out.push(h("p", {}, inline(text.join(" ")))); text = []; }
        items = items || [];
        items.push(line.replace(/^\d+\.\s*/, ""));
      } else if (items && /^\s/.test(line)) {
        items[items.length - 1] += ` ${line.trim()}`;
      } else {
        if (items) flush();
        text.push(line.trim());
      }
    }
    flush();
  }
  return out;
}

let loaded = null;

/** Fill the rules page (once). */
export async function showRules() {
  if (loaded) return;
  try {
    const response = await fetch("/api/rules");
    const data = await response.json();
    loaded = data.markdown;
    fill("rules-body", markdown(loaded));
  } catch {
    fill("rules-body", h("p", {}, "The rules could not be loaded: try again later."));
  }
}
