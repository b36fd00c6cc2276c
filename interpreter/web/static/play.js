// The play page: at / set up a game; at /game/ID/seat/N play seat N of it; at /game/ID watch it. It draws what
// the server says the viewer sees, sends the viewer's answers, and follows the moves as they happen
// (server-sent events). The page names no Faction and knows no rule: who is winning comes from the server.
"use strict";

let game = null;       // the last view from the server
let selected = null;   // the card chosen for a lead, waiting for its side
let busy = false;      // an answer is on its way
let sentAt = -1;       // the number of answers of the game when it was sent
let scenarios = [];
let stream = null;
let savedAs = null;    // the name this page saved under (saving again under it replaces it without asking)

const PACE = 0.8;      // seconds between two bots' plays when pacing is on
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ where we are
function place() {
  const m = location.pathname.match(/^\/game\/([0-9a-f]+)(?:\/seat\/(\d+))?\/?$/);
  return m ? { id: m[1], seat: m[2] === undefined ? "spectator" : Number(m[2]) } : null;
}

function seatUrl(id, seat) { return seat === "spectator" ? `/game/${id}` : `/game/${id}/seat/${seat}`; }

// ------------------------------------------------------------------ set-up
async function loadScenarios() {
  const keep = $("scenario").value;
  scenarios = await api("GET", "/api/scenarios");
  const chosen = scenarios.find((s) => s.ref === keep) || scenarios.find((s) => s.default) || scenarios[0];
  $("scenario").replaceChildren(...scenarios.map((s) => el("option", { value: s.ref, selected: s === chosen, text:
    `${s.id} \u2014 ${s.title} (${s.factions.map((f) => f[0] + (f[1] === "positive" ? " +" : f[1] === "negative" ? " \u2212" : "")).join(", ")})${s.source === "mods" ? " [mods]" : ""}` })));
  drawCounts();
}

async function loadSetup() {
  const [bots, saves] = await Promise.all([api("GET", "/api/bots"), api("GET", "/api/saves")]);
  window.botNames = bots;
  await loadScenarios();
  drawSaves(saves);
}

// The player counts the chosen scenario can be played by (those its box deals for).
function drawCounts() {
  const scenario = scenarios.find((s) => s.ref === $("scenario").value);
  const counts = scenario && scenario.counts.length ? scenario.counts : [2, 3, 4, 5];
  const old = Number($("players").value) || 4;
  const chosen = counts.includes(old) ? old : (counts.includes(4) ? 4 : counts[0]);
  $("players").replaceChildren(...counts.map((n) => el("option", { value: n, text: n, selected: n === chosen })));
  drawSeats();
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
      window.botNames.map((b) => el("option", { value: b, text: `${b} bot`, selected: (old[i] || "random") === b })),
      el("option", { value: "person", text: "a person", selected: old[i] === "person" }));
    parts.push(el("label", {}, `Seat ${i} `, choose));
  }
  $("bots").replaceChildren(...parts);
  markSeat();
}

function markSeat() {
  const seat = Number($("seat").value);
  document.querySelectorAll("#bots select").forEach((s) => {
    s.disabled = Number(s.dataset.seat) === seat;
    s.parentElement.classList.toggle("you-seat", s.disabled);
  });
}

async function start() {
  showError($("setup-error"), null);
  const choices = Array.from(document.querySelectorAll("#bots select"));
  const seat = Number($("seat").value);
  const body = {
    scenario: $("scenario").value, players: Number($("players").value), seat,
    bots: choices.map((s) => (s.value === "person" ? "random" : s.value)),
    people: choices.filter((s) => s.value === "person" && Number(s.dataset.seat) !== seat).map((s) => Number(s.dataset.seat)),
    express: $("mode").value === "express", seed: Number($("seed").value || 0), pace: $("pace").checked ? PACE : 0,
  };
  try { go(await api("POST", "/api/games", body)); }
  catch (e) { showError($("setup-error"), e); }
}

async function resume() {
  showError($("setup-error"), null);
  try { go(await api("POST", "/api/games", { resume: $("save-list").value, pace: $("pace").checked ? PACE : 0 })); }
  catch (e) { showError($("setup-error"), e); }
}

