// The extension's activate() under Node, with a stub `vscode` module (a real VS Code cannot be downloaded
// here) and a recording stand-in for vscode-languageclient: it must start the configured server command
// over stdio for power files (and YAML files unless happydayz.yaml is off), and stop it on deactivate().
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const Module = require("node:module");
const path = require("node:path");

const EXTENSION = path.join(__dirname, "..", "extension.js");

function loadExtension(settings) {
  const record = { clients: [], started: 0, stopped: 0 };
  const vscode = {
    workspace: {
      getConfiguration(section) {
        record.section = section;
        return { get: (key, fallback) => (key in settings ? settings[key] : fallback) };
      },
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      record.clients.push({ id, name, serverOptions, clientOptions });
    }
    start() { record.started += 1; return Promise.resolve(); }
    stop() { record.stopped += 1; return Promise.resolve(); }
    dispose() {}
  }
  const languageclient = { LanguageClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } };
  const originalLoad = Module._load;
  Module._load = function load(request, ...rest) {
    if (request === "vscode") return vscode;
    if (request === "vscode-languageclient/node") return languageclient;
    return originalLoad.call(this, request, ...rest);
  };
  try {
    delete require.cache[require.resolve(EXTENSION)];
    return { extension: require(EXTENSION), record };
  } finally {
    Module._load = originalLoad;
  }
}

test("activate() starts the default command, `happydayz lsp`, for power and YAML files", async () => {
  const { extension, record } = loadExtension({});
  const context = { subscriptions: [] };
  await extension.activate(context);
  assert.strictEqual(record.section, "happydayz");
  assert.strictEqual(record.clients.length, 1);
  const [client] = record.clients;
  assert.deepStrictEqual(client.serverOptions, { command: "happydayz", args: ["lsp"], transport: 0 });
  assert.deepStrictEqual(client.clientOptions.documentSelector, [
    { scheme: "file", language: "happydayz" }, { scheme: "file", language: "yaml" }]);
  assert.strictEqual(record.started, 1);
  assert.strictEqual(context.subscriptions.length, 1);
  await extension.deactivate();
  assert.strictEqual(record.stopped, 1);
});

test("activate() follows the settings: the server command and happydayz.yaml", async () => {
  const command = ["/opt/venv/bin/happydayz", "--powers", "my_powers", "lsp"];
  const { extension, record } = loadExtension({ command, yaml: false });
  await extension.activate({ subscriptions: [] });
  const [client] = record.clients;
  assert.deepStrictEqual(client.serverOptions,
    { command: "/opt/venv/bin/happydayz", args: ["--powers", "my_powers", "lsp"], transport: 0 });
  assert.deepStrictEqual(client.clientOptions.documentSelector, [{ scheme: "file", language: "happydayz" }]);
});

test("deactivate() before activate() does nothing", () => {
  const { extension, record } = loadExtension({});
  assert.strictEqual(extension.deactivate(), undefined);
  assert.strictEqual(record.stopped, 0);
});

test("the language client the extension requires is installed (and so packaged)", () => {
  assert.ok(require.resolve("vscode-languageclient/node", { paths: [path.join(__dirname, "..")] }));
});
