#!/usr/bin/env bash
# Regenerate docs/editor.png: Neovim (Debian's neovim) in an xterm under
# Xvfb, on a copy of the bakery sample with one recorded failure and one
# paragraph reworded into drift. Needs: neovim xvfb xterm imagemagick
# fonts-dejavu-core x11-utils, and `cargo build -p oathmark-cli`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r "$repo/examples/bakery/." "$work/"
rm -rf "$work/target"
python3 - "$work" <<'PY'
import json, sys, pathlib
root = pathlib.Path(sys.argv[1])
md = root / "varar/basket.md"
text = md.read_text()
def fnv(s):
    h = 0x811c9dc5
    for i in range(0, len(s.encode("utf-16-le")), 2):
        h ^= int.from_bytes(s.encode("utf-16-le")[i:i+2], "little"); h = (h * 0x01000193) % 2**32
    return "fnv1a:%08x" % h
text = text.replace("I put 1 pretzel in the basket.", "I put one pretzel in the basket.")
md.write_text(text)
u16 = lambda s: len(s.encode("utf-16-le")) // 2
start = u16(text[: text.index("£3.20")])
(root / ".varar/varar").mkdir(parents=True, exist_ok=True)
(root / ".varar/varar/basket.md.json").write_text(json.dumps({
  "version": 1, "oathPath": "varar/basket.md", "sourceHash": fnv(text),
  "examples": [{"name": "I put 1 baguette in the basket. I pay £5.00 and my change is £3.20",
    "status": "failed", "lines": [17], "failure": {"line": 17,
    "message": "cell 2: expected £3.20 but was £3.10", "stack": "",
    "cells": [{"from": start, "to": start + 5, "actual": "£3.10"}],
    "anchor": {"from": start, "to": start + 5}}}]}))
PY
Xvfb :77 -screen 0 1500x860x24 >/dev/null 2>&1 &
sleep 1
cd "$work"
DISPLAY=:77 VARAR_LSP_BIN="$repo/target/debug/cargo-varar" \
  VARAR_INIT="$repo/varar-cli/tests/nvim/init.lua" \
  XDG_STATE_HOME="$work/.state" XDG_CACHE_HOME="$work/.cache" \
  xterm -geometry 150x40+0+0 -fa 'DejaVu Sans Mono' -fs 11 -bg '#1e1e2e' -fg '#cdd6f4' \
  -e nvim -i NONE -n -u "$repo/docs/editor/demo.lua" +16 varar/basket.md &
sleep 6
window="$(DISPLAY=:77 xwininfo -root -children | awk '/xterm|nvim/ {print $1; exit}')"
DISPLAY=:77 import -window "$window" "$repo/docs/editor.png"
echo "$repo/docs/editor.png"
