#!/usr/bin/env bash
# Makes the web app's PNG icons (web-client/icons/) from web-client/favicon.svg and
# web-client/icons/maskable.svg with rsvg-convert (Debian: librsvg2-bin). The PNGs are committed,
# so a build needs no tool: run this after changing either SVG.
set -euo pipefail
cd "$(dirname "$0")/../web-client"
command -v rsvg-convert >/dev/null || { echo "make-icons: install librsvg2-bin (rsvg-convert)" >&2; exit 1; }
for size in 192 512; do
  rsvg-convert -w "$size" -h "$size" favicon.svg -o "icons/icon-$size.png"
  rsvg-convert -w "$size" -h "$size" icons/maskable.svg -o "icons/maskable-$size.png"
done
ls -l icons/*.png
