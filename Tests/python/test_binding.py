"""confetti_gl as a Python program uses it: its errors, its renders, its celebrations, and the
confetti program that comes with it. Every bad argument is a confetti_gl.Error (and a ValueError)
raised before the library sees it, in one line."""
import gc
import os
import pathlib
import signal
import subprocess
import sys
import threading

import pytest

import confetti_gl as confetti
from conftest import required, wait_for

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]


def program(*arguments, **kwargs):
    """`python -m confetti_gl ARGUMENTS`: the wheel's confetti program."""
    return subprocess.run([sys.executable, "-m", "confetti_gl", *arguments], capture_output=True,
                          text=True, timeout=300, **kwargs)


# MARK: The package


def test_the_wheel_carries_the_library_and_the_program():
    native = pathlib.Path(confetti.__file__).parent / "_native"
    assert (native / "libconfetti.so.0").is_file()
    assert os.access(native / "confetti", os.X_OK)
    assert confetti.program() == native / "confetti"
    assert (pathlib.Path(confetti.__file__).parent / "py.typed").exists()


def test_the_package_says_its_version_where_python_looks():
    import importlib.metadata
    assert confetti.__version__ == confetti.version == importlib.metadata.version("confetti_gl")


def test_importing_the_package_names_nothing_in_the_environment():
    """The library finds the wheel's program beside itself (a celebration over the desktop shows
    it, below): the package no longer writes $CONFETTI_PROGRAM into the environment on import,
    where every program the host starts would have inherited it."""
    said = subprocess.run(
        [sys.executable, "-c", "import os, confetti_gl; print(os.environ.get('CONFETTI_PROGRAM'))"],
        env={k: v for k, v in os.environ.items() if k != "CONFETTI_PROGRAM"},
        capture_output=True, text=True, timeout=120)
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip() == "None"


def test_the_program_runs_as_a_module_and_as_a_command():
    said = program("--version")
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip() == confetti.version
    command = pathlib.Path(sys.executable).parent / "confetti"
    said = subprocess.run([command, "version"], capture_output=True, text=True, timeout=60)
    assert said.returncode == 0, said.stderr
    assert said.stdout.strip() == f"confetti {confetti.version}"


# MARK: Refusals

REFUSED_RENDERS = [
    dict(out=None),
    dict(out=42),
    dict(out="x\0y.png"),
    dict(out="x.avi"),
    dict(out="x.png", size="800x600"),
    dict(out="x.png", size=(800,)),
    dict(out="x.png", size=(800, 600, 3)),
    dict(out="x.png", size=(0, 600)),
    dict(out="x.png", size=(800.5, 600)),
    dict(out="x.png", size=(2**40, 600)),
    dict(out="x.png", size=(True, 600)),
    dict(out="x.png", scale=0),
    dict(out="x.png", scale=9),
    dict(out="x.png", scale="2"),
    dict(out="x.png", time="1"),
    dict(out="x.png", time=-1),
    dict(out="x.png", time=float("nan")),
    dict(out="x.png", time=float("inf")),
    dict(out="x.png", time=10**400),
    dict(out="x.png", frames=0),
    dict(out="x.png", frames=100_001),
    dict(out="x.png", frames=2.0),
    dict(out="x.png", frames=10**400),
    dict(out="x.png", fps=0),
    dict(out="x.png", fps=-30),
    dict(out="x.png", fps=None),
    dict(out="x.gif", frames=3, fps=60),
    dict(out="x.png", frame_range=(5, 2)),
    dict(out="x.png", frame_range=(0, 5)),
    dict(out="x.png", frame_range="0:1"),
    dict(out="x.png", frame_range=(-1, 1)),
    dict(out="x.png", background="+fffff"),
    dict(out="x.png", background="-fffff"),
    dict(out="x.png", background="red"),
    dict(out="x.png", background=0xffffff),
    dict(out="x.mp4", background="transparent"),
    dict(out="x.png", seed=0),
    dict(out="x.png", seed=-1),
    dict(out="x.png", seed=2**64),
    dict(out="x.png", seed="1"),
    dict(out="x.png", reduce_motion=1),
    dict(out="x.png", reduce_motion="yes"),
    dict(out="x.png", progress=42),
    dict(out="x.png", preset="snow", json="{}"),
    dict(out="x.png", preset=3),
    dict(out="x.png", preset="\udcff"),
    dict(out="x.png", path=b"snow.json"),
    dict(out="x.png", frames=3, until_over=True),
    dict(out="x.png", until_over=1),
    dict(out="x.png", preset="snow", until_over=True),
    dict(out="x.webm", quality="high"),
    dict(out="x.png", primitive="sprites"),
    dict(out="x.webm", quality=None),
]


