#!/bin/sh
# The export benchmark: the README's clip (the default effect, 5 s at 1920x1080 and 60 fps, on a
# transparent background; MP4, which has no alpha, on the default backdrop) rendered to each
# format, and in the same run the encoder alone on the very same frames: the floor. ffmpeg is
# run through a wrapper that notes the arguments confetti gives it; the floor is that command
# again, reading the frames from a file instead of the pipe. Prints a Markdown table: seconds,
# against the floor, against real time, the file's size, and its quality against the lossless
# frames (SSIM and luma PSNR of both laid over mid-grey, as an editor shows them; MP4's on its
# own backdrop). Each render and each floor runs ROUNDS times (3), alternated, and the fastest
# counts.
# Timings are a benchmark's, never a test's.
#
#   sh docs/export-bench.sh [CONFETTI] [SIZE] [SECONDS]      (defaults: confetti 1920x1080 5)
#   QUALITY=best sh docs/export-bench.sh ...                 (the encoders' slower settings)
#   ROUNDS=5 sh docs/export-bench.sh ...                     (more runs of each, on a noisy machine)
set -eu
confetti="${1:-confetti}"
size="${2:-1920x1080}"
seconds="${3:-5}"
quality="${QUALITY:-standard}"
rounds="${ROUNDS:-3}"
fps=60
ffmpeg="$(command -v ffmpeg)" || { echo "export-bench: apt-get install ffmpeg" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/clear" "$work/opaque"
cat >"$work/bin/ffmpeg" <<EOF
#!/bin/sh
: >"$work/arguments"
for argument in "\$@"; do printf '%s\n' "\$argument" >>"$work/arguments"; done
exec "$ffmpeg" "\$@"
EOF
chmod +x "$work/bin/ffmpeg"

now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
render() { # FORMAT-FILE BACKGROUND: renders the clip, prints its seconds
  start=$(now)
  PATH="$work/bin:$PATH" "$confetti" render --size "$size" --fps "$fps" --duration "$seconds" \
    --quality "$quality" --background "$2" --out "$1" >/dev/null
  seconds_since "$start"
}
raw() { # FOLDER: the sequence in FOLDER as one raw RGBA file
  "$ffmpeg" -v error -framerate "$fps" -i "$1/f-%04d.png" -f rawvideo -pix_fmt rgba -y "$1.rgba"
}
floor() { # RAW OUT: confetti's last ffmpeg command again, from RAW to OUT; prints its seconds
  from="$1"
  to="$2"
  count=$(wc -l <"$work/arguments")
  line=0
  set --
  while IFS= read -r argument; do
    line=$((line + 1))
    [ "$argument" = "pipe:0" ] && argument="$from"
    [ "$line" -eq "$count" ] && argument="$to"
    set -- "$@" "$argument"
  done <"$work/arguments"
  start=$(now)
  "$ffmpeg" "$@"
  seconds_since "$start"
}
quality() { # FILE RAW BACKDROP: SSIM and luma PSNR of FILE against RAW, both over BACKDROP
  decoder=""
  case "$1" in *.webm) decoder="-c:v libvpx-vp9" ;; esac
  # shellcheck disable=SC2086
  "$ffmpeg" -v info $decoder -i "$1" -f rawvideo -pix_fmt rgba -s "$size" -r "$fps" -i "$2" \
    -lavfi "color=c=$3:s=$size:r=$fps,split[g][h];[g][0:v]overlay=shortest=1,format=yuv444p[a];
      [h][1:v]overlay=shortest=1,format=yuv444p[b];[a]split[a1][a2];[b]split[b1][b2];
      [a1][b1]ssim;[a2][b2]psnr" -f null - 2>&1 |
    awk '/SSIM/ { sub(/.*All:/, ""); ssim = $1 } /PSNR y:/ { sub(/.*PSNR y:/, ""); psnr = $1 }
      END { printf "SSIM %.4f, luma %.1f dB", ssim, psnr }'
}

echo "export-bench: $("$confetti" version --verbose | paste -sd' ' | cut -c1-160)" >&2
echo "export-bench: $size, ${seconds} s at $fps fps, $quality settings, best of $rounds," \
  "$(date -u +%F)" >&2
png=$(render "$work/clear/f.png" transparent)
round=1
while [ "$round" -lt "$rounds" ]; do
  png=$(least "$png" "$(render "$work/clear/f.png" transparent)")
  round=$((round + 1))
done
raw "$work/clear"
"$confetti" render --size "$size" --fps "$fps" --duration "$seconds" \
  --out "$work/opaque/f.png" >/dev/null
raw "$work/opaque"
echo "| Format | Render | Encoder alone | Render ÷ encoder | × real time | Size | Quality |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
printf '| PNG sequence | %.1f s | — | — | %.1f× | %s MB | lossless |\n' "$png" \
  "$(ratio "$png" "$seconds")" "$(du -sm "$work/clear" | cut -f1)"
# (GIF is left out: it plays at most 50 frames a second, and no editor takes it as a clip.)
for format in webm mov mp4; do
  background=transparent
  frames="$work/clear.rgba"
  backdrop=0x808080
  if [ "$format" = mp4 ]; then
    background='#12141c'
    frames="$work/opaque.rgba"
    backdrop=0x12141c
  fi
  # Each ROUNDS times, alternated, the fastest kept: one run's noise is not the figure.
  took=$(render "$work/clip.$format" "$background")
  alone=$(floor "$frames" "$work/floor.$format")
  round=1
  while [ "$round" -lt "$rounds" ]; do
    took=$(least "$took" "$(render "$work/clip.$format" "$background")")
    alone=$(least "$alone" "$(floor "$frames" "$work/floor.$format")")
    round=$((round + 1))
  done
  printf '| %s | %.1f s | %.1f s | %.2f | %.1f× | %.1f MB | %s |\n' "$format" "$took" "$alone" \
    "$(ratio "$took" "$alone")" "$(ratio "$took" "$seconds")" \
    "$(ratio "$(stat -c %s "$work/clip.$format")" 1048576)" \
    "$(quality "$work/clip.$format" "$frames" "$backdrop")"
done
