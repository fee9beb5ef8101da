#!/usr/bin/env bash
# Confetti's window against Godot 3's GPU particles (GLES3 Particles2D), the same count of pieces
# of the same sizes in the same 1280x720 window on the same Xvfb, in alternated rounds.
#
#   docs/peers/compare-godot.sh [N] [ROUNDS]
#
# Needs Debian's godot3, Xvfb and xdotool, and a release build of confetti
# (swift build -c release --product confetti; CONFETTI=path picks another). Godot's side is the
# project in docs/peers/godot-particles (what it matches and what it cannot: godot-particles.sh);
# ours is the classic cannon's piece kept N alive (a continuous emitter at N / 1.5 s a second,
# prewarmed), `confetti window --no-vsync`, its frame rate read from its title (frames drawn in
# the last half second) twice a second after a warm-up. Prints each round's frame times and the
# ratio.
set -euo pipefail
pieces=${1:-100000}
rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
confetti=${CONFETTI:-$root/.build/release/confetti}
[ -x "$confetti" ] || { echo "$0: no confetti at $confetti: swift build -c release --product confetti" >&2; exit 1; }
for tool in godot3 Xvfb xdotool; do
  command -v "$tool" > /dev/null || { echo "$0: no $tool: apt install godot3 xvfb xdotool" >&2; exit 1; }
done
work=$(mktemp -d)
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1280x720x24 -nolisten tcp > "$work/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2> /dev/null || true; rm -rf "$work"' EXIT
export DISPLAY=$display
for _ in $(seq 50); do xdotool getmouselocation > /dev/null 2>&1 && break; sleep 0.1; done

cp -r "$here/godot-particles" "$work/godot"  # Godot may write beside a project it runs
rate=$(awk "BEGIN { printf \"%.1f\", $pieces / 1.5 }")
cat > "$work/cannon-kept.json" <<EOF
{
  "name": "cannon-kept",
  "description": "The classic cannon's pieces, $pieces alive at every moment.",
  "emitters": [
    {
      "trigger": "start",
      "position": {"x": 0.5, "y": 1},
      "offset": {"x": 0, "y": 20},
      "shape": {"kind": "line", "length": 0.7},
      "emission": {"mode": "continuous", "prewarm": 1.5},
      "cells": [
        {
          "birthRate": $rate,
          "lifetime": 1.5,
          "fade": 0.4,
          "velocity": {"x": {"value": 0, "range": 0.3}, "y": {"value": -1.755, "range": 0.225}},
          "velocityUnit": "windowSize",
          "gravity": 280,
          "drag": 1.6,
          "rotation": {"value": 180, "range": 180},
          "spin": {"value": 0, "range": 400},
          "sizes": [[10, 10], [12, 7], [7, 12]],
          "colors": ["#ff3b30", "#ff9500", "#ffcc00", "#34c759", "#007aff", "#af52de"],
          "flutterAmplitude": {"value": 35, "range": 10},
          "flutterFrequency": {"value": 5.5, "range": 1.5},
          "flips": true,
          "flipFrequency": {"value": 4.5, "range": 1.5},
          "spread": {"value": 13, "range": 5}
        }
      ]
    }
  ]
}
EOF

ours() { # the median frame time (ms) of our window, from its title's frame rate
  "$confetti" window --config "$work/cannon-kept.json" --size 1280x720 --no-vsync \
    --capacity $((pieces * 3 / 2)) > "$work/ours.log" 2>&1 &
  local pid=$! window="" samples=()
  for _ in $(seq 100); do
    window=$(xdotool search --pid "$pid" 2> /dev/null | head -1) && [ -n "$window" ] && break
    sleep 0.1
  done
  [ -n "$window" ] || { cat "$work/ours.log" >&2; echo "$0: our window never opened" >&2; exit 1; }
  sleep 4  # warm-up
  for _ in $(seq 16); do
    sleep 0.5
    local fps
    fps=$(xdotool getwindowname "$window" | grep -oE '[0-9.]+ fps' | cut -d' ' -f1) || true
    [ -n "$fps" ] && samples+=("$fps")
  done
  kill "$pid"
  wait "$pid" 2> /dev/null || true
  [ ${#samples[@]} -gt 0 ] || { echo "$0: our window's title showed no frame rate" >&2; exit 1; }
  printf '%s\n' "${samples[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", 1000 / a[int((NR + 1) / 2)] }'
}

echo "$pieces pieces, 1280x720, Xvfb, $("$confetti" --version)"
for round in $(seq "$rounds"); do
  godot=$("$here/godot-particles.sh" "$pieces" 300 "$work/godot" | sed -E 's/.*median ([0-9.]+) ms.*/\1/')
  mine=$(ours)
  ratio=$(awk "BEGIN { printf \"%.2f\", $godot / $mine }")
  echo "round $round: Godot 3 Particles2D $godot ms a frame, confetti $mine ms: ${ratio}x"
done