@pytest.mark.parametrize("arguments", REFUSED_RENDERS, ids=lambda a: repr(a)[:60])
def test_a_bad_render_argument_is_an_argument_error(tmp_path, monkeypatch, arguments):
    monkeypatch.chdir(tmp_path)
    # As in an interactive Python: a refused render leaves Ctrl-C as it was (it once left the
    # render's own handler set, and Ctrl-C did nothing for the rest of the process).
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(confetti.Error) as raised:
            confetti.render(**arguments)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "Ctrl-C is Python's"
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert isinstance(raised.value, (ValueError, TypeError)), type(raised.value)
    message = str(raised.value)
    assert message and "\n" not in message and len(message) < 300, message
    assert list(tmp_path.iterdir()) == [], "nothing written"


REFUSED_SYSTEMS = [
    dict(width=None, height=64),
    dict(width="wide", height=64),
    dict(width=10**400, height=64),
    dict(width=-1, height=64),
    dict(width=float("nan"), height=64),
    dict(width=2**21, height=64),
    dict(width=64, height=64, capacity=0),
    dict(width=64, height=64, capacity=2**64 + 5),
    dict(width=64, height=64, capacity=1.5),
    dict(width=64, height=64, seed=0),
    dict(width=64, height=64, seed=-3),
    dict(width=64, height=64, reduce_motion="no"),
    dict(width=64, height=64, cache_gl_state=None),
    dict(width=64, height=64, primitive="triangles"),
    dict(width=64, height=64, primitive=None),
    dict(preset="snow\0junk", width=64, height=64),
    dict(preset="snow", path="snow.json", width=64, height=64),
    dict(preset=["snow"], width=64, height=64),
]


@pytest.mark.parametrize("arguments", REFUSED_SYSTEMS, ids=lambda a: repr(a)[:60])
def test_a_bad_system_argument_is_an_argument_error(arguments):
    with pytest.raises(confetti.ArgumentError) as raised:
        confetti.System(**arguments)
    assert "\n" not in str(raised.value)


REFUSED_CELEBRATIONS = [
    dict(monitor=0),
    dict(monitor=-1),
    dict(monitor=1025),
    dict(monitor="1"),
    dict(duration=0),
    dict(duration=-5),
    dict(duration=float("nan")),
    dict(duration=86401),
    dict(loop=True),
    dict(loop=1, wait=False),
    dict(wait="no"),
    dict(seed=0),
    dict(reduce_motion="yes"),
    dict(preset="snow", json="{}"),
    dict(preset=b"snow"),
]


@pytest.mark.parametrize("arguments", REFUSED_CELEBRATIONS, ids=lambda a: repr(a)[:60])
def test_a_bad_celebration_argument_is_an_argument_error(arguments):
    with pytest.raises(confetti.ArgumentError):
        confetti.celebrate(**arguments)


def test_what_the_library_refuses_comes_with_its_status_and_message(tmp_path):
    with pytest.raises(confetti.EffectError) as raised:
        confetti.render(tmp_path / "x.png", "no-such-preset")
    assert raised.value.status == 3 and "no preset named" in str(raised.value)
    with pytest.raises(confetti.EffectError):
        confetti.render(tmp_path / "x.png", json='{"emitters": [')
    with pytest.raises(confetti.OutputError) as raised:
        confetti.render(tmp_path / "missing" / "x.png")
    assert raised.value.status == 6 and isinstance(raised.value, OSError)
    (tmp_path / "folder.png").mkdir()
    with pytest.raises(confetti.OutputError) as raised:
        confetti.render(tmp_path / "folder.png")
    assert "it is a folder" in str(raised.value)
    (tmp_path / "folder.png").rmdir()
    with pytest.raises(confetti.GLError) as raised:
        confetti.System("snow", width=64, height=64)  # no GL context current
    assert raised.value.status == 4
    with pytest.raises(confetti.EffectError):
        confetti.celebrate("no-such-preset")
    assert list(tmp_path.iterdir()) == []


