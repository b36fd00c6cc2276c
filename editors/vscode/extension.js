// Starts `happydayz lsp` (the language server of the happydayz package) for .power files,
// and for box and scenario YAML files when happydayz.yaml is on. See docs/editors.md.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("happydayz");
  const [command, ...args] = config.get("command", ["happydayz", "lsp"]);
  const selector = [{ scheme: "file", language: "happydayz" }];
  if (config.get("yaml", true)) {
    selector.push({ scheme: "file", language: "yaml" });
  }
  client = new LanguageClient(
    "happydayz",
    "Happy DayZ",
    { command, args, transport: TransportKind.stdio },
    { documentSelector: selector }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
