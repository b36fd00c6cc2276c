// The play page: set up a game, then draw what the server says the person sees and send their answers.
"use strict";

let game = null;       // the last view from the server
let selected = null;   // the card chosen for a lead, waiting for its side
let busy = false;

const $ = (id) => document.getElementById(id);

async function loadSetup() {
  const [scenarios, bots, saves] = await Promise.all([api("GET", "/api/scenarios"), api("GET", "/api/bots"),
                                                      api("GET", "/api/saves")]);
  const select = $("scenario");
  select.replaceChildren(...scenarios.map((s) => el("option", { value: s.ref, text:
    `${s.id} \u2014 ${s.title} (${s.factions.map((f) => f[0] + (f[1] === "positive" ? " +" : f[1] === "negative" ? " \u2212" : "")).join(", ")})${s.source === "mods" ? " [mods]" : ""}` })));
  window.botNames = bots;
  drawSeats();
  drawSaves(saves);
}

function drawSaves(saves) {
  $("save-list").replaceChildren(...saves.map((s) => el("option", { value: s.name, text: s.name })));
  $("resume").disabled = saves.length === 0;
}

function drawSeats() {
  const players = Number($("players").value);
  const seat = Math.min(Number($("seat").value || 0), players - 1);
  $("seat").replaceChildren(...Array.from({ length: players }, (_, i) => el("option", { value: i, text: `Community ${i}`, selected: i === seat })));
  const old = Array.from(document.querySelectorAll("#bots select")).map((s) => s.value);
  const parts = [];
  for (let i = 0; i < players; i++) {
    const choose = el("select", { class: "bot", dataset: { seat: i } },
      window.botNames.map((b) => el("option", { value: b, text: b, selected: (old[i] || "random") === b })));
    parts.push(el("label", {}, `Bot at seat ${i} `, choose));
  }
  $("bots").replaceChildren(...parts);
  markSeat();
}

function markSeat() {
  const seat = Number($("seat").value);
  document.querySelectorAll("#bots select").forEach((s) => {
    s.disabled = Number(s.dataset.seat) === seat;
    s.parentElement.classList.toggle("muted", s.disabled);
  });
}

async function start() {
  $("setup-error").textContent = "";
  const body = {
    scenario: $("scenario").value, players: Number($("players").value), seat: Number($("seat").value),
    bots: Array.from(document.querySelectorAll("#bots select")).map((s) => s.value),
    express: $("mode").value === "express", seed: Number($("seed").value || 0),
  };
  try {
    show(await api("POST", "/api/games", body));
  } catch (e) { $("setup-error").textContent = e.message; }
}

async function resume() {
  $("setup-error").textContent = "";
  try { show(await api("POST", "/api/games", { resume: $("save-list").value })); }
  catch (e) { $("setup-error").textContent = e.message; }
}

async function send(path, body) {
  if (busy) return;
  busy = true;
  $("error").textContent = "";
  document.body.classList.add("waiting");
  try { show(await api("POST", `/api/games/${game.id}/${path}`, body)); }
  catch (e) { $("error").textContent = e.message; }
  finally { busy = false; document.body.classList.remove("waiting"); }
}

function answer(index) { selected = null; return send("answer", { index }); }

function community(seat) { return game.communities[seat].label + (seat === game.seat ? " (you)" : ""); }

function show(view) {
  game = view;
  $("setup").classList.add("hidden");
  $("game").classList.remove("hidden");
  $("title").textContent = `${view.scenario.id} \u2014 ${view.scenario.title}`;
  $("round").textContent = `round ${view.round} of ${view.rounds} \u00b7 you are ${community(view.seat)} \u00b7 seed ${view.seed}`;
  $("takeback").disabled = !view.can_take_back;
  drawCommunities(view);
  drawTable(view);
  drawDecision(view);
  drawHand(view);
  drawBreakdown(view);
  drawNarration(view);
  drawPowers(view);
  const result = $("result");
  if (view.over) {
    const w = view.winners;
    result.textContent = "Game over: " + (w.length === 0 ? "nobody has a Survivor left." :
      w.length === 1 ? `${community(w[0])} wins.` : w.map(community).join(" and ") + " share the win.") +
      " Final populations: " + view.communities.map((c) => `${community(c.seat)} ${c.population}`).join(", ");
    result.classList.remove("hidden");
  } else result.classList.add("hidden");
}

