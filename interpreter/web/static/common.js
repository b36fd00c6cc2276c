// Shared by both pages: calling the JSON API and drawing cards. Plain JavaScript, no library.
"use strict";

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `the server answered ${response.status}` }; }
  if (!response.ok) {
    const error = new Error((data && data.error) || `the server answered ${response.status}`);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "\u00b1") + Math.abs(n); }

// Each Faction's colour and icon come from its box file (the view's `styles`); a Faction without a colour gets
// one of the Okabe-Ito palette, which stays distinguishable with the common colour blindnesses, by its place.
const OKABE_ITO = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999"];
let factionStyles = {};

function setStyles(styles) {
  factionStyles = {};
  let generated = 0;
  for (const [name, style] of Object.entries(styles || {})) {
    const colour = style.colour || OKABE_ITO[generated++ % OKABE_ITO.length];
    factionStyles[name] = { colour, icon: style.icon || "", ink: inkOn(colour) };
  }
}

// Black or white, whichever contrasts more with a colour (WCAG relative luminance).
function inkOn(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000000" : "#ffffff";
}

function styleOf(faction) { return factionStyles[faction] || { colour: "#777777", icon: "", ink: "#ffffff" }; }

// The words a card is read out as: its name (its box's card_names, else its label) and the Survivors it brings or costs.
function cardName(card) { return card.name || card.label; }

function cardWords(card) {
  return cardName(card) + (card.survivors ? ` (${signed(card.survivors)} Survivors)` : "");
}

// A card: its Faction (full name, icon, colour), its value and the Survivors it brings (or costs). A card that can
// be played is a button (Tab to it, Enter or Space plays it); `extra.playable === false` draws a disabled one.
function cardNode(card, extra) {
  extra = extra || {};
  const style = styleOf(card.faction);
  const button = extra.playable !== undefined;
  const node = el(button ? "button" : "div", { class: "card " + (extra.class || ""), title: cardWords(card),
    "aria-label": button ? cardWords(card) + (extra.who ? `, ${extra.who}` : "") : null,
    disabled: button && !extra.playable, type: button ? "button" : null, dataset: { card: card.id, label: card.label } });
  node.style.setProperty("--faction", style.colour);
  node.style.setProperty("--faction-ink", style.ink);
  node.append(el("span", { class: "faction" }, el("span", { class: "name", text: card.faction })));
  if (card.name) node.append(el("span", { class: "value", text: card.name }));  // the name its box gives it (card_names)
  else node.append(el("span", { class: "value" }, style.icon ? el("span", { class: "icon", "aria-hidden": "true", text: style.icon }) : null,
    card.value === null || card.value === undefined ? "\u2605" : String(card.value)));
  node.append(el("span", { class: "survivors" + (card.survivors < 0 ? " loss" : ""), text: card.survivors ? signed(card.survivors) : "" }));
  if (extra.who) node.append(el("span", { class: "who", text: extra.who }));
  return node;
}

// A Faction's name (and who played the card) is never cut: where a word is wider than its card, its letters
// get smaller until it fits.
function fitNames(root) {
  for (const name of root.querySelectorAll(".card .name, .card .who")) {
    name.style.fontSize = "";
    for (let size = 10.5; size >= 7 && name.scrollWidth > name.clientWidth + 0.5; size -= 0.5) name.style.fontSize = size + "px";
  }
}

// A small coloured chip for a card in a list (a Community's Transfer zone, the cards seen going in).
function cardChip(card) {
  const style = styleOf(card.faction);
  const chip = el("span", { class: "chip", title: cardWords(card) }, style.icon && !card.name ? style.icon + " " : "", cardName(card),
    card.survivors ? ` ${signed(card.survivors)}` : "");
  chip.style.setProperty("--faction", style.colour);
  chip.style.setProperty("--faction-ink", style.ink);
  return chip;
}

// An error as the command line shows it: every line kept, the caret under its column (a <pre>, monospace).
function showError(node, error) {
  const text = error ? (error.message || String(error)) : "";
  node.textContent = text;
  node.hidden = !text;
}
