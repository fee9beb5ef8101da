#!/bin/sh
# Makes docs/obs.md's pictures: the real OBS Studio, with the package's plugin, on an X server of
# its own (Xvfb), a 1280x720 scene (a colour and a line of text) with the Confetti source fired
# over it (docs/obs-fired.png), and the source's properties dialog (docs/obs-properties.png).
# Each picture is cut to its window, scaled to 960 pixels wide where larger and reduced to 256
# colours, to stay small.
#
#   sh docs/obs-screenshots.sh [PACKAGE]      (default: .build/package, made by sh .ci/package)
#
# Needs obs-studio, xvfb, xdotool, x11-utils, ffmpeg and python3.
set -eu
repo="$(cd "$(dirname "$0")/.." && pwd)"
package="$(cd "${1:-$repo/.build/package}" && pwd)"
usr="$package/root/usr"
lib="$usr/lib/$(cc -print-multiarch)"
[ -f "$lib/obs-plugins/confetti.so" ] || { echo "obs-screenshots: no plugin in $package" >&2; exit 1; }
work="$(mktemp -d)"
config="$work/home/.config/obs-studio"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$config/basic/profiles/Shots" "$config/basic/scenes"
cat >"$config/global.ini" <<INI
[General]
FirstRun=true
LastVersion=486539266
Pre19Defaults=false
Pre21Defaults=false
Pre23Defaults=false
Pre24.1Defaults=false

[Basic]
Profile=Shots
ProfileDir=Shots
SceneCollection=Shots
SceneCollectionFile=Shots

[OBSWebSocket]
FirstLoad=false
ServerEnabled=true
ServerPort=$port
AlertsEnabled=false
AuthRequired=false
INI
printf '[General]\nName=Shots\n\n[Video]\nBaseCX=1280\nBaseCY=720\nOutputCX=1280\nOutputCY=720\nFPSType=1\nFPSInt=30\n' \
  >"$config/basic/profiles/Shots/basic.ini"
cat >"$config/basic/scenes/Shots.json" <<JSON
{"name": "Shots", "current_scene": "Stream", "current_program_scene": "Stream",
 "scene_order": [{"name": "Stream"}], "transitions": [], "current_transition": "Fade",
 "transition_duration": 300,
 "sources": [
  {"id": "scene", "versioned_id": "scene", "name": "Stream", "settings": {"id_counter": 3, "items": [
    {"name": "Backdrop", "id": 1, "visible": true, "pos": {"x": 0, "y": 0}, "scale": {"x": 1, "y": 1}, "align": 5},
    {"name": "Thanks", "id": 2, "visible": true, "pos": {"x": 195, "y": 130}, "scale": {"x": 1, "y": 1}, "align": 5},
    {"name": "Confetti", "id": 3, "visible": true, "pos": {"x": 0, "y": 0}, "scale": {"x": 1, "y": 1}, "align": 5}]}},
  {"id": "color_source_v3", "versioned_id": "color_source_v3", "name": "Backdrop",
   "settings": {"color": 4282260266, "width": 1280, "height": 720}},
  {"id": "text_ft2_source_v2", "versioned_id": "text_ft2_source_v2", "name": "Thanks",
   "settings": {"text": "Thanks for the follow!", "font": {"face": "DejaVu Sans", "style": "Bold", "size": 72, "flags": 1}}},
  {"id": "confetti_source", "versioned_id": "confetti_source", "name": "Confetti",
   "settings": {"effect": "confetti", "seed": 3}}
 ]}
JSON

exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
exec 3>&-
while [ ! -s "$work/display" ]; do sleep 0.1; done
display=":$(cat "$work/display")"
HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" DISPLAY="$display" LD_LIBRARY_PATH="$lib" \
  OBS_PLUGINS_PATH="$lib/obs-plugins" OBS_PLUGINS_DATA_PATH="$usr/share/obs/obs-plugins" \
  obs --multi --disable-missing-files-check --collection Shots --profile Shots --scene Stream \
  >"$work/obs.log" 2>&1 &
obs=$!
trap 'kill $obs 2>/dev/null; wait $obs 2>/dev/null || :; kill $xvfb; wait $xvfb 2>/dev/null || :; rm -rf "$work"' EXIT
request() { python3 "$repo/Tests/ConfettiInstalledTests/Hosts/obs-request.py" "$port" --wait 60 >/dev/null; }

# A window's picture: cut to its place on the screen, at most 960 wide, in 256 colours.
grab() { # WINDOW-ID OUT
  eval "$(xdotool getwindowgeometry --shell "$1")"
  ffmpeg -nostdin -loglevel error -f x11grab -draw_mouse 0 -video_size "${WIDTH}x${HEIGHT}" \
    -i "$display+$X,$Y" -frames:v 1 -y "$work/grab.png"
  ffmpeg -nostdin -loglevel error -i "$work/grab.png" \
    -vf "scale='min(960,iw)':-2:flags=lanczos,split[a][b];[a]palettegen=max_colors=256[p];[b][p]paletteuse=dither=none" \
    -y "$2"
}

echo '[{"requestType": "GetVersion"}]' | request
main=$(DISPLAY="$display" xdotool search --sync --name '^OBS ' | head -n 1)
sleep 3 # the status bar's figures filled in
echo '[{"requestType": "PressInputPropertiesButton", "requestData": {"inputName": "Confetti", "propertyName": "fire"}}]' | request
sleep 0.7 # the pieces in flight, not a check: a picture for the page
DISPLAY="$display" grab "$main" "$repo/docs/obs-fired.png"

echo '[{"requestType": "OpenInputPropertiesDialog", "requestData": {"inputName": "Confetti"}}]' | request
dialog=$(DISPLAY="$display" xdotool search --sync --name "Properties for 'Confetti'" | head -n 1)
sleep 1 # its widgets drawn
DISPLAY="$display" grab "$dialog" "$repo/docs/obs-properties.png"
ls -l "$repo/docs/obs-fired.png" "$repo/docs/obs-properties.png"
