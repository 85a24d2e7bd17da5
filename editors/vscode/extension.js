// The Varar extension: starts `cargo varar lsp` for the Markdown and Rust
// files of each folder that holds a varar.config.json. Everything else is
// the server's: its code lenses run through workspace/executeCommand, which
// vscode-languageclient registers. One command is the editor's own: the
// "N uses in M oaths" lens (varar.showReferences) opens VS Code's
// references view with the locations the server put in its arguments.
const fs = require("fs");
const path = require("path");
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

const clients = new Map();

function showReferences(args) {
  const [uri, position, locations] = args;
  const c = (p) => new vscode.Position(p.line, p.character);
  return vscode.commands.executeCommand(
    "editor.action.showReferences",
    vscode.Uri.parse(uri),
    c(position),
    locations.map(
      (l) => new vscode.Location(vscode.Uri.parse(l.uri), new vscode.Range(c(l.range.start), c(l.range.end)))
    )
  );
}

function start(root) {
  if (clients.has(root)) return;
  const config = vscode.workspace.getConfiguration("varar");
  const pattern = (language) => ({ scheme: "file", language, pattern: `${root}/**/*` });
  const client = new LanguageClient(
    "varar",
    "Varar",
    {
      command: config.get("server.command", "cargo"),
      args: config.get("server.args", ["varar", "lsp"]),
      options: { cwd: root },
    },
    {
      documentSelector: [pattern("markdown"), pattern("rust")],
      workspaceFolder: { uri: vscode.Uri.file(root), name: path.basename(root), index: 0 },
      middleware: {
        executeCommand: (command, args, next) =>
          command === "varar.showReferences" ? showReferences(args) : next(command, args),
      },
    }
  );
  clients.set(root, client);
  client.start();
}

async function activate(context) {
  // A folder that is itself a project starts at once: the search below
  // goes through the editor's search service, which may be slow to come
  // up (or absent in a remote window), and a project at the root must not
  // wait for it.
  for (const folder of vscode.workspace.workspaceFolders || []) {
    if (folder.uri.scheme === "file" && fs.existsSync(path.join(folder.uri.fsPath, "varar.config.json"))) {
      start(folder.uri.fsPath);
    }
  }
  const found = await vscode.workspace.findFiles("**/varar.config.json", "**/{target,node_modules}/**");
  for (const config of found) start(path.dirname(config.fsPath));
  context.subscriptions.push({ dispose: () => deactivate() });
}

function deactivate() {
  const stopping = [...clients.values()].map((c) => c.stop());
  clients.clear();
  return Promise.all(stopping);
}

module.exports = { activate, deactivate };
