// The TextMate grammar on every bundled and cookbook power, tokenized as VS Code does (vscode-textmate):
// keywords, comments, strings, numbers and Faction names get their scopes, nothing is marked invalid;
// a grammar broken on purpose fails the same check.
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { ROOT, larkKeywords, powerFiles, problems } = require("./grammar-check");

const GRAMMAR = path.join(ROOT, "editors", "vscode", "syntaxes", "power.tmLanguage.json");
const keywords = larkKeywords();

function texts() {
  const out = {};
  for (const file of powerFiles()) out[path.relative(ROOT, file)] = fs.readFileSync(file, "utf8");
  // Every keyword of the Lark grammar, even one no power file uses yet, on a line of its own.
  out["(every keyword)"] = [...keywords].sort().join("\n") + "\n# a comment\n\"a string\" 42 Soldiers\n";
  return out;
}

function brokenGrammar(change) {
  const grammar = JSON.parse(fs.readFileSync(GRAMMAR, "utf8"));
  change(grammar);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "happydayz-tm-")), "broken.tmLanguage.json");
  fs.writeFileSync(file, JSON.stringify(grammar));
  return file;
}

test("the grammar reads its keywords from grammar/powers.lark", () => {
  assert.ok(keywords.size > 100, `only ${keywords.size} keywords`);
  for (const word of ["power", "variant", "choose", "declare", "simultaneously"]) assert.ok(keywords.has(word), word);
});

test("every bundled and cookbook power is highlighted as it should be", async () => {
  const files = powerFiles();
  assert.ok(files.length >= 60, `only ${files.length} power files`);
  const result = await problems(GRAMMAR, texts(), keywords);
  assert.deepStrictEqual(result.problems.slice(0, 20), []);
  assert.deepStrictEqual([...keywords].filter((k) => !result.keywordsSeen.has(k)), []);
});

const BREAKAGES = {
  "a keyword pattern removed": (g) => { g.patterns = g.patterns.filter((p) => p.name !== "storage.type.happydayz"); },
  "keywords coloured as variables": (g) => {
    for (const p of g.patterns) if (p.name.startsWith("keyword.other.value")) p.name = "variable.language.happydayz";
  },
  "the comment pattern removed": (g) => { g.patterns = g.patterns.filter((p) => !p.name.startsWith("comment.")); },
  "the string pattern removed": (g) => { g.patterns = g.patterns.filter((p) => !p.name.startsWith("string.")); },
  "the number pattern removed": (g) => { g.patterns = g.patterns.filter((p) => !p.name.startsWith("constant.numeric")); },
  "Faction names not coloured": (g) => { g.patterns = g.patterns.filter((p) => !p.name.startsWith("entity.name")); },
  "braces marked invalid": (g) => { g.patterns.unshift({ name: "invalid.illegal.happydayz", match: "[{}]" }); },
};

for (const [what, change] of Object.entries(BREAKAGES)) {
  test(`a grammar with ${what} fails the check`, async () => {
    const result = await problems(brokenGrammar(change), texts(), keywords);
    assert.ok(result.problems.length > 0, `the check passed a grammar with ${what}`);
  });
}
