"""Confetti over a pyglet program's own scene: a click throws a burst where it lands, space
fires the effect's cannons again, esc quits.

    pip install dist/confetti_gl-*.whl pyglet     # the wheel: sh .ci/wheel
    python3 pyglet_window.py [PRESET] [--seconds S] [--snapshot OUT.png --at T]

--snapshot draws the moment T seconds after the effect opened, saves the window's pixels and
quits: `confetti render --time T` of the same effect, size and seed is the same picture.
"""
import argparse
import sys

import pyglet

import confetti_gl as confetti

parser = argparse.ArgumentParser(description="Confetti in a pyglet window.")
parser.add_argument("preset", nargs="?", default="confetti")
parser.add_argument("--seconds", type=float, default=0, help="quit after this long (0: never)")
parser.add_argument("--snapshot", help="save the moment --at to this PNG, then quit")
parser.add_argument("--at", type=float, default=0.5, help="the snapshot's moment, in seconds")
parser.add_argument("--seed", type=int, default=1)
options = parser.parse_args()

# A GL 3.3 core context: confetti needs 3.3, and pyglet 2 draws its shapes with it too.
config = pyglet.gl.Config(major_version=3, minor_version=3, forward_compatible=True,
                          double_buffer=True)
window = pyglet.window.Window(960, 540, "Confetti in pyglet", config=config)
# The program's own scene: a backdrop and a stage along the bottom.
backdrop = (26, 31, 51)
scene = pyglet.graphics.Batch()
stage = pyglet.shapes.Rectangle(0, 0, 960, 60, color=(200, 160, 60), batch=scene)

try:
    system = confetti.System(options.preset, width=960, height=540, seed=options.seed)
except confetti.Error as error:
    sys.exit(f"pyglet_window.py: {error}")

clock = 1.0  # seconds: the effect opens at this reading, as `confetti render` opens it
system.fire_opening(clock)


@window.event
def on_draw():
    window.clear()
    scene.draw()
    width, height = window.get_framebuffer_size()
    system.draw(0, 0, width, height, clock)


@window.event
def on_mouse_press(x, y, button, modifiers):
    if button == pyglet.window.mouse.LEFT:
        # pyglet's y runs up from the bottom; confetti's points run down from the top.
        system.trigger(confetti.Trigger.CLICK, clock, at=(x, window.height - y))
        print(f"click at {x},{window.height - y}: {system.alive_count(clock)} particles alive",
              flush=True)


@window.event
def on_key_press(symbol, modifiers):
    if symbol == pyglet.window.key.SPACE:
        system.trigger(confetti.Trigger.KEY, clock)
    elif symbol == pyglet.window.key.ESCAPE:
        quit()
        return pyglet.event.EVENT_HANDLED


@window.event
def on_resize(width, height):
    if width and height:
        system.resize(width, height)


def quit():
    # The effect's GL objects go while the window's context is current, then the window.
    window.switch_to()
    system.close()
    window.close()


@window.event
def on_close():
    quit()


def tick(elapsed):
    global clock
    clock += elapsed
    if options.seconds and clock - 1.0 >= options.seconds:
        quit()


def snapshot(_):
    global clock
    # Time is the program's to give: step to the moment as 60 frames a second would.
    while clock < 1.0 + options.at:
        clock = min(1.0 + options.at, clock + 1 / 60)
        system.advance(clock)
    window.switch_to()
    on_draw()
    pyglet.image.get_buffer_manager().get_color_buffer().save(options.snapshot)
    print(f"saved {options.snapshot} at {options.at} s", flush=True)
    quit()


pyglet.gl.glClearColor(*(c / 255 for c in backdrop), 1)
if options.snapshot:
    pyglet.clock.schedule_once(snapshot, 0.1)
else:
    pyglet.clock.schedule(tick)
pyglet.app.run()
