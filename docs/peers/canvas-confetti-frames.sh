#!/usr/bin/env bash
# Contact sheets of canvas-confetti's own demo recipes (drawn in headless Chromium) above the same
# moments of Confetti's presets that answer them, at the same size, to look at side by side.
#
#   docs/peers/canvas-confetti-frames.sh CANVAS_CONFETTI_CHECKOUT [OUT_DIR] [WxH]
#
# Writes OUT_DIR/DEMO.png (default docs/peers/sheets) for each demo: canvas-confetti above,
# Confetti below, one column per moment (the moments of each pair are in the list at the end),
# each labelled, shown at half the size drawn. Needs Debian's chromium and ffmpeg, and a build of
# confetti (swift build --product confetti; CONFETTI=path picks another).
#
# Both draw at WxH (default 960x540: the peer's speeds are in pixels a frame, and in a small
# canvas its bursts leave through the top). The peer draws on a canvas of exactly WxH at the top
# left of a taller window, cropped: headless Chromium keeps about 143 px of its --window-size for
# itself, and a canvas the size of the page would lose the bottom of every frame.
set -euo pipefail
usage="usage: $0 CANVAS_CONFETTI_CHECKOUT [OUT_DIR] [WxH]"
checkout=${1:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${2:-$root/docs/peers/sheets}
size=${3:-960x540}
confetti=${CONFETTI:-$root/.build/debug/confetti}
w=${size%x*}
h=${size#*x}
[ -f "$checkout/src/confetti.js" ] || { echo "$0: no src/confetti.js in $checkout" >&2; exit 1; }
[ -x "$confetti" ] || { echo "$0: no confetti at $confetti: swift build --product confetti" >&2; exit 1; }
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

label() { # picture, text: the picture at half size with a strip above it saying the text
  ffmpeg -nostdin -v error -y -i "$1" -vf "scale=iw/2:ih/2:flags=area,pad=iw:ih+22:0:22:color=0x12141c,drawtext=text='$2':x=6:y=4:fontsize=14:fontcolor=white" "$1.labelled.png"
  mv "$1.labelled.png" "$1"
}

# canvas-confetti's demo, the preset that answers it, and three moments (seconds).
while read -r demo preset times; do
  row_peer=() row_ours=()
  for t in $times; do
    shot="$work/peer-$demo-$t.png"
    timeout -s KILL 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
      --window-size="$w,$((h + 200))" --user-data-dir="$work/profile" --virtual-time-budget=10000 \
      --screenshot="$shot.full.png" \
      "file://$work/canvas-confetti-frames.html?demo=$demo&time=$t&w=$w&h=$h" \
      < /dev/null > "$work/chromium.log" 2>&1 || { cat "$work/chromium.log" >&2; exit 1; }
    ffmpeg -nostdin -v error -y -i "$shot.full.png" -vf "crop=$w:$h:0:0" "$shot"
    label "$shot" "canvas-confetti $demo  $t s"
    ours="$work/ours-$demo-$t.png"
    "$confetti" render --preset "$preset" --time "$t" --size "$size" --seed 1 --out "$ours" \
      < /dev/null > /dev/null
    label "$ours" "confetti $preset  $t s"
    row_peer+=(-i "$shot")
    row_ours+=(-i "$ours")
  done
  n=$(echo "$times" | wc -w)
  # The peer's row from inputs 0 to n - 1, ours from n to 2n - 1 (hstack needs two or more).
  stack() { if [ "$1" -eq "$2" ]; then printf '[%d]null' "$1"; else printf '[%d]' $(seq "$1" "$2"); printf 'hstack=%d' $(($2 - $1 + 1)); fi; }
  ffmpeg -nostdin -v error -y "${row_peer[@]}" "${row_ours[@]}" -filter_complex \
    "$(stack 0 $((n - 1)))[a];$(stack "$n" $((2 * n - 1)))[b];[a][b]vstack" "$out/$demo.png"
  echo "$out/$demo.png: canvas-confetti's $demo (above), confetti's $preset (below) at $times s"
done <<'PAIRS'
cannon party-popper 0.3 1 2.5
random party-popper 0.3 1 2.5
realistic confetti 0.3 1 2.5
fireworks fireworks 0.6 1.5 3
stars stars 0.2 0.5 0.9
snow snow 1 3 6
school-pride school-pride 0.5 1.5 3
paths hearts 0.5 1.5 3
emoji emoji 0.3 1 2
PAIRS
