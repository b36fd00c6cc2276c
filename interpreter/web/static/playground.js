// The power playground: edit a file of the mods folder, see `check`'s diagnostics as you type, the card text
// of `explain`, and the balance report of a simulation.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;    // the path of the open file
let saved = "";        // its text as last saved
let base = null;       // the sha256 of the file as it was opened or last saved: a save refuses to replace anything else
let timer = null;
let sequence = 0;

async function loadLists() {
  const [files, scenarios, bots] = await Promise.all([api("GET", "/api/files"), api("GET", "/api/scenarios"), api("GET", "/api/bots")]);
  $("root").textContent = "mods folder: " + files.root;
  const editable = files.files.filter((f) => ["power", "yaml", "yml"].includes(f.kind));
  $("file-list").replaceChildren(...editable.map((f) => el("option", { value: f.path, text: f.path, selected: f.path === current })));
  $("open").disabled = editable.length === 0;
  const scenario = $("sim-scenario").value, bot = $("sim-bots").value || "random";
  $("sim-scenario").replaceChildren(...scenarios.map((s) => el("option", { value: s.ref, selected: s.ref === scenario,
    text: `${s.id} \u2014 ${s.title}${s.source === "mods" ? " [mods]" : ""}` })));
  $("sim-bots").replaceChildren(...bots.map((b) => el("option", { value: b, text: b, selected: b === bot })));
}

async function loadBundled() {
  // the bundled powers, to start a new one from
  const names = await api("GET", "/api/powers");
  $("bundled").replaceChildren(...names.map((n) => el("option", { value: n, text: n })));
}

async function openFile(path) {
  try {
    const file = await api("GET", "/api/files/" + encodeURIComponent(path));
    current = file.path;
    saved = file.text;
    base = file.sha;
    $("editor").value = file.text;
    $("editor").disabled = false;
    $("path").textContent = current;
    $("save-file").disabled = false;
    $("message").textContent = "";
    changed();
    checkNow();
  } catch (e) { $("message").textContent = e.message; }
}

async function createFile() {
  const path = $("new-path").value.trim();
  if (!path) return;
  const name = path.replace(/^.*\//, "").replace(/\.power$/, "").replace(/[^A-Za-z0-9]+/g, " ").trim() || "New";
  const title = name.replace(/\b\w/g, (c) => c.toUpperCase());
  const text = `power ${title} {\n  for faction ${title}\n\n  on win {\n    gain 1\n  }\n}\n`;
  try {
    await api("PUT", "/api/files/" + encodeURIComponent(path), { text, base: null });  // never over an existing file
    await loadLists();
    await openFile(path);
  } catch (e) { $("message").textContent = e.message; }
}

async function createFaction() {
  // a power file and a scenario that plays it (the scenario is then offered to simulate)
  const name = $("new-faction").value.trim();
  if (!name) return;
  try {
    const made = await api("POST", "/api/factions", { name });
    await loadLists();
    const power = made.files.find((f) => f.endsWith(".power"));
    const scenario = made.files.find((f) => f.endsWith(".yaml"));
    if (scenario) $("sim-scenario").value = "mods:" + scenario;
    if (power) await openFile(power);
  } catch (e) { $("message").textContent = e.message; }
}

async function copyBundled() {
  // a copy of a bundled power into the mods folder, to change
  const name = $("bundled").value;
  try {
    const bundled = await api("GET", "/api/explain/" + name);
    const files = await api("GET", "/api/files");
    let path = `${name}.power`;
    for (let k = 2; files.files.some((f) => f.path === path); k++) path = `${name}_${k}.power`;
    await api("PUT", "/api/files/" + encodeURIComponent(path), { text: bundled.source, base: null });
    await loadLists();
    await openFile(path);
  } catch (e) { $("message").textContent = e.message; }
}

// Saving replaces the file only if it is still as it was opened (or last saved here): another tab's save is
// never overwritten unasked. The message says how many errors the saved text has (it does not load with any).
async function saveFile() {
  if (!current) return;
  const text = $("editor").value;
  const put = (body) => api("PUT", "/api/files/" + encodeURIComponent(current), body);
  try {
    let written;
    try { written = await put({ text, base }); }
    catch (e) {
      if (e.status !== 409 || !confirm(`${e.message}.\nReplace it with your text?`)) throw e;
      written = await put({ text });
    }
    saved = text;
    base = written.sha;
    changed();
    const result = await api("POST", "/api/check", { path: current, text });
    const problems = result.errors ? ` with ${result.errors} error${result.errors === 1 ? "" : "s"} (it will not load until ${result.errors === 1 ? "it is" : "they are"} fixed)` : "";
    $("message").textContent = `Saved ${current}${problems}.`;
    await loadLists();
  } catch (e) { $("message").textContent = e.message; }
}

function changed() {
  const text = $("editor").value;
  $("dirty").textContent = text === saved ? "" : "(not saved)";
  drawGutter([]);
}

function drawGutter(diagnostics) {
  const lines = $("editor").value.split("\n").length;
  const bad = new Map();
  for (const d of diagnostics) bad.set(d.line, d.severity === "error" ? "bad" : (bad.get(d.line) || "warn"));
  $("gutter").replaceChildren(...Array.from({ length: lines }, (_, i) =>
    el("span", { class: bad.get(i + 1) || "", dataset: { line: i + 1 }, text: i + 1 })));
  const editor = $("editor");
  editor.style.height = "auto";
  editor.style.height = Math.max(420, editor.scrollHeight) + "px";
}

function schedule() {
  changed();
  clearTimeout(timer);
  timer = setTimeout(checkNow, 250);
}

async function checkNow() {
  if (!current) return;
  const mine = ++sequence;
  try {
    const result = await api("POST", "/api/check", { path: current, text: $("editor").value });
    if (mine !== sequence) return;  // an older answer than the last request
    drawDiagnostics(result);
  } catch (e) { $("message").textContent = e.message; }
}

function drawDiagnostics(result) {
  $("summary").textContent = `${result.errors} error(s), ${result.warnings} warning(s)`;
  $("diagnostics").replaceChildren(...(result.diagnostics.length ? result.diagnostics.map((d) =>
    el("div", { class: "diagnostic " + d.severity, dataset: { line: d.line, column: d.column, code: d.code || "" },
                onclick: () => goTo(d.line, d.column) },
      el("span", { class: "where", text: `${d.file}:${d.line}:${d.column}: ` }),
      el("span", { class: "severity", text: `${d.severity}[${d.code}]` }), ": ", el("span", { class: "message", text: d.message }),
      source(d),
      d.hint ? el("div", { class: "hint", text: "hint: " + d.hint }) : null)) : [el("span", { class: "muted", text: "No problem found." })]));
  drawGutter(result.diagnostics);
  if (result.card_text) $("card-text").textContent = result.card_text;
  else if (result.errors) $("card-text").textContent = "(fix the errors to see the card text)";
}

// The line a diagnostic points at, with a caret under its column (as `happydayz check` prints it).
function source(d) {
  const line = $("editor").value.split("\n")[d.line - 1];
  if (line === undefined) return null;
  const width = d.end && d.end.line === d.line && d.end.column > d.column ? d.end.column - d.column : 1;
  return el("pre", { class: "source", text: "    " + line + "\n    " + " ".repeat(Math.max(0, d.column - 1)) + "^".repeat(width) });
}

function goTo(line, column) {
  const editor = $("editor");
  const lines = editor.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, column - 1);
  editor.focus();
  editor.setSelectionRange(offset, offset);
}

