# N GPU particles like the classic cannon's, timed (docs/peers/godot-particles.sh says how).
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
