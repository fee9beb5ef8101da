"""The C host's window in Python, with the glfw package: confetti over the program's own
scene; a click throws a burst where it lands, space fires the cannons again, esc quits.

    pip install dist/confetti_gl-*.whl glfw     # the wheel: sh .ci/wheel
    python3 window.py [PRESET] [--seconds S]
"""
import argparse
import ctypes
import sys

import glfw

import confetti_gl as confetti

parser = argparse.ArgumentParser(description="Confetti in a Python program's own window.")
parser.add_argument("preset", nargs="?", default="confetti")
parser.add_argument("--seconds", type=float, default=0, help="quit after this long (0: never)")
options = parser.parse_args()

# Set up: a window with a GL 3.3 core context, then the effect on that context.
if not glfw.init():
    sys.exit("window.py: no display for a window")
glfw.window_hint(glfw.CONTEXT_VERSION_MAJOR, 3)
glfw.window_hint(glfw.CONTEXT_VERSION_MINOR, 3)
glfw.window_hint(glfw.OPENGL_PROFILE, glfw.OPENGL_CORE_PROFILE)
glfw.window_hint(glfw.OPENGL_FORWARD_COMPAT, True)
window = glfw.create_window(960, 540, "Confetti in Python", None, None)
if not window:
    sys.exit("window.py: no OpenGL 3.3 window")
glfw.make_context_current(window)
glfw.swap_interval(1)
# The two GL calls the scene needs, from GLFW: no other GL package.
clear_color = ctypes.CFUNCTYPE(None, *[ctypes.c_float] * 4)(glfw.get_proc_address("glClearColor"))
clear = ctypes.CFUNCTYPE(None, ctypes.c_uint)(glfw.get_proc_address("glClear"))

try:
    system = confetti.System(options.preset, width=960, height=540)
except confetti.Error as error:
    sys.exit(f"window.py: {error}")


def on_click(window, button, action, mods):
    if button == glfw.MOUSE_BUTTON_LEFT and action == glfw.PRESS:
        x, y = glfw.get_cursor_pos(window)  # points from the top-left corner
        now = glfw.get_time()
        system.trigger(confetti.Trigger.CLICK, now, at=(x, y))
        print(f"click at {x:.0f},{y:.0f}: {system.alive_count(now)} particles alive", flush=True)


def on_key(window, key, scancode, action, mods):
    if action == glfw.PRESS and key == glfw.KEY_ESCAPE:
        glfw.set_window_should_close(window, True)
    elif action == glfw.PRESS and key == glfw.KEY_SPACE:
        system.trigger(confetti.Trigger.KEY, glfw.get_time())


glfw.set_mouse_button_callback(window, on_click)
glfw.set_key_callback(window, on_key)
glfw.set_window_size_callback(window, lambda _, w, h: w and h and system.resize(w, h))
system.fire_opening(glfw.get_time())

# Loop: the program's own backdrop, then confetti over it.
while not glfw.window_should_close(window) and (not options.seconds or glfw.get_time() < options.seconds):
    glfw.poll_events()
    clear_color(0.10, 0.12, 0.20, 1)
    clear(0x4000)  # GL_COLOR_BUFFER_BIT
    system.draw(0, 0, *glfw.get_framebuffer_size(window), glfw.get_time())
    glfw.swap_buffers(window)

# Tear down: the effect's GL objects go while its context is current.
system.close()
glfw.terminate()
