#!/usr/bin/env bash
# Installs what the VS Code test (varar-cli/tests/vscode.rs) needs into DIR
# (default: target/vscode-test), from the package registries only:
# code-server 4.100.3 (VS Code in the browser; newer releases want Node 24)
# and playwright-core (to drive Debian's chromium). code-server's own
# postinstall would download ripgrep from outside the registries, so its
# dependencies are installed without scripts, Debian's `rg` is put where
# @vscode/ripgrep looks for its binary (its postinstall then skips the
# download) and the native modules are built afterwards. Needs Node 20,
# a C++ toolchain and Debian's ripgrep, libkrb5-dev, libxkbfile-dev,
# libsecret-1-dev and libx11-dev. Idempotent.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-$here/../../../target/vscode-test}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
if [ -f "$dir/.installed-4.100.3" ]; then
  exit 0
fi
rg="$(command -v rg)" || { echo "install.sh: needs ripgrep (apt-get install ripgrep)" >&2; exit 2; }
cd "$dir"
echo '{"private": true}' > package.json
npm install --ignore-scripts --no-audit --no-fund code-server@4.100.3 playwright-core@1.52.0
# code-server's one native module of its own (its password hashing).
npm_config_yes=true npm rebuild argon2
cd node_modules/code-server/lib/vscode
npm install --omit=dev --ignore-scripts --no-audit --no-fund
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$rg" node_modules/@vscode/ripgrep/bin/rg
npm_config_yes=true npm rebuild
# What code-server's postinstall.sh does after its npm install.
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev --no-audit --no-fund)
# The extension's own dependencies (vscode-languageclient), locked; the
# test copies them next to the extension's files.
mkdir -p "$dir/extension"
cp "$here/../package.json" "$here/../package-lock.json" "$dir/extension/"
(cd "$dir/extension" && npm ci --omit=dev --no-audit --no-fund)
touch "$dir/.installed-4.100.3"
