#!/usr/bin/env bash
# Renders a report's HTML in headless Chromium and saves a screenshot, to
# check by eye that the report reads well (layout, tables, embedded plots).
# Not part of CI.
#
#   analysis/report/scripts/screenshot.sh reports/<experiment>/report.html out.png [width] [height]
#
# Width defaults to 1280 and height to 4000 pixels (the top of a long
# report); pass a larger height to see more. Installs Chromium with apt-get
# if /usr/bin/chromium is missing (needs root).
set -euo pipefail

if [[ $# -lt 2 || $# -gt 4 ]]; then
    echo "usage: $0 <report.html> <out.png> [width] [height]" >&2
    exit 2
fi
html=$1
out=$2
width=${3:-1280}
height=${4:-4000}

if [[ ! -f $html ]]; then
    echo "$0: no such file: $html" >&2
    exit 1
fi

chromium=/usr/bin/chromium
if [[ ! -x $chromium ]]; then
    echo "$0: $chromium missing; installing chromium with apt-get" >&2
    apt-get install -y chromium >/dev/null || { apt-get update >/dev/null && apt-get install -y chromium >/dev/null; }
fi

html_abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
out_dir=$(cd "$(dirname "$out")" && pwd)
out_abs=$out_dir/$(basename "$out")

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# The report loads nothing from the network; these flags keep Chromium
# itself from trying (updates, sync, QUIC probes).
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --hide-scrollbars --user-data-dir="$profile" \
    --screenshot="$out_abs" --window-size="$width,$height" \
    "file://$html_abs" >/dev/null 2>&1

if [[ ! -s $out_abs ]]; then
    echo "$0: Chromium wrote no screenshot" >&2
    exit 1
fi
echo "$out_abs"
