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
# libsecret-1-dev and libx11-dev.
# Then the extension itself, packaged as users install it: DIR/oathmark-
# <version>.vsix, built by the @vscode/vsce its package-lock.json pins, in a
# copy of editors/vscode under DIR (the source tree is never written).
# Idempotent: code-server once (DIR/.installed-4.100.3), the .vsix again
# whenever the extension's files changed (DIR/.vsix-sources holds their
# hash).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="${1:-$here/../../../target/vscode-test}"
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"

install_code_server() {
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
  touch "$dir/.installed-4.100.3"
}
if [ ! -f "$dir/.installed-4.100.3" ]; then
  (install_code_server)
fi

# The .vsix. Every file that goes into it, or decides what does, is hashed.
src="$here/.."
files=(package.json package-lock.json extension.js README.md LICENSE-MIT LICENSE-APACHE .vscodeignore)
sources="$(cd "$src" && sha256sum -- "${files[@]}" | sha256sum | cut -d' ' -f1)"
manifest() { node -p "require(process.argv[1]).$1" "$src/package.json"; }
vsix="$dir/$(manifest name)-$(manifest version).vsix"
if [ -f "$vsix" ] && [ "$(cat "$dir/.vsix-sources" 2>/dev/null)" = "$sources" ]; then
  exit 0
fi
rm -f "$dir/.vsix-sources" "$dir/$(manifest name)"-*.vsix
rm -rf "$dir/extension"
mkdir -p "$dir/extension"
(cd "$src" && cp -- "${files[@]}" "$dir/extension/")
cd "$dir/extension"
# Without scripts: packaging runs none, and those of vsce's optional
# publishing helpers would set up native binaries (keytar's prebuild-install
# downloads its own from outside the registries).
npm ci --ignore-scripts --no-audit --no-fund
# stdin closed: a question from vsce (a missing field) fails the build
# instead of waiting for an answer.
npm run package -- --out "$vsix.part" </dev/null
mv -f "$vsix.part" "$vsix"
echo "$sources" > "$dir/.vsix-sources"
