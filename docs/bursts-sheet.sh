#!/bin/sh
# The bursts before and after they became streams, side by side: celebrate, confetti,
# party-popper and hearts at 0.15, 0.4, 1 and 2 s (960×540, seed 3, shown at a third of that), each
# preset's row as it was at BASE (its Presets/NAME.json there, given as --config) above its row
# now. Writes docs/bursts.png; docs/presets.md ("How the bursts move") shows it.
#
#   sh docs/bursts-sheet.sh [BASE] [path/to/confetti]
#
# BASE defaults to 06f3a5d, the last commit before the change; the program to a release build.
set -eu
cd "$(dirname "$0")/.."
base="${1:-06f3a5d}"
confetti="${2:-.build/release/confetti}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rows=""
for preset in celebrate confetti party-popper hearts; do
  git show "$base:Presets/$preset.json" > "$work/$preset-before.json"
  for when in before now; do
    if [ "$when" = before ]; then effect="--config $work/$preset-before.json"; else effect="--preset $preset"; fi
    inputs=""
    for t in 0.15 0.4 1 2; do
      # shellcheck disable=SC2086
      "$confetti" render $effect --time "$t" --size 960x540 --seed 3 \
        --out "$work/$preset-$when-$t.png" >/dev/null
      inputs="$inputs -i $work/$preset-$when-$t.png"
    done
    # shellcheck disable=SC2086
    ffmpeg -nostdin -v error -y $inputs -filter_complex \
      "hstack=4,scale=iw/3:ih/3:flags=area,pad=iw:ih+20:0:20:color=0x12141c,drawtext=text='$preset  $when   0.15 s · 0.4 s · 1 s · 2 s':x=6:y=3:fontsize=13:fontcolor=white" \
      "$work/row-$preset-$when.png"
    rows="$rows -i $work/row-$preset-$when.png"
  done
done
# shellcheck disable=SC2086
# 256 colours, undithered: light to carry (the package carries the docs' pictures).
ffmpeg -nostdin -v error -y $rows -filter_complex \
  "vstack=8,split[a][b];[a]palettegen=max_colors=256:stats_mode=full[p];[b][p]paletteuse=dither=none" \
  docs/bursts.png
echo "wrote docs/bursts.png (before: $base)"
