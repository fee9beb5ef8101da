#!/bin/sh
# How long a user waits between a command's end and the celebration's first frame on the
# screen, and where that time goes: `confetti run --timings -- true` on an X11 desktop (Xvfb
# with xcompmgr), on sway (headless), and in a terminal (tmux); the stages from
# `confetti overlay --timings`; the program's own start (`confetti --version`); a call to the
# session service (`confetti service`, gdbus). A benchmark,
# never a test: it prints figures and judges nothing.
#
#   sh docs/time-to-screen.sh [PACKAGE] [RUNS]
#
# PACKAGE is a folder `sh .ci/package` made (default .build/package: made if missing); RUNS
# the runs of each (default 11), their median shown with the smallest and largest. Each path
# runs once with Mesa's shader cache on disk (the second run of a day onwards) and once
# without it (a first run). Needs Xvfb, xcompmgr, sway, tmux, dbus-daemon and gdbus
# (`sh .ci/deps test`).
set -eu
package="$(mkdir -p "${1:-$(dirname "$0")/../.build/package}" && cd "${1:-$(dirname "$0")/../.build/package}" && pwd)"
runs="${2:-11}"
cd "$(dirname "$0")/.."
[ -x "$package/root/usr/bin/confetti" ] || sh .ci/package "$package" >/dev/null
work="$(mktemp -d)"
chmod 755 "$work"
# A copy of the program and its library that any user may run (sway's, below, too).
mkdir -p "$work/bin"
cp "$package/root/usr/bin/confetti" "$package"/root/usr/lib/*-linux-gnu/libconfetti.so.0 "$work/bin/"
program="$work/bin/confetti"
LD_LIBRARY_PATH="$work/bin"
export LD_LIBRARY_PATH
pids=""
runner="" # what runs the program: nothing, or setpriv for sway's user
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  tmux -L "confetti-time-$$" kill-server 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The median, smallest and largest of the numbers on standard input, and how many runs gave one.
spread() {
  sort -n | awk -v runs="$runs" '{ v[NR] = $1 }
    END {
      if (NR == 0) { printf "no run gave a figure"; exit }
      printf "%d ms (%d to %d; %d of %d runs)", v[int((NR + 1) / 2)], v[1], v[NR], NR, runs
    }'
}
# The milliseconds in "timings: …; N ms from …" lines.
total() { sed -n 's/^timings: .*; \([0-9]*\) ms from .*/\1/p'; }

echo "program: $program ($("$program" --version)), $(date -u +%F), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "renderer: $("$program" bench --particles 10 --frames 2 --size 64x64 --json 2>/dev/null | sed -n 's/.*"renderer" *: *"\([^"]*\)".*/\1/p' | head -n 1)"

i=0
while [ $i -lt "$runs" ]; do
  from=$(date +%s%N)
  "$program" --version >/dev/null
  echo $(( ($(date +%s%N) - from) / 1000000 ))
  i=$((i + 1))
done | spread | sed 's/^/the program starting and ending (confetti --version): /'
echo

# One path: `confetti run --timings -- true` RUNS times with the cache and RUNS without, then
# the overlay's stages once more each way. $1 names it; the environment is the desktop's.
measure() {
  for cache in on off; do
    if [ $cache = off ]; then export MESA_SHADER_CACHE_DISABLE=true; else unset MESA_SHADER_CACHE_DISABLE; fi
    i=0
    while [ $i -lt "$runs" ]; do
      $runner "$program" run --timings -- true 2>&1 | total
      i=$((i + 1))
    done | spread | sed "s/^/$1, shader cache $cache: the command's end to the first frame: /"
    echo
    $runner "$program" overlay --timings --exit-after 0.3 2>&1 |
      sed -n 's/^timings: /    stages from main: /p'
  done
  unset MESA_SHADER_CACHE_DISABLE
}

# X11: Xvfb, on a display number it picks and says, and a compositing window manager.
Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$work/display" >/dev/null 2>&1 &
pids="$pids $!"
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
display=":$(head -n 1 "$work/display")"
DISPLAY=$display xcompmgr >/dev/null 2>&1 &
pids="$pids $!"
for _ in $(seq 50); do DISPLAY=$display xprop -root _NET_WM_CM_S0 2>/dev/null | grep -q window && break; sleep 0.1; done
(export DISPLAY=$display; unset WAYLAND_DISPLAY; measure "X11 (Xvfb, xcompmgr)")

# From C and Python on X11: confetti_celebration_start (celebrate(wait=False)) to
# confetti_celebration_wait_shown (wait_shown()) returning, the package's library and wheel.
include="$(cd "$package/root/usr/include" && pwd)"
cat >"$work/shown.c" <<'C'
#include <confetti.h>
#include <stdio.h>
#include <time.h>
int main(void) {
  struct timespec from, to;
  clock_gettime(CLOCK_MONOTONIC, &from);
  confetti_celebrate_options options = {0};
  confetti_celebration *celebration;
  bool shown = false;
  if (confetti_celebration_start(&options, &celebration) != CONFETTI_OK) return 1;
  confetti_celebration_wait_shown(celebration, -1, &shown);
  clock_gettime(CLOCK_MONOTONIC, &to);
  confetti_celebration_close(celebration);
  if (!shown) return 1;
  printf("%ld\n", (long)((to.tv_sec - from.tv_sec) * 1000 + (to.tv_nsec - from.tv_nsec) / 1000000));
  return 0;
}
C
cc -I"$include" -o "$work/shown" "$work/shown.c" "$LD_LIBRARY_PATH/libconfetti.so.0"
python3 -m venv "$work/venv" && "$work/venv/bin/pip" install --quiet "$package"/confetti_gl-*.whl
for language in C Python; do
  i=0
  while [ $i -lt "$runs" ]; do
    if [ $language = C ]; then
      env -u WAYLAND_DISPLAY DISPLAY=$display PATH="$(dirname "$program"):$PATH" "$work/shown"
    else
      env -u WAYLAND_DISPLAY DISPLAY=$display "$work/venv/bin/python" -c 'import time, confetti_gl as c