function drawCommunities(view) {
  const active = view.decision ? view.seat : null;
  $("communities").replaceChildren(...view.communities.map((c) => {
    const facedown = c.expedition_size - c.face_up.length;
    return el("div", { class: "community" + (c.you ? " you" : "") + (c.seat === active ? " active" : ""), dataset: { seat: c.seat } },
      el("div", { class: "name", text: community(c.seat) + (c.bot ? ` \u00b7 ${c.bot} bot` : "") }),
      el("div", {}, el("span", { class: "population", text: c.population }), " Survivors ",
         el("span", { class: "muted", text: `(this round ${signed(c.round_gain)} from powers)` })),
      el("div", { class: "muted", text: `${c.hand_size} cards in hand` }),
      el("div", { class: "zone expedition" },
        el("span", { class: "what", text: `Expedition zone: ${c.expedition_size} cards, ${facedown} face down` }),
        el("div", { class: "cards" }, facedown > 0 ? el("div", { class: "card small back", title: `${facedown} face-down cards`, text: facedown }) : null,
           c.face_up.map((card) => cardNode(card, { class: "small" })))),
      c.known.length ? el("div", { class: "zone known" }, el("span", { class: "what", text: "Seen going in: " + c.known.map((k) => k.label).join(", ") })) : null,
      el("div", { class: "zone transfer" }, el("span", { class: "what", text: "Transfer zone" }),
         el("div", { class: "cards" }, c.transfer.map((card) => cardNode(card, { class: "small" })))));
  }));
}

function drawTable(view) {
  $("encounter").replaceChildren(...(view.encounter ? [cardNode(view.encounter)] : [el("span", { class: "muted", text: "none" })]));
  $("reserve").textContent = `Reserve: ${view.reserve_size} cards`;
  const t = view.trick;
  if (!t) { $("trick-title").textContent = "Trick"; $("trick").replaceChildren(); return; }
  $("trick-title").textContent = `Trick: ${community(t.leader)} leads` + (t.side ? ` on the ${t.side === "-" ? "\u2212" : "+"} side` : "") +
    (t.led ? `, ${t.led} led` : "");
  $("trick").replaceChildren(...t.plays.map((p) => cardNode(p, { class: "played", who: community(p.seat) + (p.trump ? " (cuts)" : "") })));
  $("trick").querySelectorAll(".card").forEach((node, i) => { node.dataset.seat = t.plays[i].seat; });
}

function cardOptions(d) {
  const byCard = new Map();
  if (!d || !["transfer", "lead", "follow"].includes(d.kind)) return byCard;
  for (const o of d.options) {
    if (!byCard.has(o.card)) byCard.set(o.card, []);
    byCard.get(o.card).push(o);
  }
  return byCard;
}

function drawDecision(view) {
  const d = view.decision;
  const panel = $("decision");
  $("sides").classList.add("hidden");
  $("choices").replaceChildren();
  if (!d) {
    panel.classList.toggle("hidden", view.over);
    $("prompt").textContent = view.over ? "" : "The bots are playing\u2026";
    return;
  }
  panel.classList.remove("hidden");
  const hints = { transfer: " \u2014 click a card of your hand", lead: " \u2014 click a card, then choose the side",
                  follow: " \u2014 click a card you may play" };
  $("prompt").textContent = d.prompt + (hints[d.kind] || "");
  if (d.kind === "lead" && selected !== null) {
    $("sides").classList.remove("hidden");
    $("prompt").textContent = `${d.prompt}: lead ${labelOf(selected)} on which side?`;
  }
  if (!["transfer", "lead", "follow"].includes(d.kind)) {
    $("choices").replaceChildren(...d.options.map((o) => el("button", { class: "choice", dataset: { index: o.index },
      title: d.power ? `${d.power}` : "", onclick: () => answer(o.index), text: o.label })));
  }
}

function labelOf(cardId) {
  const card = game.hand.concat(game.communities[game.seat].transfer).find((c) => c.id === cardId);
  return card ? card.label : "the card";
}

