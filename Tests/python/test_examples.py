"""The Python examples, run as their users run them under an X display of their own: a pyglet
window, a moderngl window and a pygame window draw confetti over their own scene, and the
moment each saves is `confetti render` of that moment, within 4/255 a channel (their windows
have core-profile GL contexts, whose points the GL rasterises as exact sprites; render's
headless one draws whole pixels). And a System forgotten without close() is freed by its
finaliser."""
import gc
import os
import pathlib
import subprocess
import sys

import pytest
from pyglet.extlibs import png

import confetti_gl as confetti

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "Examples" / "python"
STAGE = 60  # the examples' stage along the bottom, in pixels
BACKDROP = "#1a1f33"


def pixels(path):
    width, height, rows, _ = png.Reader(filename=str(path)).asRGBA8()
    return width, height, [bytes(row) for row in rows]


@pytest.mark.parametrize("example",
                         ["pyglet_window.py", "moderngl_window.py", "pygame_window.py"])
def test_an_example_window_draws_what_render_draws(example, display, tmp_path):
    snapshot = tmp_path / "window.png"
    ran = subprocess.run(
        [sys.executable, EXAMPLES / example, "confetti", "--seed", "5", "--at", "0.6",
         "--snapshot", snapshot], env={**os.environ, "DISPLAY": display.name},
        capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == f"saved {snapshot} at 0.6 s"
    reference = tmp_path / "render.png"
    rendered = subprocess.run(
        [sys.executable, "-m", "confetti_gl", "render", "--preset", "confetti", "--size",
         "960x540", "--seed", "5", "--time", "0.6", "--background", BACKDROP, "--out",
         reference], capture_output=True, text=True, timeout=120)
    assert rendered.returncode == 0, rendered.stderr
    width, height, mine = pixels(snapshot)
    assert (width, height) == (960, 540)
    _, _, theirs = pixels(reference)
    worst, confetti_pixels = 0, 0
    for y in range(height - STAGE):
        for x in range(width):
            a, b = mine[y][4 * x:4 * x + 3], theirs[y][4 * x:4 * x + 3]
            worst = max(worst, *(abs(p - q) for p, q in zip(a, b)))
            confetti_pixels += max(b) - min(b) > 60
    assert worst <= 4, f"a channel differs by {worst}/255"
    assert confetti_pixels > 5000, "there is confetti to compare"
    stage = mine[height - 10][4 * 480:4 * 480 + 3]
    assert all(abs(p - q) <= 2 for p, q in zip(stage, (199, 161, 61))), \
        f"the program's own scene is drawn: {tuple(stage)}"


def test_a_forgotten_system_is_freed_by_its_finaliser():
    moderngl = pytest.importorskip("moderngl")
    context = moderngl.create_standalone_context(backend="egl")
    try:
        def resident():
            with open("/proc/self/status") as status:
                line = next(line for line in status if line.startswith("VmRSS:"))
            return int(line.split()[1]) * 1024

        def churn(count):
            for _ in range(count):
                system = confetti.System("confetti", width=640, height=360, capacity=20000)
                system.fire_opening(1.0)
                del system  # never closed
            gc.collect()

        churn(50)  # warm: the library's caches, the driver's
        before = resident()
        churn(300)
        grown = resident() - before
        # 300 systems of 20,000 pieces hold about 800 MB of records if none is freed.
        assert grown < 40 * 1024 * 1024, f"memory grew by {grown / 2**20:.1f} MB"
    finally:
        context.release()


def test_a_system_answers_what_it_holds_on_a_headless_context():
    moderngl = pytest.importorskip("moderngl")
    context = moderngl.create_standalone_context(backend="egl")
    try:
        with confetti.System("confetti", width=640, height=360, seed=9) as system:
            assert system.has(confetti.Trigger.START) and system.has(confetti.Trigger.KEY)
            assert system.capacity > 1000
            assert system.end_time == float("-inf"), "nothing born yet"
            system.fire_opening(1.0)
            system.advance(1.5)
            assert system.alive_count(1.5) > 50
            assert system.end_time > 1.5, "bursts: their end is known"
            assert system.dropped_count == 0
            system.clear()
            assert not system.is_alive(1.7)
            # The state policy changes after creation, as Swift's glStatePolicy does.
            assert system.cache_gl_state is False
            system.cache_gl_state = True
            assert system.cache_gl_state is True
            system.cache_gl_state = False
            with pytest.raises(confetti.ArgumentError):
                system.cache_gl_state = "yes"
        with pytest.raises(confetti.HandleError):
            system.advance(2.0)
        with pytest.raises(confetti.HandleError):
            system.cache_gl_state = True
        with confetti.System("classic-cannon", width=64, height=64, primitive="quads") as quads:
            quads.fire_opening(1.0)
            assert quads.alive_count(1.2) > 0
        snow_json = (EXAMPLES.parents[1] / "Presets" / "snow.json").read_text()
        with confetti.System(json=snow_json, width=640, height=360) as snow:
            snow.fire_opening(1.0)
            snow.advance(1.5)
            assert snow.end_time is None, "it snows on: no end yet"
            snow.stop_emitting()
            snow.advance(1.6)
            assert snow.end_time is not None and snow.end_time > 1.6
        with pytest.raises(confetti.ArgumentError):
            confetti.System("snow", width=64, height=64).trigger(7, 1.0)
        # The latest clock reading is refused by the library, whose bound the binding does not
        # type again, and the reading before it is taken.
        with confetti.System("confetti", width=64, height=64) as late:
            latest = 2.0**43 - 2400.0
            with pytest.raises(confetti.ArgumentError) as raised:
                late.advance(latest)
            assert "from 0 to under 2^43 s less 40 minutes" in str(raised.value)
            late.advance(latest - 1.0)
    finally:
        context.release()


def test_threads_that_share_a_system_are_refused_not_crashed():
    moderngl = pytest.importorskip("moderngl")
    import threading
    context = moderngl.create_standalone_context(backend="egl")
    framebuffer = context.simple_framebuffer((320, 240))
    framebuffer.use()
    outcomes = {"done": 0, "busy": 0, "other": []}
    lock = threading.Lock()

    def count(call):
        try:
            call()
            key = "done"
        except confetti.BusyError:
            key = "busy"
        except Exception as error:  # reported by the assertion below
            with lock:
                outcomes["other"].append(error)
            return
        with lock:
            outcomes[key] += 1

    try:
        with confetti.System("confetti", width=320, height=240) as system:
            def hammer():
                for i in range(3000):
                    count(lambda: system.trigger(confetti.Trigger.CLICK, 1.0 + i * 1e-4,
                                                 at=(i % 320, 100)))

            threads = [threading.Thread(target=hammer) for _ in range(2)]
            for thread in threads:
                thread.start()
            for frame in range(100):
                count(lambda: system.draw(0, 0, 320, 240, 1.0 + frame * 0.01))
            for thread in threads:
                thread.join(timeout=120)
            assert outcomes["other"] == [] and outcomes["done"] > 0, outcomes
            system.draw(0, 0, 320, 240, 3.0)  # whole afterwards
    finally:
        context.release()


def test_another_context_is_refused_and_its_own_objects_are_left_alone():
    # Drawn with another context current (moderngl's second standalone context), a system is
    # refused with GLError; closed there, it deletes nothing of that context's, whose buffers
    # have the same names as the system's.
    moderngl = pytest.importorskip("moderngl")
    first = moderngl.create_standalone_context(backend="egl")
    second = None
    try:
        first.simple_framebuffer((64, 64)).use()
        system = confetti.System("confetti", width=64, height=64)
        system.fire_opening(1.0)
        system.draw(0, 0, 64, 64, 1.1)
        second = moderngl.create_standalone_context(backend="egl")
        with second:
            second.simple_framebuffer((64, 64)).use()
            own = [second.buffer(bytes([index]) * 64) for index in range(32)]
            with pytest.raises(confetti.GLError) as raised:
                system.draw(0, 0, 64, 64, 1.2)
            assert "not the one this system was made on" in str(raised.value)
            system.close()
            assert [buffer.read() for buffer in own] == [bytes([i]) * 64 for i in range(32)]
            assert second.error == "GL_NO_ERROR"
    finally:
        if second is not None:
            second.release()
        first.release()


PALE_LIGHT = """{"name": "pale", "emitters": [{"position": {"x": 0.5, "y": 0.5}, "cells": [
  {"count": 1, "lifetime": 5, "gravity": 0, "drag": 0, "rotation": 0, "sizes": [[40, 40]],
   "colors": ["#a0c0ff"], "shapes": ["rectangle"], "blend": "additive"}]}]}"""


def test_a_system_told_a_light_backdrop_makes_its_light_vivid():
    # A pale blue light over white: laid as it shines, it is pale; told the backdrop is white,
    # its white is taken out (160, 192, 255 -> 0, 86, 255) and it shows. Mid-grey changes nothing.
    moderngl = pytest.importorskip("moderngl")
    context = moderngl.create_standalone_context(backend="egl")
    try:
        target = context.simple_framebuffer((160, 120))
        target.use()

        def middle(backdrop):
            with confetti.System(json=PALE_LIGHT, width=160, height=120) as system:
                if backdrop is not None:
                    system.backdrop = backdrop
                assert system.backdrop == (None if backdrop is None else tuple(map(float, backdrop)))
                system.fire_opening(1.0)
                target.clear(1.0, 1.0, 1.0, 1.0)
                system.draw(0, 0, 160, 120, 1.5)
                pixels = target.read(components=3)
                at = (60 * 160 + 80) * 3
                return tuple(pixels[at:at + 3])

        plain = middle(None)
        assert all(abs(a - b) <= 2 for a, b in zip(plain, (160, 192, 255))), plain
        vivid = middle((1, 1, 1))
        assert all(abs(a - b) <= 2 for a, b in zip(vivid, (0, 86, 255))), vivid
        assert middle((0.5, 0.5, 0.5)) == plain, "light adds over mid-grey"
        with confetti.System(json=PALE_LIGHT, width=160, height=120) as system:
            for wrong in ("white", (1, 1), (1, 1, "1")):
                with pytest.raises(confetti.ArgumentError, match="backdrop"):
                    system.backdrop = wrong
            with pytest.raises(confetti.ArgumentError, match="from 0 to 1"):
                system.backdrop = (2, 0, 0)
            assert system.backdrop is None, "a refused colour changes nothing"
    finally:
        context.release()