// A new game has its own address: the page moves there (reloading it, or opening it again, rejoins the game).
function go(view) { location.assign(seatUrl(view.id, view.seat)); }

// ------------------------------------------------------------------ the game
async function join(where) {
  $("setup").classList.add("hidden");
  $("status").textContent = "Joining the game\u2026";
  follow(where);
  try { show(await api("GET", `/api/games/${where.id}?seat=${where.seat}`)); $("status").textContent = ""; }
  catch (e) {
    if (stream) stream.close();
    $("status").textContent = "";
    $("setup").classList.remove("hidden");
    showError($("setup-error"), e);
    await loadSetup();
  }
}

// The moves as they happen: each event is the viewer's view after a move. When the line drops and comes back,
// moves made meanwhile were not sent: the view is asked for again.
function follow(where) {
  if (stream) stream.close();
  stream = new EventSource(`/api/games/${where.id}/events?seat=${where.seat}`);
  let opened = false;
  stream.onopen = () => {
    if (opened) api("GET", `/api/games/${where.id}?seat=${where.seat}`).then(show).catch(() => {});
    opened = true;
  };
  stream.onmessage = (event) => show(JSON.parse(event.data));
}

async function send(path, body) {
  if (busy || !game) return;
  busy = true;
  sentAt = game.answers;
  showError($("error"), null);
  document.body.classList.add("waiting");
  drawDecision(game);
  drawHand(game);
  let view = null;
  try { view = await api("POST", `/api/games/${game.id}/${path}`, { ...body, seat: game.seat }); }
  catch (e) { showError($("error"), e); }
  busy = false;
  document.body.classList.remove("waiting");
  if (view) show(view);
  else { drawDecision(game); drawHand(game); }
}

function answer(index) { selected = null; return send("answer", { index }); }

function community(seat) { return game.communities[seat].label + (seat === game.seat ? " (you)" : ""); }

function show(view) {
  if (game && view.id === game.id && view.version < game.version) return;  // an older view than the one shown
  const moved = !game || game.answers !== view.answers || game.version !== view.version;
  game = view;
  if (moved) selected = null;
  setStyles(view.styles);
  $("setup").classList.add("hidden");
  $("game").classList.remove("hidden");
  document.body.classList.toggle("spectator", view.spectator);
  $("title").textContent = `${view.scenario.id} \u2014 ${view.scenario.title}`;
  $("round").textContent = `round ${view.round} of ${view.rounds} \u00b7 ` +
    (view.spectator ? "watching" : `you are ${community(view.seat)}`) + ` \u00b7 seed ${view.seed}`;
  $("takeback").disabled = !view.can_take_back;
  for (const id of ["takeback", "save"]) $(id).hidden = view.spectator;
  drawInvite(view);
  drawSeatsAround(view);
  drawTable(view);
  drawDecision(view);
  drawHand(view);
  drawBreakdown(view);
  drawNarration(view);
  drawPowers(view);
  const result = $("result");
  if (view.over) {
    const w = view.winners;
    // with teams, a team wins together: one win of the team, never one of each of its Communities
    const won = view.teams ? view.teams.map((t, i) => [t, i]).filter(([t]) => w.includes(t[0]))
      .map(([t, i]) => `Team ${i} (${t.map(community).join(" and ")})`) : w.map(community);
    // nobody wins when every score is at the floor: no Survivor left at 0, else the floor is named
    const nobody = view.floor === undefined || view.floor === "none" ? "nobody has a Survivor left." :
      `nobody wins: ${view.teams ? "every team's score" : "every score"} is at the floor, ${view.floor}.`;
    result.textContent = "Game over: " + (w.length === 0 ? nobody :
      won.length === 1 ? `${won[0]} wins.` : won.join(" and ") + " share the win.") +
      " Final populations: " + view.communities.map((c) => `${community(c.seat)} ${c.population}`).join(", ");
    result.classList.remove("hidden");
  } else result.classList.add("hidden");
  if (moved && view.decision) $("decision").scrollIntoView({ block: "nearest" });
}

