"""Confetti over a pygame program's own scene, in pygame's OpenGL display: a click throws a burst
where it lands, space fires the effect's cannons again, esc quits.

    pip install dist/confetti_gl-*.whl pygame     # the wheel: sh .ci/wheel
    python3 pygame_window.py [PRESET] [--seconds S] [--seed N] [--snapshot OUT.png --at T]

--snapshot draws the moment T seconds after the effect opened, saves the window's pixels and
quits: `confetti render --time T` of the same effect, size and seed is the same picture.
"""
import argparse
import ctypes
import ctypes.util
import os
import sys
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no greeting on stdout
import pygame  # noqa: E402

import confetti_gl as confetti  # noqa: E402

parser = argparse.ArgumentParser(description="Confetti in a pygame window.")
parser.add_argument("preset", nargs="?", default="confetti")
parser.add_argument("--seconds", type=float, default=0, help="quit after this long (0: never)")
parser.add_argument("--snapshot", help="save the moment --at to this PNG, then quit")
parser.add_argument("--at", type=float, default=0.5, help="the snapshot's moment, in seconds")
parser.add_argument("--seed", type=int, default=1)
options = parser.parse_args()

# A GL 3.3 core context. pygame cannot blit surfaces onto an OpenGL display, so the scene is
# drawn with four GL 1.0 calls from the system's libGL, through ctypes: no other package.
pygame.display.init()  # the display alone: no sound, no joysticks
pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MAJOR_VERSION, 3)
pygame.display.gl_set_attribute(pygame.GL_CONTEXT_MINOR_VERSION, 3)
pygame.display.gl_set_attribute(pygame.GL_CONTEXT_PROFILE_MASK, pygame.GL_CONTEXT_PROFILE_CORE)
try:
    pygame.display.set_mode((960, 540), pygame.OPENGL | pygame.DOUBLEBUF | pygame.RESIZABLE)
except pygame.error as error:
    sys.exit(f"pygame_window.py: no OpenGL 3.3 window: {error}")
pygame.display.set_caption("Confetti in pygame")
gl = ctypes.CDLL(ctypes.util.find_library("GL") or "libGL.so.1")
gl.glClearColor.argtypes = [ctypes.c_float] * 4
COLOR_BUFFER_BIT, SCISSOR_TEST, RGBA, UNSIGNED_BYTE = 0x4000, 0x0C11, 0x1908, 0x1401

try:
    system = confetti.System(options.preset, width=960, height=540, seed=options.seed)
except confetti.Error as error:
    sys.exit(f"pygame_window.py: {error}")
clock = 1.0  # seconds: the effect opens at this reading, as `confetti render` opens it
system.fire_opening(clock)


def draw():
    # The program's own scene: a backdrop and a stage 60 points high along the bottom.
    width, height = pygame.display.get_window_size()  # points; the pixels are the surface's
    pixels_wide, pixels_high = pygame.display.get_surface().get_size()
    gl.glClearColor(26 / 255, 31 / 255, 51 / 255, 1)
    gl.glClear(COLOR_BUFFER_BIT)
    gl.glEnable(SCISSOR_TEST)
    gl.glScissor(0, 0, pixels_wide, 60 * pixels_high // max(height, 1))
    gl.glClearColor(200 / 255, 160 / 255, 60 / 255, 1)
    gl.glClear(COLOR_BUFFER_BIT)
    gl.glDisable(SCISSOR_TEST)
    system.draw(0, 0, pixels_wide, pixels_high, clock)
    return pixels_wide, pixels_high


if options.snapshot:
    # Time is the program's to give: step to the moment as 60 frames a second would.
    while clock < 1.0 + options.at:
        clock = min(1.0 + options.at, clock + 1 / 60)
        system.advance(clock)
    width, height = draw()
    rgba = ctypes.create_string_buffer(width * height * 4)
    gl.glReadPixels(0, 0, width, height, RGBA, UNSIGNED_BYTE, rgba)
    # The framebuffer's rows run bottom-up: flipped into a picture.
    pygame.image.save(pygame.image.frombytes(rgba.raw, (width, height), "RGBA", True),
                      options.snapshot)
    print(f"saved {options.snapshot} at {options.at} s", flush=True)
else:
    start = time.monotonic()
    running = True
    while running and (not options.seconds or clock - 1.0 < options.seconds):
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                             and event.key == pygame.K_ESCAPE):
                running = False
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
                system.trigger(confetti.Trigger.KEY, clock)
            elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                x, y = event.pos  # points from the top-left corner, as confetti takes them
                system.trigger(confetti.Trigger.CLICK, clock, at=(x, y))
                print(f"click at {x},{y}: {system.alive_count(clock)} particles alive",
                      flush=True)
            elif event.type == pygame.WINDOWSIZECHANGED and event.x and event.y:
                system.resize(event.x, event.y)
        clock = 1.0 + time.monotonic() - start
        draw()
        pygame.display.flip()

system.close()  # while the window's context is current
pygame.quit()
