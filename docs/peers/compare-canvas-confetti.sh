#!/usr/bin/env bash
# Frame times of canvas-confetti (headless Chromium, its 2D canvas on the CPU) and of
# `confetti bench` at the same count and size, run alternately on this machine.
#
#   docs/peers/compare-canvas-confetti.sh CANVAS_CONFETTI_CHECKOUT [N] [WxH] [ROUNDS]
#
# CANVAS_CONFETTI_CHECKOUT: a checkout of canvas-confetti (its src/confetti.js is wrapped as its
# own build does). Needs Debian's chromium and a release build of confetti
# (swift build -c release --product confetti).
set -euo pipefail
checkout=${1:?usage: $0 CANVAS_CONFETTI_CHECKOUT [N] [WxH] [ROUNDS]}
n=${2:-100000}
size=${3:-1280x720}
rounds=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/canvas-confetti-bench.html" "$work/"
{
  echo '!(function (window, module) {'
  cat "$checkout/src/confetti.js"
  echo '  window.confetti = module.exports;'
  echo '}(window, {}));'
} > "$work/confetti.browser.js"
version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' \
  "$checkout/package.json" 2>/dev/null || echo '?')
echo "canvas-confetti $version; $(chromium --version 2>/dev/null)" >&2
w=${size%x*}
h=${size#*x}
for round in $(seq "$rounds"); do
  log="$work/chromium-$round.log"
  # In a process group of its own, so that all of Chromium's processes end before confetti
  # is measured: each is measured alone. (setsid does not fork here, in a shell without job
  # control, so $! is the group's leader.)
  setsid chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size="$w,$h" --enable-logging=stderr --v=0 --user-data-dir="$work/profile" \
    "file://$work/canvas-confetti-bench.html?n=$n&w=$w&h=$h&frames=20" > "$log" 2>&1 &
  browser=$!
  # The page logs one RESULT line when it has measured; up to five minutes.
  for _ in $(seq 600); do
    grep -q 'RESULT {' "$log" && break
    kill -0 "$browser" 2>/dev/null || break
    sleep 0.5
  done
  kill -- "-$browser" 2>/dev/null || true
  wait "$browser" 2>/dev/null || true
  for _ in $(seq 100); do
    pgrep -g "$browser" >/dev/null || break
    sleep 0.1
  done
  peer=$(grep -m1 -o 'RESULT {[^}]*}' "$log" | sed 's/RESULT //' || true)
  # Measured over about the span of wall time the page's 20 frames take (6 s at 300 ms), so
  # that both medians see the machine alike.
  ours=$("$root/.build/release/confetti" bench --particles "$n" --preset classic-cannon --size "$size" \
      --seconds 6 --json 2>/dev/null)
  python3 - "$peer" "$ours" "$round" <<'PY'
import json, sys
peer, ours, round_ = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
if not peer:
    sys.exit("canvas-confetti did not report a result (is chromium installed?)")
peer = json.loads(peer)
p, c = peer["frame_ms_median"], ours["frame_ms"]["median"]
print(f"round {round_}: canvas-confetti {p:.1f} ms, confetti {c:.1f} ms ({ours['renderer']}): "
      f"{p / c:.2f}x")
PY
done