function drawInvite(view) {
  const links = view.people.map((s) => el("li", {}, el("a", { href: seatUrl(view.id, s), text: `${view.communities[s].label}${s === view.seat ? " (you)" : ""}` })));
  links.push(el("li", {}, el("a", { href: seatUrl(view.id, "spectator"), text: "spectators (public information only)" })));
  $("seat-links").replaceChildren(...links);
}

// The Communities in play order from the viewer's left neighbour round to the right one, the viewer's own last.
function playOrder(view) {
  const n = view.players, me = view.spectator ? n - 1 : view.seat;
  return Array.from({ length: n }, (_, k) => (me + 1 + k) % n);
}

function drawSeatsAround(view) {
  const order = playOrder(view).filter((seat) => seat !== view.seat);  // the viewer's own is at the bottom, with the hand
  const acting = view.decision ? view.seat : (view.waiting_for ? view.waiting_for.seat : null);
  $("seats").replaceChildren(...order.map((seat, k) => {
    const c = view.communities[seat];
    const where = view.spectator || order.length < 2 ? (order.length === 1 ? "neighbour" : "") :
      k === 0 ? "left neighbour" : k === order.length - 1 ? "right neighbour" : "across";
    return el("div", { class: "seat" + (seat === acting ? " active" : ""), dataset: { seat }, id: `seat-${seat}` },
      el("div", { class: "name" }, el("strong", { text: community(seat) }),
        where ? el("span", { class: "where" }, ` \u00b7 ${where.split(" ")[0]}`,
          where.includes(" ") ? el("span", { class: "wide-only", text: " " + where.split(" ").slice(1).join(" ") }) : null) : null,
        el("span", { class: "who-plays wide-only", text: c.bot ? ` \u00b7 ${c.bot} bot` : " \u00b7 a person" })),
      el("div", {}, seatCounts(c)), ...seatZones(c), ...dummyHand(view, seat));
  }));
  const mine = view.communities[view.seat];
  if (!mine) return;
  $("me").replaceChildren(el("span", { class: "seat-of-mine" + (acting === view.seat ? " active" : ""), dataset: { seat: view.seat } },
    `${mine.label} \u00b7 `, seatCounts(mine)));
  $("my-zones").replaceChildren(...seatZones({ ...mine, transfer: [] }));  // the Transfer zone is drawn as cards
}

// The dummy's hand (a hand with a dummy, once it is laid): face up at its seat for everyone; its partner, who
// plays it, answers the dummy's decisions on these cards.
function dummyHand(view, seat) {
  const dummy = view.dummy;
  if (!dummy || dummy.seat !== seat) return [];
  const byCard = cardOptions(view.decision);
  const cards = dummy.hand.map((card) => {
    const legal = byCard.has(card.id) && !busy;
    const node = cardNode(card, { class: (legal ? "legal" : "") + (selected === card.id ? " selected" : ""), playable: legal });
    if (legal) node.addEventListener("click", () => clickCard(card.id));
    return node;
  });
  const who = dummy.controller === view.seat ? "you play it" : `played by ${community(dummy.controller)}`;
  return [el("div", { class: "dummy", id: `dummy-${seat}` }, el("span", { class: "what", text: `Dummy, face up (${who}):` }),
    el("div", { class: "cards" }, ...cards))];
}

// The cards the viewer may play from: its hand and Transfer zone, and the dummy's hand when it plays the dummy.
function playable(view) {
  const own = view.hand.concat(view.communities[view.seat] ? view.communities[view.seat].transfer : []);
  return view.dummy && view.dummy.controller === view.seat ? own.concat(view.dummy.hand) : own;
}

// A Community's population, its gain this round, its hand and its Expedition zone.
function seatCounts(c) {
  const facedown = c.expedition_size - c.face_up.length;
  return el("span", { class: "numbers" }, el("span", { class: "population", text: c.population }), " Survivors",
    el("span", { class: "gain wide-only", text: ` (${signed(c.round_gain)} this round)` }),
    ` \u00b7 ${c.hand_size} in hand \u00b7 Expedition ${c.expedition_size}`,
    c.expedition_size ? el("span", { class: "wide-only", text: ` (${facedown} face down)` }) : null);
}

