#!/bin/sh
# The tutorial's measurement: `confetti bench --compare` of the classic cannon at 800×600 with
# 1,000, 10,000 and 100,000 pieces, each way in turn. Prints a Markdown table and writes
# docs/learn/bench.svg: the CPU's own work per frame and the bytes uploaded per frame, against
# the number of pieces, the GPU way and the CPU ways.
#   sh docs/learn/bench.sh [path/to/confetti] [seconds per way]
set -eu
confetti="${1:-.build/release/confetti}"
seconds="${2:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for n in 1000 10000 100000; do
  echo "bench: $n pieces" >&2
  "$confetti" bench --compare --json --particles "$n" --size 800x600 --seconds "$seconds" \
    2>/dev/null > "$work/$n.json"
done
python3 - "$work" docs/learn/bench.svg <<'PY'
import json, math, sys
work, plot = sys.argv[1], sys.argv[2]
runs = [json.load(open(f"{work}/{n}.json")) for n in (1000, 10000, 100000)]
ways = [("gpu", "the GPU way", "#34c759"), ("cpu-simd", "the CPU way, SIMD on every core", "#ff9500"),
        ("cpu", "the CPU way, a plain loop", "#ff3b30")]
print(f"{runs[0]['renderer']}, {runs[0]['build']} build, 800×600, the classic cannon")
print()
print("| pieces | way | CPU ms a frame | bytes uploaded a frame | frame ms (to glFinish) |")
print("| ---: | --- | ---: | ---: | ---: |")
for run in runs:
    for key, name, _ in ways:
        m = run["modes"][key]
        print(f"| {run['particles']:,} | {name} | {m['app_cpu_ms']['median']:.3f} | "
              f"{m['upload_bytes_per_frame']:,} | {m['frame_ms']['median']:.2f} |")
# Two panels, log-log: the CPU's work and the upload, each way.
W, H, pad = 360, 260, 56
def panel(left, title, key, low, high):
    out = [f'<g transform="translate({left},0)">',
           f'<text x="{pad}" y="20" font-size="14" fill="#ddd">{title}</text>']
    def x(n): return pad + (math.log10(n) - 3) / 2 * (W - pad - 40)
    def y(v): return H - 40 - (math.log10(max(v, low)) - math.log10(low)) / (math.log10(high) - math.log10(low)) * (H - 80)
    for e in range(int(math.log10(low)), int(math.log10(high)) + 1):
        out.append(f'<line x1="{pad}" x2="{W-40}" y1="{y(10**e):.1f}" y2="{y(10**e):.1f}" stroke="#333"/>')
        out.append(f'<text x="{pad-6}" y="{y(10**e)+4:.1f}" font-size="11" fill="#aaa" text-anchor="end">1e{e}</text>')
    for n in (1000, 10000, 100000):
        out.append(f'<text x="{x(n):.1f}" y="{H-22}" font-size="11" fill="#aaa" text-anchor="middle">{n:,}</text>')
    out.append(f'<text x="{(pad+W-40)/2:.0f}" y="{H-6}" font-size="11" fill="#aaa" text-anchor="middle">pieces</text>')
    for way, _, colour in ways:
        points = [(x(r["particles"]), y(key(r["modes"][way]))) for r in runs]
        out.append('<polyline fill="none" stroke-width="2.5" stroke="%s" points="%s"/>' % (
            colour, " ".join(f"{a:.1f},{b:.1f}" for a, b in points)))
        out += [f'<circle cx="{a:.1f}" cy="{b:.1f}" r="3.5" fill="{colour}"/>' for a, b in points]
    return out + ["</g>"]
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{2*W}" height="{H+24}" font-family="sans-serif">',
       f'<rect width="{2*W}" height="{H+24}" fill="#12141c"/>']
svg += panel(0, "the CPU's work a frame (ms)", lambda m: m["app_cpu_ms"]["median"], 1e-3, 1e2)
svg += panel(W, "bytes uploaded a frame", lambda m: m["upload_bytes_per_frame"], 1, 1e7)
for i, (_, name, colour) in enumerate(ways):
    svg.append(f'<rect x="{pad+i*230}" y="{H+8}" width="12" height="4" fill="{colour}"/>'
               f'<text x="{pad+16+i*230}" y="{H+14}" font-size="11" fill="#ddd">{name}</text>')
svg.append("</svg>")
open(plot, "w").write("\n".join(svg) + "\n")
print(f"\nwrote {plot}", file=sys.stderr)
PY
