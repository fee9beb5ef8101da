#!/bin/sh
# Renders each step's effect with `confetti render` as a long exposure: its frames at 10 a
# second to a moment with pieces still in flight or at rest, each laid over the fading trace of
# those before (ffmpeg's lagfun), into docs/learn/N-NAME.png beside its N-NAME.json.
#   sh docs/learn/pictures.sh [path/to/confetti]
set -eu
confetti="${1:-.build/release/confetti}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# each step, and the seconds its exposure lasts
echo "1-thrown 2.4
2-drag 2.2
3-flutter 2.2
4-tumble 2.2
5-landing 3.6
6-fade 3.2" | while read -r name seconds; do
  name="docs/learn/$name"
  "$confetti" render --config "$name.json" --size 480x360 --seed 3 --time 0 \
    --duration "$seconds" --fps 10 --out "$work/f.png" >/dev/null
  ffmpeg -nostdin -v error -y -framerate 10 -i "$work/f-%04d.png" -vf "lagfun=decay=0.94" \
    -update 1 "$name.png"
  rm -f "$work"/f-*.png
  echo "wrote $name.png"
done
