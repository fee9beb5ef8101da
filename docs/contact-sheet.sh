#!/bin/sh
# Renders every preset at three moments with `confetti render` and tiles the pictures, a row per
# preset, into docs/presets.png (ffmpeg tiles and labels them).
#   sh docs/contact-sheet.sh [path/to/confetti]
set -eu
confetti="${1:-.build/release/confetti}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# preset, then its three moments in seconds
moments="confetti 0.4 1.5 4.5
party-popper 0.4 1.5 3
cannon 0.3 1 2.5
classic-cannon 0.3 0.7 1.2
emoji 0.4 1.5 4.5
tap-burst 0.15 0.45 0.9
fireworks 1.5 2.6 3.6
fire 0.5 1.5 3
sparkle 0.5 1.5 3
stars 0.3 1 2.5
school-pride 0.8 2.5 5.5
snow 0.5 4 8
rain 0.5 1 1.5
falling-confetti 0.6 1.5 3
hearts 0.4 1.5 3
celebrate 0.4 1.5 3"
echo "$moments" | while read -r preset a b c; do
  for t in "$a" "$b" "$c"; do
    "$confetti" render --preset "$preset" --time "$t" --size 320x200 --seed 1 \
      --out "$work/$preset-$t.png" >/dev/null
  done
  ffmpeg -nostdin -v error -y -i "$work/$preset-$a.png" -i "$work/$preset-$b.png" -i "$work/$preset-$c.png" \
    -filter_complex "[0][1][2]hstack=3,pad=iw:ih+24:0:24:color=0x12141c,drawtext=text='$preset   $a s · $b s · $c s':x=8:y=5:fontsize=15:fontcolor=white" \
    "$work/row-$preset.png"
  echo "$work/row-$preset.png" >> "$work/rows"
done
inputs=""
count=0
while read -r row; do inputs="$inputs -i $row"; count=$((count + 1)); done < "$work/rows"
# shellcheck disable=SC2086
# 256 colours, undithered: the sheet a third of its full-colour weight (the package carries it).
ffmpeg -nostdin -v error -y $inputs -filter_complex \
  "vstack=$count,split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=none" \
  docs/presets.png
echo "wrote docs/presets.png ($count presets)"