// The cards of a Community everyone sees: face up in its Expedition zone, seen going in, in its Transfer zone.
function seatZones(c) {
  return [c.face_up.length ? el("div", { class: "chips" }, c.face_up.map(cardChip)) : null,
    c.known.length ? el("details", { class: "known" }, el("summary", { text: `${c.known.length} seen going in` }),
      el("span", { class: "chips" }, c.known.map(cardChip))) : null,
    // seen going in, but a power has since taken a card out unseen: perhaps still there
    (c.perhaps || []).length ? el("details", { class: "known" },
      el("summary", { text: `${c.perhaps.length} perhaps still there` }),
      el("span", { class: "chips" }, c.perhaps.map(cardChip))) : null,
    c.transfer.length ? el("div", { class: "chips" }, el("span", { class: "what wide-only", text: "Transfer:" }),
      c.transfer.map(cardChip)) : null]
    .filter((node) => node !== null);
}

function drawTable(view) {
  $("encounter").replaceChildren(...(view.encounter ? [cardNode(view.encounter)] : [el("span", { class: "muted-text", text: "none" })]));
  $("reserve").textContent = `Reserve: ${view.reserve_size}`;
  const t = view.trick;
  if (!t) { $("trick-title").textContent = "Trick"; $("trick").replaceChildren(); }
  else {
    $("trick-title").textContent = `Trick: ${community(t.leader)} leads` + (t.side ? ` on the ${t.side === "-" ? "\u2212" : "+"} side` : "") +
      (t.led ? `, ${t.led} led` : "");
    $("trick").replaceChildren(...t.plays.map((p) => played(p, p.seat === t.winning, "winning")));
  }
  const last = view.last_trick;
  $("last").hidden = !last;
  if (last) {
    $("last-title").textContent = `The last trick (won by ${community(last.winner)})`;
    $("last-trick").replaceChildren(...last.plays.map((p) => played(p, p.seat === last.winner, "won it")));
  }
  fitNames($("table"));
}

function played(play, best, word) {
  const node = cardNode(play, { class: "played" + (best ? " winning" : ""),
    who: community(play.seat) + (play.trump ? " (cuts)" : "") + (best ? ` \u00b7 ${word}` : "") });
  node.dataset.seat = play.seat;
  return node;
}

// Options that play a card are answered on the card; a lead's also name a side. Every other option, of any
// decision kind (a power's choice, a Faction change, a dealer...), is a button with the option's own words.
function cardOptions(d) {
  const byCard = new Map();
  if (!d) return byCard;
  for (const o of d.options) {
    if (o.card === undefined) continue;
    if (!byCard.has(o.card)) byCard.set(o.card, []);
    byCard.get(o.card).push(o);
  }
  return byCard;
}

function inHand(view, cardId) {
  return playable(view).some((c) => c.id === cardId);
}

function drawDecision(view) {
  const d = view.decision;
  const panel = $("decision");
  $("sides").classList.add("hidden");
  $("choices").replaceChildren();
  panel.classList.toggle("hidden", view.over);
  panel.classList.toggle("pending", !!d && !busy);
  if (!d || busy) {
    const w = view.waiting_for;
    $("prompt").textContent = view.over ? "" : busy && view.answers === sentAt ? "Sending your answer\u2026" :
      w ? `Waiting for ${community(w.seat)}${w.bot ? ` (${w.bot} bot)` : ""}\u2026` : "Waiting\u2026";
    $("prompt").classList.add("waiting-for");
    return;
  }
  $("prompt").classList.remove("waiting-for");
  const byCard = cardOptions(d);
  const onCards = [...byCard.keys()].some((card) => inHand(view, card));
  const sides = d.options.some((o) => o.side !== undefined);
  $("prompt").replaceChildren(d.prompt, onCards ? el("span", { class: "wide-only", text: sides ?
    " \u2014 choose a card of your hand, then the side" : " \u2014 choose a card of your hand" }) : "");
  if (sides && selected !== null) {
    $("sides").classList.remove("hidden");
    $("prompt").textContent = `${d.prompt}: lead ${labelOf(selected)} on which side?`;
    const usable = new Set((byCard.get(selected) || []).map((o) => o.side));
    $("side-plus").disabled = !usable.has("+");
    $("side-minus").disabled = !usable.has("-");
  }
  const buttons = d.options.filter((o) => !(onCards && o.card !== undefined && inHand(view, o.card)));
  $("choices").replaceChildren(...buttons.map((o) => el("button", { class: "choice", dataset: { index: o.index },
    title: d.power || "", onclick: () => answer(o.index), text: o.label })));
}