async function simulate() {
  $("report").replaceChildren(el("p", { class: "muted", text: "Playing the games\u2026" }));
  $("simulate").disabled = true;
  try {
    const body = { scenario: $("sim-scenario").value, games: Number($("sim-games").value), bots: $("sim-bots").value,
                   express: $("sim-express").checked, seed: 0 };
    if ($("sim-players").value) body.players = Number($("sim-players").value);
    const result = await api("POST", "/api/simulate", body);
    $("report").replaceChildren(...markdown(result.markdown, result.images));
  } catch (e) { $("report").replaceChildren(el("p", { class: "error", text: e.message })); }
  finally { $("simulate").disabled = false; }
}

// Just enough Markdown for the balance report: headings, tables, images, paragraphs and lists.
function markdown(text, images) {
  const nodes = [];
  const lines = text.split("\n");
  const inline = (s) => s.replace(/\*\*/g, "").replace(/`/g, "");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if ((m = line.match(/^(#{1,4})\s+(.*)/))) nodes.push(el("h" + Math.min(4, m[1].length + 1), { text: inline(m[2]) }));
    else if ((m = line.match(/^!\[([^\]]*)\]\(([^)]+)\)/))) {
      if (images[m[2]]) nodes.push(el("img", { src: images[m[2]], alt: m[1] }));
    } else if (line.startsWith("|")) {
      const rows = [];
      while (i < lines.length && lines[i].startsWith("|")) { rows.push(lines[i]); i++; }
      i--;
      const cells = (r) => r.replace(/^\||\|$/g, "").split("|").map((c) => inline(c.trim()));
      const body = rows.filter((r, k) => k !== 1 || !/^\|[\s:-]+\|/.test(r));
      nodes.push(el("table", {}, body.map((r, k) => el("tr", {}, cells(r).map((c) => el(k === 0 ? "th" : "td", { text: c }))))));
    } else if (line.trim().startsWith("- ")) nodes.push(el("div", { text: "\u2022 " + inline(line.trim().slice(2)) }));
    else if (line.trim()) nodes.push(el("p", { text: inline(line) }));
  }
  return nodes;
}

// Leaving the page (or reloading it) with unsaved text asks first.
window.addEventListener("beforeunload", (event) => {
  if (current && $("editor").value !== saved) { event.preventDefault(); event.returnValue = ""; }
});

document.addEventListener("DOMContentLoaded", () => {
  $("editor").addEventListener("input", schedule);
  $("editor").addEventListener("keydown", (e) => {
    if (e.key === "Tab") { e.preventDefault(); document.execCommand("insertText", false, "  "); }
    if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); saveFile(); }
  });
  $("open").addEventListener("click", () => openFile($("file-list").value));
  $("create").addEventListener("click", createFile);
  $("create-faction").addEventListener("click", createFaction);
  $("copy").addEventListener("click", copyBundled);
  $("save-file").addEventListener("click", saveFile);
  $("simulate").addEventListener("click", simulate);
  loadBundled().catch((e) => { $("message").textContent = e.message; });
  loadLists().then(() => {
    const wanted = new URLSearchParams(location.search).get("file");
    if (wanted) openFile(wanted);
  }).catch((e) => { $("message").textContent = e.message; });
});
