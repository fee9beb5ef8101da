#!/usr/bin/env bash
# A small Godot 3 project that draws N particles with Godot's GPU particles (GLES3 Particles2D,
# simulated on the GPU by transform feedback) in a 1280x720 window, as near to the classic cannon
# as Godot's particle material comes, and prints its frame times.
#
#   docs/peers/godot-particles.sh write DIR            writes the project into DIR
#   docs/peers/godot-particles.sh run DIR [N] [FRAMES]  runs it (needs DISPLAY and Debian's godot3)
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
usage="usage: $0 write DIR | run DIR [N] [FRAMES]"
command=${1:?$usage}
dir=${2:?$usage}
case $command in
write)
  mkdir -p "$dir"
  cat > "$dir/project.godot" <<'EOF'
; Made by docs/peers/godot-particles.sh.
config_version=4

[application]
config/name="confetti-peer-particles"
run/main_scene="res://main.tscn"
run/low_processor_mode=false

[debug]
settings/fps/force_fps=0

[display]
window/size/width=1280
window/size/height=720
window/size/resizable=false
window/vsync/use_vsync=false

[rendering]
quality/driver/driver_name="GLES3"
quality/driver/fallback_to_gles2=false
environment/default_clear_color=Color( 0.071, 0.078, 0.11, 1 )
EOF
  cat > "$dir/main.tscn" <<'EOF'
[gd_scene load_steps=2 format=2]

[ext_resource path="res://main.gd" type="Script" id=1]

[node name="Main" type="Node2D"]
script = ExtResource( 1 )
EOF
  cat > "$dir/main.gd" <<'EOF'
# Made by docs/peers/godot-particles.sh: N GPU particles like the classic cannon's, timed.
extends Node2D

var pieces = 100000
var measured = 300
var dropped = 60
var frames = []
var last = 0

func _ready():
	for arg in OS.get_cmdline_args():
		if arg.begins_with("--pieces="):
			pieces = int(arg.substr(9))
		if arg.begins_with("--frames="):
			measured = int(arg.substr(9))
	var size = get_viewport_rect().size
	var particles = Particles2D.new()
	particles.amount = pieces
	particles.lifetime = 1.5
	particles.preprocess = 1.5
	particles.visibility_rect = Rect2(-4000, -4000, 8000, 8000)
	particles.position = Vector2(size.x / 2, size.y + 20)
	var material = ParticlesMaterial.new()
	material.flag_disable_z = true
	material.emission_shape = ParticlesMaterial.EMISSION_SHAPE_BOX
	material.emission_box_extents = Vector3(size.x * 0.35, 1, 1)
	material.direction = Vector3(0, -1, 0)
	material.spread = 15
	material.gravity = Vector3(0, 280, 0)
	material.initial_velocity = 1.755 * size.y * 0.75
	material.initial_velocity_random = 0.2
	material.damping = 250
	material.angular_velocity = 200
	material.angular_velocity_random = 1
	material.scale = 1
	material.scale_random = 0.3
	material.color = Color(1.0, 0.23, 0.19)
	material.hue_variation = 1
	material.hue_variation_random = 1
	particles.process_material = material
	var image = Image.new()
	image.create(10, 10, false, Image.FORMAT_RGBA8)
	image.fill(Color(1, 1, 1, 1))
	var texture = ImageTexture.new()
	texture.create_from_image(image, 0)
	particles.texture = texture
	add_child(particles)
	last = OS.get_ticks_usec()

func _process(_delta):
	var now = OS.get_ticks_usec()
	frames.append((now - last) / 1000.0)
	last = now
	if frames.size() == dropped + measured:
		var times = frames.slice(dropped, frames.size() - 1)
		times.sort()
		print("godot-particles: %d pieces, %dx%d, %d frames: median %.2f ms, p95 %.2f ms (%s, %s)" % [
			pieces, get_viewport_rect().size.x, get_viewport_rect().size.y, times.size(),
			times[times.size() / 2], times[int(times.size() * 0.95)],
			VisualServer.get_video_adapter_name(), OS.get_video_driver_name(OS.get_current_video_driver())])
		get_tree().quit()
EOF
  echo "$dir: a Godot 3 project (open it in godot3's editor, or: $0 run $dir)"
  ;;
run)
  pieces=${3:-100000}
  frames=${4:-300}
  command -v godot3 > /dev/null || { echo "$0: no godot3: apt install godot3" >&2; exit 1; }
  [ -n "${DISPLAY:-}" ] || { echo "$0: no DISPLAY: run it under xvfb-run or a desktop" >&2; exit 1; }
  [ -f "$dir/project.godot" ] || { echo "$0: no project in $dir: $0 write $dir" >&2; exit 1; }
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
  ;;
*)
  echo "$usage" >&2
  exit 2
  ;;
esac
