#!/usr/bin/env bash
# Frame strips of canvas-confetti's own demos (headless Chromium) above the same moments of
# Confetti's matching presets, to look at side by side.
#
#   docs/peers/canvas-confetti-frames.sh CANVAS_CONFETTI_CHECKOUT OUT_DIR [WxH] [TIMES]
#
# Writes OUT_DIR/DEMO.png for each demo: canvas-confetti above, Confetti below, one column per
# moment (TIMES, seconds after it starts, default "0.3 1 2 4"). Needs Debian's chromium and
# imagemagick, and a build of confetti (swift build --product confetti).
set -euo pipefail
checkout=${1:?usage: $0 CANVAS_CONFETTI_CHECKOUT OUT_DIR [WxH] [TIMES]}
out=${2:?usage: $0 CANVAS_CONFETTI_CHECKOUT OUT_DIR [WxH] [TIMES]}
size=${3:-800x600}
times=${4:-0.3 1 2 4}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
confetti=${CONFETTI:-$root/.build/debug/confetti}
w=${size%x*}
h=${size#*x}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/canvas-confetti-frames.html" "$work/"
{
  echo '!(function (window, module) {'
  cat "$checkout/src/confetti.js"
  echo '  window.confetti = module.exports;'
  echo '}(window, {}));'
} > "$work/confetti.browser.js"

# canvas-confetti's demo, and the preset that answers it.
pairs="cannon:party-popper fireworks:fireworks snow:snow stars:stars school-pride:school-pride"
for pair in $pairs; do
  demo=${pair%%:*}
  preset=${pair#*:}
  peer=() ours=()
  for t in $times; do
    shot="$work/peer-$demo-$t.png"
    timeout -s KILL 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
      --window-size="$w,$h" --user-data-dir="$work/profile" --virtual-time-budget=10000 \
      --screenshot="$shot" "file://$work/canvas-confetti-frames.html?demo=$demo&time=$t" \
      > "$work/chromium.log" 2>&1 || { cat "$work/chromium.log" >&2; exit 1; }
    "$confetti" render --preset "$preset" --time "$t" --size "$size" \
      --out "$work/ours-$preset-$t.png" > /dev/null
    peer+=("$shot")
    ours+=("$work/ours-$preset-$t.png")
  done
  convert \( "${peer[@]}" +append \) \( "${ours[@]}" +append \) -append "$out/$demo.png"
  echo "$out/$demo.png: canvas-confetti's $demo (above), confetti's $preset (below) at $times s"
done