# MARK: Renders


def test_a_render_is_the_programs_render_and_takes_a_path(tmp_path):
    mine = confetti.render(tmp_path / "mine.png", "classic-cannon", size=(320, 240), time=0.5, seed=7)
    assert mine == tmp_path / "mine.png"
    said = program("render", "--preset", "classic-cannon", "--size", "320x240", "--time", "0.5",
                   "--seed", "7", "--out", str(tmp_path / "program.png"))
    assert said.returncode == 0, said.stderr
    assert mine.read_bytes() == (tmp_path / "program.png").read_bytes()


def test_a_renders_defaults_are_the_programs_byte_for_byte(tmp_path):
    # Nothing but the file: the seed, the first moment of one picture, the size and the backdrop
    # are the program's. A preset and a size: an animation from 0 until the effect is over, at
    # 30 fps, as `confetti render` makes it.
    for name, given, options in [
        ("picture.png", {}, []),
        ("clip.gif", dict(preset="classic-cannon", size=(160, 120)),
         ["--preset", "classic-cannon", "--size", "160x120"]),
    ]:
        mine = confetti.render(tmp_path / f"mine-{name}", **given)
        said = program("render", *options, "--out", str(tmp_path / f"program-{name}"))
        assert said.returncode == 0, said.stderr
        assert len(mine.read_bytes()) > 1000
        assert mine.read_bytes() == (tmp_path / f"program-{name}").read_bytes(), name


def test_a_render_draws_with_the_primitive_asked_for_as_the_program_does(tmp_path):
    drawn = set()
    for primitive in confetti.PRIMITIVES:
        mine = confetti.render(tmp_path / f"mine-{primitive}.png", "confetti", size=(320, 240),
                               time=1.0, primitive=primitive)
        said = program("render", "--preset", "confetti", "--size", "320x240", "--time", "1",
                       "--primitive", primitive, "--out", str(tmp_path / f"program-{primitive}.png"))
        assert said.returncode == 0, said.stderr
        assert mine.read_bytes() == (tmp_path / f"program-{primitive}.png").read_bytes(), primitive
        drawn.add(mine.read_bytes())
    # Quads shade a piece's edges apart from points: the flag is not dropped on the way.
    assert len(drawn) > 1


def test_a_render_until_over_has_the_programs_frames(tmp_path):
    told = []
    confetti.render(tmp_path / "mine.png", "classic-cannon", size=(160, 120), time=0.5, seed=7,
                    until_over=True, progress=lambda done, total: told.append(total))
    said = program("render", "--preset", "classic-cannon", "--size", "160x120", "--time", "0.5",
                   "--seed", "7", "--duration", "auto", "--out", str(tmp_path / "program.png"))
    assert said.returncode == 0, said.stderr
    mine = sorted(tmp_path.glob("mine-*.png"))
    theirs = sorted(tmp_path.glob("program-*.png"))
    assert len(mine) == len(theirs) > 10 and set(told) == {len(mine)}
    assert [p.read_bytes() for p in mine] == [p.read_bytes() for p in theirs]
    with pytest.raises(confetti.ArgumentError) as raised:
        confetti.render(tmp_path / "snow.png", "snow", until_over=True)
    assert str(raised.value) == ("snow never ends by itself (it emits until stopped): give "
                                 "frames=N instead of until_over=True")


