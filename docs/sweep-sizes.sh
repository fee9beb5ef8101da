#!/usr/bin/env bash
# The cost of a frame as the work grows: `confetti bench --mode gpu` (the product) at 1,000 to
# 1,000,000 pieces of the classic cannon at 720p, 1080p and 4K. Prints a table and writes
# docs/sweep-sizes.svg: the time a frame takes per piece and per pixel shaded, against the count,
# one line per size.
#
#   bash docs/sweep-sizes.sh [path/to/confetti] [OUT.svg]
#
# Needs a release build (swift build -c release --product confetti) and jq.
set -euo pipefail
confetti=${1:-.build/release/confetti}
out=${2:-docs/sweep-sizes.svg}
command -v jq > /dev/null || { echo "$0: no jq: apt install jq" >&2; exit 1; }
sizes="1280x720 1920x1080 3840x2160"
counts="1000 10000 100000 300000 1000000"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
"$confetti" --version > /dev/null
printf '%-10s %9s %10s %10s %9s %12s %14s\n' size pieces "frame ms" "gpu ms" px/piece "ns/piece" "ns/pixel"
for size in $sizes; do
  for n in $counts; do
    frames=$(( n >= 300000 ? 8 : 30 ))
    "$confetti" bench --particles "$n" --mode gpu --size "$size" --frames "$frames" --json 2> /dev/null \
      | jq -r --arg size "$size" '[$size, .particles, .frame_ms.median, .gpu_ms.median,
          .pixels_per_particle, .renderer] | @tsv' >> "$rows"
    tail -1 "$rows" | awk -F'\t' '{ printf "%-10s %9d %10.2f %10.2f %9.1f %12.1f %14.2f\n",
      $1, $2, $3, $4, $5, $3 * 1e6 / $2, $3 * 1e6 / ($2 * $5) }'
  done
done
renderer=$(head -1 "$rows" | cut -f6)
awk -F'\t' -v renderer="$renderer" -v when="$(date -u +%Y-%m-%d)" \
  -v commit="$(git rev-parse --short HEAD 2> /dev/null || echo unknown)" '
  function lx(n) { return left + (log(n) / log(10) - 3) / 3 * plotW }
  function ly(v, lo, hi, top) { return top + plotH - (log(v) - log(lo)) / (log(hi) - log(lo)) * plotH }
  BEGIN { left = 70; plotW = 260; plotH = 220; gap = 110; colours["1280x720"] = "#ff9500";
    colours["1920x1080"] = "#007aff"; colours["3840x2160"] = "#34c759"
    order[1] = "1280x720"; order[2] = "1920x1080"; order[3] = "3840x2160" }
  { size[NR] = $1; n[NR] = $2; piece[NR] = $3 * 1e6 / $2; pixel[NR] = $3 * 1e6 / ($2 * $5) }
  END {
    print "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"860\" height=\"330\" font-family=\"sans-serif\" font-size=\"11\">"
    print "<rect width=\"860\" height=\"330\" fill=\"white\"/>"
    printf "<text x=\"10\" y=\"16\" font-size=\"12\">confetti bench --mode gpu, the classic cannon: %s, %s, %s</text>\n", renderer, when, commit
    for (panel = 0; panel < 2; panel++) {
      x0 = panel * (plotW + gap); top = 50
      lo = panel == 0 ? 100 : 1; hi = panel == 0 ? 1e4 : 100
      title = panel == 0 ? "frame time per piece (ns)" : "frame time per pixel shaded (ns)"
      printf "<g transform=\"translate(%d,0)\">\n", x0
      printf "<text x=\"%d\" y=\"40\">%s</text>\n", left, title
      printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n", left, top, plotW, plotH
      for (d = log(lo) / log(10); d <= log(hi) / log(10) + 1e-9; d++) {
        y = ly(10 ^ d, lo, hi, top)
        printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", left, left + plotW, y, y, left - 4, y + 4, 10 ^ d
      }
      for (d = 3; d <= 6; d++) {
        x = lx(10 ^ d)
        printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, top + plotH + 14, d == 3 ? "1,000" : d == 4 ? "10,000" : d == 5 ? "100,000" : "1,000,000"
      }
      printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">pieces</text>\n", left + plotW / 2, top + plotH + 30
      for (k = 1; k <= 3; k++) {
        s = order[k]
        path = ""
        for (i = 1; i <= NR; i++) if (size[i] == s) {
          v = panel == 0 ? piece[i] : pixel[i]
          path = path (path == "" ? "M" : " L") sprintf("%.1f,%.1f", lx(n[i]), ly(v, lo, hi, top))
          printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", lx(n[i]), ly(v, lo, hi, top), colours[s]
        }
        printf "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n", path, colours[s]
      }
      print "</g>"
    }
    for (k = 1; k <= 3; k++) {
      printf "<rect x=\"750\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"764\" y=\"%d\">%s</text>\n", 42 + 18 * k, colours[order[k]], 51 + 18 * k, order[k]
    }
    print "</svg>"
  }' "$rows" > "$out"
echo "wrote $out"