function drawHand(view) {
  const byCard = cardOptions(view.decision);
  const draw = (cards) => cards.map((card) => {
    const legal = byCard.has(card.id);
    const node = cardNode(card, { class: (legal ? "legal" : (byCard.size ? "disabled" : "")) + (selected === card.id ? " selected" : "") });
    if (legal) node.addEventListener("click", () => clickCard(card.id));
    return node;
  });
  $("hand").replaceChildren(...draw(view.hand));
  $("own-transfer").replaceChildren(...draw(view.communities[view.seat].transfer));
  $("passing").textContent = view.passing.length ? "Chosen to pass: " + view.passing.map((p) => `${p.label} to ${community(p.to)}`).join(", ") : "";
}

function clickCard(cardId) {
  const d = game.decision;
  const options = cardOptions(d).get(cardId);
  if (!options) return;
  if (d.kind === "lead") {
    selected = cardId;
    drawDecision(game);
    drawHand(game);
    return;
  }
  answer(options[0].index);
}

function chooseSide(side) {
  const options = cardOptions(game.decision).get(selected) || [];
  const option = options.find((o) => o.side === side);
  if (option) answer(option.index);
}

function drawBreakdown(view) {
  const parts = view.breakdown.slice().reverse().map((round) => {
    const powers = [...new Set(round.rows.flatMap((r) => Object.keys(r.powers)))];
    const head = ["Community"].concat(round.counted ? ["Survivor cards", round.loss_label] : [], powers, round.counted ? ["Change", "Population"] : ["From powers so far"]);
    const rows = round.rows.map((r) => el("tr", { dataset: { seat: r.seat } }, el("td", { text: community(r.seat) }),
      (round.counted ? [signed(r.survivor_cards), signed(r.losses)] : []).map((t) => el("td", { text: t })),
      powers.map((p) => el("td", { text: p in r.powers ? signed(r.powers[p]) : "" })),
      (round.counted ? [signed(r.change), r.population] : [signed(r.change)]).map((t) => el("td", { text: t }))));
    return el("div", {}, el("h3", { text: round.counted ? `Round ${round.round}` : `Round ${round.round} so far (powers only)` }),
      el("table", { class: "breakdown" }, el("tr", {}, head.map((h) => el("th", { text: h }))), rows));
  });
  $("breakdown").replaceChildren(...(parts.length ? parts : [el("span", { class: "muted", text: "No round counted yet." })]));
}

function drawNarration(view) {
  const list = $("narration");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.replaceChildren(...view.narration.map((line) => el("li", {
    class: [line.event, line.power ? "power" : "", line.event === "deal" ? "round-start" : ""].join(" "),
    dataset: { event: line.event, power: line.power || "" }, text: line.text })));
  if (atEnd || busy) list.scrollTop = list.scrollHeight;
}

function drawPowers(view) {
  $("powers").replaceChildren(...view.powers.map((p) => el("div", { class: "power", dataset: { name: p.name } },
    el("strong", { text: p.label }), el("span", { class: "muted", text: ` (${p.kind === "always" ? "always in play" : p.kind})` }),
    el("pre", { text: p.text.split("\n").slice(1).join("\n").trim() }))));
}

async function save() {
  try {
    const saved = await api("POST", `/api/games/${game.id}/save`, { name: $("save-name").value });
    $("save-message").textContent = `Saved as ${saved.name} (${saved.path} in the mods folder, ${saved.answers} answers).`;
  } catch (e) { $("save-message").textContent = e.message; }
}

async function newGame() {
  $("game").classList.add("hidden");
  $("setup").classList.remove("hidden");
  drawSaves(await api("GET", "/api/saves"));
}

document.addEventListener("DOMContentLoaded", () => {
  $("players").addEventListener("change", drawSeats);
  $("seat").addEventListener("change", markSeat);
  $("start").addEventListener("click", start);
  $("resume").addEventListener("click", resume);
  $("side-plus").addEventListener("click", () => chooseSide("+"));
  $("side-minus").addEventListener("click", () => chooseSide("-"));
  $("takeback").addEventListener("click", () => { selected = null; send("takeback"); });
  $("save").addEventListener("click", save);
  $("new-game").addEventListener("click", newGame);
  loadSetup().catch((e) => { $("setup-error").textContent = e.message; });
});
