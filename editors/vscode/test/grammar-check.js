// What the TextMate grammar does to power files, read through vscode-textmate and vscode-oniguruma
// (the libraries VS Code itself tokenizes with), so the test sees the scopes an editor shows.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const ROOT = path.resolve(__dirname, "..", "..", "..");
const SCOPE = "source.happydayz-power";

let wasmLoaded;
function onigLib() {
  if (!wasmLoaded) {
    const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
    wasmLoaded = oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  }
  return wasmLoaded.then(() => ({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (text) => new oniguruma.OnigString(text),
  }));
}

/** The keywords of grammar/powers.lark: its string literals made of letters (as tests/lsp/test_editor_support.py reads them). */
function larkKeywords() {
  let text = fs.readFileSync(path.join(ROOT, "grammar", "powers.lark"), "utf8");
  text = text.replace(/\/\/[^\n]*/g, "").replace(/\/(?:[^/\n\\]|\\.)+\//g, "");
  return new Set([...text.matchAll(/"([A-Za-z]+)"/g)].map((m) => m[1]));
}

/** Every bundled and cookbook power file. */
function powerFiles() {
  const folders = [path.join(ROOT, "powers"), path.join(ROOT, "docs", "cookbook")];
  return folders.flatMap((dir) => fs.readdirSync(dir).filter((f) => f.endsWith(".power")).sort()
    .map((f) => path.join(dir, f)));
}

async function loadGrammar(grammarPath) {
  const registry = new textmate.Registry({
    onigLib: onigLib(),
    loadGrammar: async (scopeName) => (scopeName === SCOPE
      ? textmate.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath) : null),
  });
  return registry.loadGrammar(SCOPE);
}

/** Every token of a text: {line, column, text, scopes}. */
function tokenize(grammar, text) {
  const out = [];
  let state = textmate.INITIAL;
  text.split("\n").forEach((line, i) => {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      out.push({ line: i + 1, column: token.startIndex + 1, text: line.slice(token.startIndex, token.endIndex),
        scopes: token.scopes });
    }
    state = result.ruleStack;
  });
  return out;
}

const has = (scopes, prefix) => scopes.some((s) => s.startsWith(prefix));
const WORD = /[A-Za-z_][A-Za-z0-9_'-]*|[0-9]+/g;

/** What is wrong with how `grammarPath` highlights `texts` ({name: text}), as readable lines (none: all right). */
async function problems(grammarPath, texts, keywords = larkKeywords()) {
  const grammar = await loadGrammar(grammarPath);
  const found = [];
  const seen = new Set();
  for (const [name, text] of Object.entries(texts)) {
    for (const token of tokenize(grammar, text)) {
      const where = `${name}:${token.line}:${token.column}`;
      if (has(token.scopes, "invalid.")) found.push(`${where}: '${token.text}' is marked invalid (${token.scopes})`);
      const trimmed = token.text.trim();
      if (trimmed.startsWith("#") && !has(token.scopes, "comment.")) found.push(`${where}: a comment without a comment scope`);
      if (has(token.scopes, "comment.") || has(token.scopes, "string.")) continue;
      if (trimmed.startsWith('"') && !has(token.scopes, "string.")) found.push(`${where}: a string without a string scope`);
      for (const m of token.text.matchAll(WORD)) {
        const word = m[0];
        const at = `${name}:${token.line}:${token.column + m.index}`;
        if (keywords.has(word)) {
          seen.add(word);
          if (!has(token.scopes, "keyword.") && !has(token.scopes, "storage.")) {
            found.push(`${at}: the keyword '${word}' has no keyword or storage scope (${token.scopes})`);
          }
        } else if (/^[0-9]+$/.test(word) && !has(token.scopes, "constant.numeric.")) {
          found.push(`${at}: the number ${word} has no constant.numeric scope (${token.scopes})`);
        } else if (/^[A-Z]/.test(word) && !has(token.scopes, "entity.name.type.faction.")) {
          found.push(`${at}: the Faction name '${word}' has no entity.name.type.faction scope (${token.scopes})`);
        }
      }
    }
  }
  return { problems: found, keywordsSeen: seen };
}

module.exports = { ROOT, larkKeywords, powerFiles, problems, tokenize, loadGrammar };
