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

function hue(text) {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) % 360;
  return h;
}

function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "\u00b1") + Math.abs(n); }

// A card: its Faction, its value and the Survivors it brings (or costs).
function cardNode(card, extra) {
  const h = hue(card.faction);
  const node = el("div", { class: "card " + ((extra && extra.class) || ""), title: card.label,
                           dataset: { card: card.id, label: card.label } });
  node.style.borderColor = `hsl(${h}, 45%, 40%)`;
  node.style.background = `hsl(${h}, 60%, 95%)`;
  node.append(el("div", { class: "faction", text: card.faction }));
  node.append(el("div", { class: "value", text: card.value === null || card.value === undefined ? "\u2605" : card.value }));
  if (card.survivors) node.append(el("div", { class: "survivors" + (card.survivors < 0 ? " loss" : ""), text: signed(card.survivors) }));
  else node.append(el("div", { class: "survivors", text: "" }));
  if (extra && extra.who) node.append(el("div", { class: "who", text: extra.who }));
  return node;
}
