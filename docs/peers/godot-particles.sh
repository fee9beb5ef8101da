#!/usr/bin/env bash
# Runs the small Godot 3 project in docs/peers/godot-particles (or DIR): N particles drawn with
# Godot's GPU particles (GLES3 Particles2D, simulated on the GPU by transform feedback) in a
# 1280x720 window, as near to the classic cannon as Godot's particle material comes; it prints
# its frame times. Open the project in godot3's editor to see it.
#
#   docs/peers/godot-particles.sh [N] [FRAMES] [DIR]   (needs DISPLAY and Debian's godot3)
#
# What is matched: the count alive (N, 100,000 by default; lifetime 1.5 s, preprocessed so that
# all are alive from the first frame, re-emitted on the GPU as they die), the sizes (10 px
# squares, scaled 1 +- 0.3: the cannon's pieces are 10x10, 12x7 and 7x12 pt), the throw (up
# from a line 70 % of the width just below the bottom edge, 15 degrees of spread, gravity 280 px/s^2),
# the spin, a colour per piece, alpha blending, no vsync, the window's size.
# What cannot be: Godot's particles are textured quads, not shapes cut in the shader (no
# antialiased edges, no 3D tumble, no paper shading); its damping is linear (px/s^2), not the
# closed form's drag proportional to speed; it simulates step by step, so no moment can be drawn
# out of order. Frame times are taken in _process from one frame to the next (the swap waits
# for llvmpipe to finish drawing), the first 60 frames dropped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pieces=${1:-100000}
frames=${2:-300}
dir=${3:-$here/godot-particles}
command -v godot3 > /dev/null || { echo "$0: no godot3: apt install godot3" >&2; exit 1; }
[ -n "${DISPLAY:-}" ] || { echo "$0: no DISPLAY: run it under xvfb-run or a desktop" >&2; exit 1; }
[ -f "$dir/project.godot" ] || { echo "$0: no Godot project in $dir" >&2; exit 1; }
# Godot prints its result line and quits. Its user data and settings go to a directory of
# their own; no sound card is needed.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
XDG_DATA_HOME=$home XDG_CONFIG_HOME=$home XDG_CACHE_HOME=$home timeout 600 \
  godot3 --path "$dir" --audio-driver Dummy --resolution 1280x720 -- \
  "--pieces=$pieces" "--frames=$frames" > "$home/log" 2>&1 || true
grep -E '^godot-particles:' "$home/log" || {
  cat "$home/log" >&2
  echo "$0: Godot printed no result" >&2
  exit 1
}