function labelOf(cardId) {
  const card = playable(game).find((c) => c.id === cardId);
  return card ? cardName(card) : "the card";
}

function drawHand(view) {
  $("mine").hidden = view.spectator;
  if (view.spectator) return;
  const byCard = cardOptions(view.decision);
  const draw = (cards) => cards.map((card) => {
    const legal = byCard.has(card.id) && !busy;
    const node = cardNode(card, { class: (legal ? "legal" : "") + (selected === card.id ? " selected" : ""), playable: legal });
    if (legal) node.addEventListener("click", () => clickCard(card.id));
    return node;
  });
  $("hand").replaceChildren(...draw(view.hand));
  $("own-transfer").replaceChildren(...draw(view.communities[view.seat].transfer));
  $("own-transfer").parentElement.hidden = view.communities[view.seat].transfer.length === 0;
  fitNames($("mine"));
  $("passing").textContent = view.passing.length ? "Chosen to pass: " + view.passing.map((p) => `${cardName(p)} to ${community(p.to)}`).join(", ") : "";
}

function clickCard(cardId) {
  const d = game.decision;
  const options = cardOptions(d).get(cardId);
  if (!options) return;
  if (options.some((o) => o.side !== undefined)) {
    selected = cardId;
    drawDecision(game);
    drawHand(game);
    if (game.dummy) drawSeatsAround(game);  // a dummy's card chosen: its seat shows it selected
    const side = document.querySelector("#sides button:not(:disabled)");
    if (side) side.focus();  // from the keyboard: the card, then the side
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
  $("breakdown").replaceChildren(...(parts.length ? parts : [el("span", { class: "muted-text", text: "No round counted yet." })]));
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
    el("strong", { text: p.label }), el("span", { class: "muted-text", text: ` (${p.kind === "always" ? "always in play" : p.kind})` }),
    el("pre", { text: p.text.split("\n").slice(1).join("\n").trim() }))));
}

// Saving under a name another save already has asks first (another tab may have saved there).
async function save() {
  const name = $("save-name").value;
  const post = (overwrite) => api("POST", `/api/games/${game.id}/save`, { name, overwrite });
  try {
    let saved;
    try { saved = await post(name === savedAs); }
    catch (e) {
      if (e.status !== 409 || !confirm(`${e.message}.\nReplace the save "${name}"?`)) throw e;
      saved = await post(true);
    }
    savedAs = saved.name;
    $("save-message").textContent = `Saved as ${saved.name} (${saved.path} in the mods folder, ${saved.answers} answers).`;
  } catch (e) { $("save-message").textContent = e.message; }
}

function newGame() { if (stream) stream.close(); location.assign("/"); }

document.addEventListener("DOMContentLoaded", () => {
  $("scenario").addEventListener("change", drawCounts);
  $("players").addEventListener("change", drawSeats);
  $("seat").addEventListener("change", markSeat);
  $("start").addEventListener("click", start);
  $("resume").addEventListener("click", resume);
  $("side-plus").addEventListener("click", () => chooseSide("+"));
  $("side-minus").addEventListener("click", () => chooseSide("-"));
  $("takeback").addEventListener("click", () => { selected = null; send("takeback"); });
  $("save").addEventListener("click", save);
  $("new-game").addEventListener("click", newGame);
  window.addEventListener("resize", () => fitNames($("game")));  // cards are narrower on a small screen
  const where = place();
  if (where) { join(where); return; }
  $("setup").classList.remove("hidden");
  // a scenario written meanwhile (in the playground's tab) is offered when the person comes back to this one
  const refresh = () => { if (document.visibilityState === "visible") loadScenarios().catch(() => {}); };
  window.addEventListener("focus", refresh);
  document.addEventListener("visibilitychange", refresh);
  loadSetup().catch((e) => showError($("setup-error"), e));
});