def test_the_best_quality_is_the_programs_best(tmp_path):
    required("ffmpeg")
    for quality in confetti.QUALITIES:
        confetti.render(tmp_path / f"{quality}.webm", "classic-cannon", size=(160, 120), frames=8,
                        seed=7, quality=quality)
    said = program("render", "--preset", "classic-cannon", "--size", "160x120", "--frames", "8",
                   "--seed", "7", "--quality", "best", "--out", str(tmp_path / "program.webm"))
    assert said.returncode == 0, said.stderr

    def decoded(name):  # the files' headers differ (a random segment UID); their pictures not
        done = subprocess.run([required("ffmpeg"), "-v", "error", "-i", tmp_path / name, "-f",
                               "md5", "-"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert decoded("best.webm") == decoded("program.webm")
    assert decoded("best.webm") != decoded("standard.webm")


def test_a_webm_is_written_and_every_frame_is_told(tmp_path):
    required("ffmpeg")
    told = []
    clip = confetti.render(str(tmp_path / "clip.webm"), "fireworks", size=(320, 240), frames=12,
                           fps=24, background="transparent", seed=3,
                           progress=lambda done, total: told.append((done, total)))
    assert told == [(n, 12) for n in range(1, 13)]
    assert clip.stat().st_size > 1000
    probe = subprocess.run(
        [required("ffprobe"), "-v", "error", "-count_frames", "-select_streams", "v:0",
         "-show_entries", "stream=nb_read_frames,width,height", "-of", "csv=p=0", clip],
        capture_output=True, text=True, timeout=60)
    assert probe.stdout.strip() == "320,240,12", probe.stderr


STROBE = """{"name": "strobe", "emitters": [{"trigger": "start", "position": {"x": 0.5, "y": 0.5},
  "shape": {"kind": "rectangle", "width": 1, "height": 1}, "emission": {"mode": "burst"},
  "cells": [{"count": 40, "lifetime": 3, "fade": 0.2, "speed": 0, "gravity": 0, "drag": 0,
    "sizes": [[420, 420]], "colors": ["#ffffff"], "shapes": ["glow"], "twinkle": 1,
    "twinkleFrequency": 31}]}]}"""


def test_a_render_checks_flashes_as_the_program_does(tmp_path):
    # A preset within WCAG 2.3.1 passes; a strobe raises FlashesError with the program's line,
    # its clip written all the same; a picture cannot be checked.
    calm = confetti.render(tmp_path / "calm.gif", "classic-cannon", size=(512, 384), fps=15,
                           background="#ffffff", check_flashes=True)
    assert calm.stat().st_size > 0
    strobe = tmp_path / "strobe.gif"
    with pytest.raises(confetti.FlashesError) as raised:
        confetti.render(strobe, json=STROBE, size=(512, 384), fps=15, background="#000000",
                        check_flashes=True)
    assert raised.value.status == 9
    (tmp_path / "strobe.json").write_text(STROBE)
    said = program("render", "--config", str(tmp_path / "strobe.json"), "--size", "512x384",
                   "--fps", "15", "--duration", "auto", "--background", "#000000",
                   "--check-flashes", "--out", str(tmp_path / "said.gif"))
    assert said.returncode == 1
    assert str(raised.value) in said.stderr
    assert "fails WCAG 2.3.1" in str(raised.value)
    assert strobe.stat().st_size > 0, "the clip is written all the same"
    with pytest.raises(confetti.ArgumentError, match="needs an animation"):
        confetti.render(tmp_path / "one.png", "confetti", check_flashes=True)
    with pytest.raises(confetti.ArgumentError, match="check_flashes"):
        confetti.render(tmp_path / "x.gif", check_flashes="yes")


def test_a_progress_that_says_false_stops_the_render_and_leaves_nothing(tmp_path):
    required("ffmpeg")
    told = []

    def progress(done, total):
        told.append(done)
        return done < 2

    with pytest.raises(confetti.Stopped) as raised:
        confetti.render(tmp_path / "clip.webm", size=(160, 120), frames=40, progress=progress)
    assert raised.value.status == 7
    assert told == [1, 2]
    assert list(tmp_path.iterdir()) == []


def test_an_exception_in_progress_stops_the_render_and_is_raised_again(tmp_path):
    def progress(done, total):
        raise KeyboardInterrupt  # as Ctrl-C would, in the callback

    required("ffmpeg")
    with pytest.raises(KeyboardInterrupt):
        confetti.render(tmp_path / "clip.gif", size=(64, 48), frames=20, progress=progress)
    assert list(tmp_path.iterdir()) == [], "an animation stopped is not kept"
    with pytest.raises(KeyboardInterrupt):
        confetti.render(tmp_path / "f.png", size=(64, 48), frames=20, progress=progress)
    assert [p.name for p in tmp_path.iterdir()] == ["f-0000.png"], "a sequence keeps its whole"


def test_a_stop_asked_after_the_last_frame_is_not_a_success(tmp_path):
    with pytest.raises(confetti.Stopped):
        confetti.render(tmp_path / "one.png", size=(64, 48), progress=lambda done, total: False)
    assert list(tmp_path.iterdir()) == [], "a single picture stopped is not kept"


def test_a_sequence_is_numbered_and_a_frame_range_renders_its_part(tmp_path):
    confetti.render(tmp_path / "f.png", "snow", size=(64, 48), frames=6, frame_range=(2, 4))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f-0002.png", "f-0003.png"]


def test_renders_on_threads_at_once_each_get_their_own_file(tmp_path):
    errors = []

    def one(index):
        try:
            confetti.render(tmp_path / f"t{index}.png", "confetti", size=(96, 64), seed=index + 1)
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert errors == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"t{i}.png" for i in range(4)]


# MARK: Celebrations


def test_a_celebration_shows_over_the_desktop_and_returns_when_it_is_over(desktop, monkeypatch):
    monkeypatch.setenv("DISPLAY", desktop.name)
    seen = []
    watcher = threading.Thread(
        target=lambda: seen.append(wait_for("the overlay's window", desktop.windows)))
    watcher.start()
    confetti.celebrate()
    watcher.join()
    assert seen and seen[0], "the overlay's window appeared while it celebrated"
    wait_for("the overlay's window to go", lambda: desktop.windows() == [])


def test_a_json_celebrations_relative_image_is_refused_before_it_starts(tmp_path, monkeypatch):
    # JSON text has no folder, for a celebration as for a render: the picture is not looked for
    # in $TMPDIR, where the text is written for the program, even when one is there.
    (tmp_path / "heart.png").write_bytes((REPOSITORY / "docs/examples/heart.png").read_bytes())
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    effect = ('{"name": "hearts", "emitters": [{"trigger": "start", "cells": [{"count": 5, '
              '"shapes": [{"image": "heart.png"}]}]}]}')
    for call in (lambda: confetti.celebrate(json=effect),
                 lambda: confetti.render(tmp_path / "x.png", json=effect)):
        with pytest.raises(confetti.EffectError) as raised:
            call()
        assert "heart.png is named relative to no folder" in str(raised.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heart.png"]


def test_where_there_is_no_desktop_a_celebration_says_why(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(confetti.DesktopError) as raised:
        confetti.celebrate()
    assert raised.value.status == 5
    assert str(raised.value).startswith("no desktop to show the overlay on")


def test_a_looping_celebration_runs_until_it_is_cancelled(desktop, monkeypatch):
    monkeypatch.setenv("DISPLAY", desktop.name)
    with confetti.celebrate("snow", loop=True, wait=False) as celebration:
        # Its first frame is on the screen when wait_shown says so: the window is there.
        assert celebration.wait_shown(timeout=60) is True
        assert desktop.windows(), "the overlay's window is up once its first frame is shown"
        assert celebration.wait_shown(timeout=0) is True, "and stays said"
        assert celebration.running
        assert celebration.wait(timeout=0.5) is False
        # Any finite timeout from 0 is taken; an infinite one is refused in plain words.
        with pytest.raises(confetti.ArgumentError) as raised:
            celebration.wait(timeout=float("inf"))
        assert str(raised.value) == "timeout must be a finite number of at least 0, not inf"
        celebration.cancel()
        assert celebration.wait(timeout=30) is True
        assert not celebration.running
    with pytest.raises(confetti.HandleError):
        celebration.cancel()
    celebration.close()  # twice: harmless


def test_a_forgotten_celebration_is_cancelled_by_its_finaliser(desktop, monkeypatch):
    monkeypatch.setenv("DISPLAY", desktop.name)
    celebration = confetti.celebrate("snow", loop=True, wait=False)
    wait_for("the overlay's window", desktop.windows)
    del celebration
    gc.collect()
    wait_for("the overlay's window to go", lambda: desktop.windows() == [])


def test_ctrl_c_during_a_render_is_a_keyboard_interrupt_once_it_has_cleaned_up(tmp_path, capfd):
    required("ffmpeg")

    def progress(done, total):
        if done == 2:
            os.kill(os.getpid(), signal.SIGINT)

    # As in an interactive Python (a job started in the background inherits SIGINT ignored).
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            confetti.render(tmp_path / "clip.gif", size=(64, 48), frames=30, progress=progress)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, \
            "Ctrl-C is Python's again"
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert list(tmp_path.iterdir()) == [], "the animation is not kept"
    assert capfd.readouterr().err == "", "nothing printed"


def program_script(folder, name, body):
    script = folder / name
    script.write_text("#!/bin/sh\n" + body + "\n")
    script.chmod(0o755)
    return script


def test_a_program_that_ignores_its_cancel_is_killed_and_never_holds_the_host(tmp_path,
                                                                             monkeypatch):
    stubborn = program_script(tmp_path, "stubborn",
                              'trap "" TERM INT HUP\nwhile :; do sleep 0.1; done')
    monkeypatch.setenv("CONFETTI_PROGRAM", str(stubborn))
    celebration = confetti.celebrate(wait=False)
    assert celebration.running
    celebration.close()  # cancelled, then killed after its grace period
    gone = subprocess.run(["pgrep", "-f", str(stubborn)], capture_output=True, text=True)
    assert gone.stdout == "", "the program was killed"


def test_a_chatty_program_is_read_as_it_writes_and_never_stalls(tmp_path, monkeypatch):
    chatty = program_script(tmp_path, "chatty",
                            'head -c 300000 /dev/zero | tr "\\\\0" x >&2; echo "said its last" >&2')
    monkeypatch.setenv("CONFETTI_PROGRAM", str(chatty))
    celebration = confetti.celebrate(wait=False)
    wait_for("the chatty program to end, polled by running", lambda: not celebration.running)
    celebration.close()


def _render_in_child(out):
    return str(confetti.render(out, "classic-cannon", size=(64, 48), time=0.5))


def test_a_forked_child_is_told_at_once_and_never_hangs(tmp_path):
    """multiprocessing's fork start method after a render here: the child's renders fail at once
    naming fork() (its parent's GL is not the child's), never a hang; the spawn start method
    renders; and this process renders on. (A forked pool's map_async once never answered.)"""
    import multiprocessing
    confetti.render(tmp_path / "parent.png", "classic-cannon", size=(64, 48), time=0.5)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        for name in ("first.png", "second.png"):
            waiting = pool.apply_async(_render_in_child, (str(tmp_path / name),))
            with pytest.raises(confetti.GLError, match=r"fork\(\).*spawn"):
                waiting.get(timeout=120)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        spawned = pool.apply_async(_render_in_child, (str(tmp_path / "spawned.png"),))
        assert spawned.get(timeout=120) == str(tmp_path / "spawned.png")
    confetti.render(tmp_path / "again.png", "classic-cannon", size=(64, 48), time=0.5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.png", "parent.png",
                                                          "spawned.png"]


def test_a_host_that_crashes_on_a_terminal_is_not_held_by_swifts_crash_prompt():
    """The library keeps Swift's own crash handler out of its host (SWIFT_BACKTRACE=enable=no
    where unset): a Python host that crashes on a terminal after loading it ends at once by its
    signal, as without the library, never at Swift's 30-second "Press space to interact"."""
    import pty
    import time
    leader, follower = pty.openpty()
    started = time.monotonic()
    crashing = subprocess.Popen(
        [sys.executable, "-c", "import ctypes, os, signal, confetti_gl\n"
         "getenv = ctypes.CDLL(None).getenv\n"
         "getenv.restype = ctypes.c_char_p\n"
         "print('set:', getenv(b'SWIFT_BACKTRACE'), flush=True)\n"
         "os.kill(os.getpid(), signal.SIGSEGV)"],
        stdin=follower, stdout=follower, stderr=follower, start_new_session=True,
        env={k: v for k, v in os.environ.items() if k != "SWIFT_BACKTRACE"})
    os.close(follower)
    assert crashing.wait(timeout=60) == -signal.SIGSEGV
    assert time.monotonic() - started < 20, "ended at once"
    said = b""
    while True:
        try:
            more = os.read(leader, 65536)
        except OSError:
            break
        if not more:
            break
        said += more
    os.close(leader)
    assert b"set: b'enable=no'" in said, said
    assert b"Press space" not in said and b"Program crashed" not in said, said


def test_a_program_that_ends_without_showing_is_no_celebration(monkeypatch):
    """A program that exits 0 without saying its first frame was on the screen (not confetti)
    is a DesktopError that says so, not a celebration: /bin/true once passed for one."""
    monkeypatch.setenv("CONFETTI_PROGRAM", "/bin/true")
    with pytest.raises(confetti.DesktopError, match="never shown: /bin/true ended without a frame"):
        confetti.celebrate()
