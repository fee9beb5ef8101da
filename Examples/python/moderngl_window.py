"""Confetti over a moderngl program's own scene, in a GLFW window: a click throws a burst where
it lands, space fires the effect's cannons again, esc quits.

    pip install dist/confetti_gl-*.whl moderngl glfw     # the wheel: sh .ci/wheel
    python3 moderngl_window.py [PRESET] [--seconds S] [--snapshot OUT.png --at T]

--snapshot draws the moment T seconds after the effect opened, saves the window's pixels and
quits: `confetti render --time T` of the same effect, size and seed is the same picture.
"""
import argparse
import struct
import sys
import zlib

import glfw
import moderngl

import confetti_gl as confetti

parser = argparse.ArgumentParser(description="Confetti in a moderngl program's window.")
parser.add_argument("preset", nargs="?", default="confetti")
parser.add_argument("--seconds", type=float, default=0, help="quit after this long (0: never)")
parser.add_argument("--snapshot", help="save the moment --at to this PNG, then quit")
parser.add_argument("--at", type=float, default=0.5, help="the snapshot's moment, in seconds")
parser.add_argument("--seed", type=int, default=1)
options = parser.parse_args()

if not glfw.init():
    sys.exit("moderngl_window.py: no display for a window")
glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 3)
glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, True)
window = glfw.create_window(960, 540, "Confetti in moderngl", None, None)
if not window:
    sys.exit("moderngl_window.py: no OpenGL 3.3 window")
glfw.make_context_current(window)
ctx = moderngl.create_context()

# The program's own scene: a backdrop and a stage along the bottom, drawn by moderngl.
backdrop = (26 / 255, 31 / 255, 51 / 255)
stage = ctx.program(
    vertex_shader="""#version 330
    in vec2 corner;
    void main() { gl_Position = vec4(corner, 0.0, 1.0); }""",
    fragment_shader="""#version 330
    out vec4 color;
    void main() { color = vec4(0.78, 0.63, 0.24, 1.0); }""")
bottom = -1 + 2 * 60 / 540
corners = ctx.buffer(struct.pack("8f", -1, -1, 1, -1, -1, bottom, 1, bottom))
stage_shape = ctx.vertex_array(stage, [(corners, "2f", "corner")])

try:
    system = confetti.System(options.preset, width=960, height=540, seed=options.seed)
except confetti.Error as error:
    sys.exit(f"moderngl_window.py: {error}")
clock = 1.0  # seconds: the effect opens at this reading, as `confetti render` opens it
system.fire_opening(clock)


def draw():
    ctx.screen.use()
    ctx.clear(*backdrop)
    stage_shape.render(moderngl.TRIANGLE_STRIP)
    system.draw(0, 0, *glfw.get_framebuffer_size(window), clock)


def save_png(path, width, height, rgb):
    """The framebuffer's rows (bottom-up) as a PNG file, with the standard library alone."""
    rows = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3] for y in reversed(range(height)))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + \
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height,
                   8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def on_click(window, button, action, mods):
    if button == glfw.MOUSE_BUTTON_LEFT and action == glfw.PRESS:
        x, y = glfw.get_cursor_pos(window)  # points from the top-left corner
        system.trigger(confetti.Trigger.CLICK, clock, at=(x, y))
        print(f"click at {x:.0f},{y:.0f}: {system.alive_count(clock)} particles alive",
              flush=True)


def on_key(window, key, scancode, action, mods):
    if action == glfw.PRESS and key == glfw.KEY_ESCAPE:
        glfw.set_window_should_close(window, True)
    elif action == glfw.PRESS and key == glfw.KEY_SPACE:
        system.trigger(confetti.Trigger.KEY, clock)


glfw.set_mouse_button_callback(window, on_click)
glfw.set_key_callback(window, on_key)
glfw.set_window_size_callback(window, lambda _, w, h: w and h and system.resize(w, h))

if options.snapshot:
    # Time is the program's to give: step to the moment as 60 frames a second would.
    while clock < 1.0 + options.at:
        clock = min(1.0 + options.at, clock + 1 / 60)
        system.advance(clock)
    draw()
    width, height = glfw.get_framebuffer_size(window)
    save_png(options.snapshot, width, height, ctx.screen.read(components=3))
    print(f"saved {options.snapshot} at {options.at} s", flush=True)
else:
    start = glfw.get_time()
    while not glfw.window_should_close(window) and \
            (not options.seconds or glfw.get_time() - start < options.seconds):
        glfw.poll_events()
        clock = 1.0 + glfw.get_time() - start
        draw()
        glfw.swap_buffers(window)

system.close()  # while the window's context is current
glfw.terminate()