t = time.monotonic(); celebration = c.celebrate(wait=False); shown = celebration.wait_shown()
print(round((time.monotonic() - t) * 1000)) if shown else exit(1); celebration.close()'
    fi
    i=$((i + 1))
  done | spread | sed "s/^/$language on X11, shader cache on: the call to the first frame: /"
  echo
done

# The session service on X11 (`confetti service`, already running, its overlay made ahead, on a
# private session bus): `gdbus call … Celebrate ""` to its answer, which comes once the
# celebration's first frame is on the screen; gdbus's own start is counted, as a caller pays
# it. Each call waits for the last one's signal that it is over (else it would wait its turn).
cat >"$work/bus.conf" <<CONF
<busconfig><type>session</type><listen>unix:path=$work/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
<allow own="*"/></policy>
</busconfig>
CONF
dbus-daemon --config-file="$work/bus.conf" --nofork --nopidfile >/dev/null 2>&1 &
pids="$pids $!"
for _ in $(seq 100); do [ -S "$work/bus" ] && break; sleep 0.1; done
(
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/bus" DISPLAY=$display
  unset WAYLAND_DISPLAY
  "$program" service 2>/dev/null &
  service=$!
  gdbus wait --session --timeout 30 org.confetti.Confetti
  gdbus monitor --session --dest org.confetti.Confetti >"$work/signals" 2>/dev/null &
  watcher=$!
  call() {
    gdbus call --session --dest org.confetti.Confetti --object-path /org/confetti/Confetti \
      --method org.confetti.Confetti1.Celebrate "" "{}"
  }
  call >/dev/null # the service started, and its first standby made
  i=0
  while [ $i -lt "$runs" ]; do
    for _ in $(seq 400); do grep -q "Over (uint32 $((i + 1)),)" "$work/signals" && break; sleep 0.05; done
    sleep 0.5 # the overlay made ahead once the last was shown: ready by now, 4 s on
    from=$(date +%s%N)
    call >/dev/null && echo $(( ($(date +%s%N) - from) / 1000000 ))
    i=$((i + 1))
  done | spread | sed "s/^/the session service on X11, shader cache on: the call to the first frame: /"
  echo
  kill $watcher $service
)

# sway, headless. Compositors refuse to run as root: as root, sway and its clients run as
# nobody, with a cache folder of their own (Mesa's shader cache is kept under it).
as_desktop_user=""
runtime="$work/runtime"
mkdir -m 700 "$runtime" "$work/cache"
if [ "$(id -u)" -eq 0 ]; then
  as_desktop_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
  chown nobody:nogroup "$runtime" "$work/cache"
fi
printf 'output * bg #203040 solid_color\n' >"$work/sway.conf"
chmod 644 "$work/sway.conf"
env -u DISPLAY XDG_RUNTIME_DIR="$runtime" WLR_BACKENDS=headless WLR_RENDERER=pixman \
  WLR_LIBINPUT_NO_DEVICES=1 $as_desktop_user sway -c "$work/sway.conf" >/dev/null 2>&1 &
pids="$pids $!"
for _ in $(seq 100); do ls "$runtime"/wayland-[0-9] >/dev/null 2>&1 && break; sleep 0.1; done
socket="$(basename "$(ls "$runtime"/wayland-[0-9] | head -n 1)")"
(
  unset DISPLAY
  export XDG_RUNTIME_DIR="$runtime" WAYLAND_DISPLAY="$socket" XDG_CACHE_HOME="$work/cache"
  runner="$as_desktop_user"
  measure "sway (headless)"
)

# A terminal: tmux, no desktop.
for cache in on off; do
  i=0
  while [ $i -lt "$runs" ]; do
    rm -f "$work/said"
    env -u DISPLAY -u WAYLAND_DISPLAY TMUX= tmux -L "confetti-time-$$" new-session -d -x 100 -y 30 \
      "$([ $cache = off ] && echo MESA_SHADER_CACHE_DISABLE=true) LD_LIBRARY_PATH=$LD_LIBRARY_PATH '$program' run --terminal --timings -- true 2>'$work/said.part'; mv '$work/said.part' '$work/said'"
    for _ in $(seq 300); do [ -f "$work/said" ] && break; sleep 0.05; done
    total <"$work/said"
    tmux -L "confetti-time-$$" kill-server 2>/dev/null || true
    i=$((i + 1))
  done | spread | sed "s/^/a terminal (tmux), shader cache $cache: the command's end to the first frame: /"
  echo
done
