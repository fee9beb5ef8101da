"""Physics-based confetti computed by the GPU, from Python: draw it in your own OpenGL window,
celebrate over the desktop, or render a clip.

    import confetti_gl as confetti

    confetti.celebrate()                                   # over the desktop, until it is over
    confetti.render("clip.webm", "fireworks", frames=90)   # a clip for a video editor

    with confetti.System("confetti", width=1280, height=720) as system:  # your GL context current
        system.trigger(confetti.Trigger.START, now)
        system.draw(0, 0, framebuffer_width, framebuffer_height, now)    # every frame

It is libconfetti (confetti.h documents every call) through ctypes. The library and the
`confetti` program come inside the wheel; $CONFETTI_LIBRARY names another library, and
$CONFETTI_PROGRAM another program. Every failure raises a confetti_gl.Error subclass with the
library's one-line message; every argument is checked here, before the library sees it.
"""

from __future__ import annotations

import ctypes
import enum
import math
import os
import pathlib
import secrets
import signal
import threading
import warnings
import weakref
from time import monotonic as _monotonic
from typing import Callable, Optional, Sequence, Tuple, TypeVar, Union

__all__ = [
    "System", "Trigger", "Celebration", "celebrate", "render", "version", "program",
    "Error", "ArgumentError", "HandleError", "EffectError", "GLError", "DesktopError",
    "OutputError", "Stopped", "BusyError", "FlashesError", "QUALITIES", "PRIMITIVES",
]

_Self = TypeVar("_Self", bound="_Handle")
_HERE = pathlib.Path(__file__).resolve().parent
_NATIVE = _HERE / "_native"


def _find_library() -> str:
    named = os.environ.get("CONFETTI_LIBRARY")
    if named:
        return named
    bundled = _NATIVE / "libconfetti.so.0"
    return str(bundled) if bundled.exists() else "libconfetti.so.0"


def program() -> Optional[pathlib.Path]:
    """The confetti program this package runs (`python -m confetti_gl`, celebrations): the one
    $CONFETTI_PROGRAM names, else the one in the wheel; None where there is neither."""
    named = os.environ.get("CONFETTI_PROGRAM")
    if named:
        return pathlib.Path(named)
    bundled = _NATIVE / "confetti"
    return bundled if bundled.exists() else None


# Celebrations find the wheel's program beside the library, as the library finds it anywhere:
# nothing is written in the environment.
_lib = ctypes.CDLL(_find_library())


# MARK: Errors

class Error(Exception):
    """Something libconfetti (or this binding, before calling it) refused: `status` is the
    confetti_status, str() the one-line message."""

    status = 0

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        if status is not None:
            self.status = status


class ArgumentError(Error, ValueError):
    """An argument of the wrong type or out of range (CONFETTI_ERROR_ARGUMENT)."""
    status = 1


class HandleError(Error):
    """A system or celebration that was closed (CONFETTI_ERROR_HANDLE)."""
    status = 2


class EffectError(Error):
    """An effect that cannot be used: an unknown preset, bad JSON, a file that cannot be read
    (CONFETTI_ERROR_EFFECT)."""
    status = 3


class GLError(Error):
    """The GL cannot do it: no context current, not the context the system was made on, an
    incomplete framebuffer, older than OpenGL 3.3 (CONFETTI_ERROR_GL)."""
    status = 4


class DesktopError(Error):
    """A celebration cannot be shown: no desktop, no compositing window manager, no confetti
    program (CONFETTI_ERROR_DESKTOP)."""
    status = 5


class OutputError(Error, OSError):
    """A render's file cannot be written; nothing is left under its name
    (CONFETTI_ERROR_OUTPUT)."""
    status = 6


class Stopped(Error):
    """A render stopped by its progress callback (CONFETTI_STOPPED)."""
    status = 7


class BusyError(Error):
    """Another thread is in a call with the same System at this moment: one thread at a time
    (CONFETTI_ERROR_BUSY). The call did nothing."""
    status = 8


class FlashesError(Error):
    """A render checked with check_flashes=True flashes more than WCAG 2.3.1 allows; its files
    are written, and str() says the worst second (CONFETTI_FLASHES)."""
    status = 9


_ERRORS = {cls.status: cls for cls in (ArgumentError, HandleError, EffectError, GLError,
                                       DesktopError, OutputError, Stopped, BusyError,
                                       FlashesError)}


def _check(status: int, *_: object) -> None:
    if status != 0:
        message = _lib.confetti_last_error().decode("utf-8", "replace")
        raise _ERRORS.get(status, Error)(message, status)


# MARK: Arguments, checked before ctypes sees them

def _shown(value: object) -> str:
    """`value` for a message: its repr, cut short when it is long (10**400)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:40] + "…" + text[-10:]


def _number(value: object, name: str, low: float = -math.inf, high: float = math.inf,
            below: bool = False) -> float:
    """`value` as a float from `low` to `high` (under it, with `below`), or ArgumentError."""
    span = f"from {low} to {'under ' if below else ''}{high}" if math.isfinite(high) else \
        f"of at least {low}"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentError(f"{name} must be a number, not {type(value).__name__} {_shown(value)}")
    try:
        number = float(value)
    except OverflowError:
        raise ArgumentError(f"{name} must be a number {span}, not {_shown(value)}") from None
    within = number < high if below else number <= high
    if not (math.isfinite(number) and low <= number and within):
        raise ArgumentError(f"{name} must be a finite number {span}, not {_shown(value)}")
    return number


def _reading(value: object) -> float:
    """A clock reading: a finite number (the library says which it takes, and refuses others)."""
    return _number(value, "time")


def _whole(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{name} must be a whole number, not {type(value).__name__} {_shown(value)}")
    if not low <= value <= high:
        raise ArgumentError(f"{name} must be a whole number from {low} to {high}, not {_shown(value)}")
    return value


def _text(value: object, name: str) -> Optional[bytes]:
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise ArgumentError(f"{name} must be text, not {type(value).__name__} {_shown(value)}")
    if "\0" in value:
        raise ArgumentError(f"{name} must be text without NUL characters")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        raise ArgumentError(f"{name} is not valid Unicode text (a lone surrogate?)") from None


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise ArgumentError(f"{name} must be True or False, not {_shown(value)}")
    return value


def _seed(seed: Optional[int]) -> int:
    """1 to 2**64 - 1: the same seed, the same pieces (1, the default in every language). None,
    which drew a random seed before 0.6, still does, with a DeprecationWarning."""
    if seed is None:
        warnings.warn("seed=None is deprecated: the default is 1, as in every language; give "
                      "seed=secrets.randbits(64) or 1 for a random one", DeprecationWarning,
                      stacklevel=3)
        return secrets.randbits(64) or 1
    return _whole(seed, "seed", 1, 2**64 - 1)


def _point_pair(value: object, name: str) -> Tuple[float, float]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise ArgumentError(f"{name} must be a pair of numbers (x, y), not {_shown(value)}")
    return _number(value[0], f"{name}[0]"), _number(value[1], f"{name}[1]")


class Trigger(enum.IntEnum):
    """What starts an effect's emitters (each emitter in a configuration names its trigger)."""
    START = 0  #: when the effect starts: a window opening, time 0 of a render
    CLICK = 1  #: a click, at a place given to trigger(), else at the emitters' own places
    KEY = 2    #: a key press (the program's space bar)


def _trigger(value: object) -> Trigger:
    if isinstance(value, bool) or not isinstance(value, (Trigger, int)):
        raise ArgumentError(f"trigger must be a confetti_gl.Trigger, not {_shown(value)}")
    try:
        return Trigger(value)
    except ValueError:
        raise ArgumentError(f"trigger must be a confetti_gl.Trigger, not {_shown(value)}") \
            from None


_REDUCE_MOTION, _CACHE_GL_STATE, _LOOP, _FULL_MOTION = 1, 2, 4, 8
_UNTIL_OVER, _BEST_QUALITY, _AT_TIME = 16, 32, 64
_POINTS, _INSTANCED_POINTS, _QUADS = 128, 256, 512
_CHECK_FLASHES = 1024
#: What the pieces are drawn as (`confetti --primitive`): "auto" (the one measured fastest on this
#: GL), "points", "instanced-points" or "quads".
PRIMITIVES = ("auto", "points", "instanced-points", "quads")


def _primitive(value: object) -> int:
    if not isinstance(value, str) or value not in PRIMITIVES:
        raise ArgumentError(
            f"primitive must be {', '.join(map(repr, PRIMITIVES))}, not {_shown(value)}")
    return {"auto": 0, "points": _POINTS, "instanced-points": _INSTANCED_POINTS,
            "quads": _QUADS}[value]
#: An animation's encoder settings (`confetti render --quality`): "standard", measured to keep
#: pace, or "best", slower, for a master copy.
QUALITIES = ("standard", "best")


# MARK: The C interface

_handle, _d = ctypes.c_void_p, ctypes.c_double
_PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)


class _Desc(ctypes.Structure):
    _fields_ = [("preset", ctypes.c_char_p), ("json", ctypes.c_char_p), ("path", ctypes.c_char_p),
                ("width", _d), ("height", _d), ("capacity", ctypes.c_int64),
                ("seed", ctypes.c_uint64), ("flags", ctypes.c_uint32)]


class _CelebrateOptions(ctypes.Structure):
    _fields_ = [("preset", ctypes.c_char_p), ("json", ctypes.c_char_p), ("path", ctypes.c_char_p),
                ("seed", ctypes.c_uint64), ("monitor", ctypes.c_int32), ("duration", _d),
                ("flags", ctypes.c_uint32)]


class _RenderOptions(ctypes.Structure):
    _fields_ = [("preset", ctypes.c_char_p), ("json", ctypes.c_char_p), ("path", ctypes.c_char_p),
                ("out", ctypes.c_char_p), ("width", ctypes.c_int32), ("height", ctypes.c_int32),
                ("scale", ctypes.c_int32), ("time", _d), ("frames", ctypes.c_int64),
                ("fps", _d), ("first_frame", ctypes.c_int64), ("end_frame", ctypes.c_int64),
                ("background", ctypes.c_char_p), ("seed", ctypes.c_uint64),
                ("flags", ctypes.c_uint32), ("progress", _PROGRESS), ("user", ctypes.c_void_p)]


for _name, _arguments in {
    "confetti_create": [ctypes.POINTER(_Desc), ctypes.POINTER(_handle)],
    "confetti_close": [_handle],
    "confetti_trigger": [_handle, ctypes.c_int, _d],
    "confetti_trigger_at": [_handle, ctypes.c_int, _d, _d, _d],
    "confetti_advance": [_handle, _d],
    "confetti_fire_opening": [_handle, _d],
    "confetti_stop_emitting": [_handle],
    "confetti_draw": [_handle, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, _d],
    "confetti_reset_gl_state_cache": [_handle],
    "confetti_set_cache_gl_state": [_handle, ctypes.c_int],
    "confetti_set_backdrop": [_handle, _d, _d, _d],
    "confetti_resize": [_handle, _d, _d],
    "confetti_clear": [_handle, ctypes.c_bool],
    "confetti_is_alive": [_handle, _d, ctypes.POINTER(ctypes.c_bool)],
    "confetti_end_time": [_handle, ctypes.POINTER(_d)],
    "confetti_alive_count": [_handle, _d, ctypes.POINTER(ctypes.c_int64)],
    "confetti_dropped_count": [_handle, ctypes.POINTER(ctypes.c_int64)],
    "confetti_capacity": [_handle, ctypes.POINTER(ctypes.c_int64)],
    "confetti_has_trigger": [_handle, ctypes.c_int, ctypes.POINTER(ctypes.c_bool)],
    "confetti_celebrate": [ctypes.POINTER(_CelebrateOptions)],
    "confetti_celebration_start": [ctypes.POINTER(_CelebrateOptions), ctypes.POINTER(_handle)],
    "confetti_celebration_wait": [_handle, _d, ctypes.POINTER(ctypes.c_bool)],
    "confetti_celebration_wait_shown": [_handle, _d, ctypes.POINTER(ctypes.c_bool)],
    "confetti_celebration_cancel": [_handle],
    "confetti_celebration_close": [_handle],
    "confetti_render": [ctypes.POINTER(_RenderOptions)],
}.items():
    _function = getattr(_lib, _name)
    _function.argtypes, _function.restype, _function.errcheck = _arguments, ctypes.c_int, _check
_lib.confetti_last_error.restype = _lib.confetti_version.restype = ctypes.c_char_p
_lib.confetti_last_error.argtypes = _lib.confetti_version.argtypes = []

version: str = _lib.confetti_version().decode()
"""libconfetti's version, "MAJOR.MINOR.PATCH"."""

__version__: str = version
"""The package's version, where Python's tools look for it: the library's, which it carries."""


def _effect(preset: object, json: object, path: object) -> Tuple[Optional[bytes], ...]:
    given = [name for name, value in (("preset", preset), ("json", json), ("path", path))
             if value is not None]
    if len(given) > 1:
        raise ArgumentError(f"give the effect as one of preset, json and path, not {given}")
    return _text(preset, "preset"), _text(json, "json"), _text(path, "path")


# MARK: Handles

def _end_quietly(end: Callable[[int], object], handle: int) -> None:
    """The finaliser of a handle that was not closed: ended, whatever the library says."""
    try:
        end(handle)
    except Error:
        pass


class _Handle:
    """One of the library's handles: ended by close(), a `with` block, or its finaliser, with
    the library call `_ending`; any call after that raises HandleError with `_gone`."""

    _ending: Callable[[int], object]
    _gone: str

    def _own(self, handle: int) -> None:
        self._handle: Optional[int] = handle
        self._finalizer = weakref.finalize(self, _end_quietly, type(self)._ending, handle)

    def __enter__(self: _Self) -> _Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self._handle is not None:
            # Ended first: refused (BusyError, another thread in a call), it is still open.
            type(self)._ending(self._handle)
            self._finalizer.detach()
            self._handle = None

    def _live(self) -> int:
        if self._handle is None:
            raise HandleError(self._gone)
        return self._handle


# MARK: Drawing in your own GL context

class System(_Handle):
    """An effect running on the current OpenGL 3.3 context, drawn into your own framebuffer.

    Make it, trigger it, draw it every frame, and close it while its context is current (a
    `with` block does). Times are clock readings in seconds from your clock; places are points
    from the top-left corner of the area the effect lives in (`width` x `height`); draw takes a
    framebuffer rectangle in pixels from its bottom-left corner, as glViewport does.

    A System dropped without close() is closed by its finaliser, whenever Python collects it:
    its GL objects are deleted if the context it was made on is current on that thread then, and
    otherwise left to that context's own destruction (another context's objects are never
    touched). Close it yourself to be sure
    which. One thread at a time may use a System: the one whose context is current.
    """

    def __init__(self, preset: Optional[str] = None, *, json: Optional[str] = None,
                 path: Union[str, os.PathLike, None] = None, width: float, height: float,
                 capacity: Optional[int] = None, seed: int = 1,
                 reduce_motion: bool = False, cache_gl_state: bool = False,
                 primitive: str = "auto"):
        flags = (_REDUCE_MOTION if _flag(reduce_motion, "reduce_motion") else 0) | \
            (_CACHE_GL_STATE if _flag(cache_gl_state, "cache_gl_state") else 0) | \
            _primitive(primitive)
        self._cache_gl_state = cache_gl_state
        self._backdrop: Optional[Tuple[float, float, float]] = None
        desc = _Desc(*_effect(preset, json, path),
                     _number(width, "width"),
                     _number(height, "height"),
                     0 if capacity is None else _whole(capacity, "capacity", 1, 2**31 - 1),
                     _seed(seed), flags)
        handle = _handle()
        _lib.confetti_create(ctypes.byref(desc), ctypes.byref(handle))
        self._own(handle.value)

    _ending = staticmethod(_lib.confetti_close)
    _gone = "the system was closed: make a new one"

    def close(self) -> None:
        """Deletes its GL objects (its context current; the GL flushed, so that the driver
        frees them now) and its particles. Closing twice is harmless; any other call after it
        raises HandleError."""
        super().close()

    @property
    def closed(self) -> bool:
        return self._handle is None

    def trigger(self, trigger: Trigger, time: float,
                at: Optional[Tuple[float, float]] = None) -> None:
        """Starts every emitter with `trigger` at clock reading `time`, at `at` (x, y) in
        points, or at its configured place."""
        trigger = _trigger(trigger)
        time = _reading(time)
        if at is None:
            _lib.confetti_trigger(self._live(), int(trigger), time)
        else:
            x, y = _point_pair(at, "at")
            _lib.confetti_trigger_at(self._live(), int(trigger), x, y, time)

    def fire_opening(self, time: float) -> None:
        """Fires what opens the effect, as the confetti program opens it: its start emitters,
        or, where it has none, its key ones (or its click ones). `confetti render --time T` is
        what draw() draws T seconds after the reading it was opened at."""
        _lib.confetti_fire_opening(self._live(), _reading(time))

    def stop_emitting(self) -> None:
        """Stops every emitter: a continuous effect's last pieces live out their lives."""
        _lib.confetti_stop_emitting(self._live())

    def advance(self, time: float) -> None:
        """Emits what the running emitters owe up to `time`, without drawing."""
        _lib.confetti_advance(self._live(), _reading(time))

    def draw(self, x: int, y: int, width: int, height: int, time: float) -> None:
        """Draws the effect at `time` into the bound framebuffer's rectangle, in pixels."""
        rect = [_whole(v, n, -(2**31), 2**31 - 1)
                for v, n in zip((x, y, width, height), ("x", "y", "width", "height"))]
        _lib.confetti_draw(self._live(), *rect, _reading(time))

    def reset_gl_state_cache(self) -> None:
        """With cache_gl_state: you changed the GL state since the last draw."""
        _lib.confetti_reset_gl_state_cache(self._live())

    @property
    def cache_gl_state(self) -> bool:
        """Whether the system keeps the GL state it sets between draws (True) or saves and
        restores yours around each (False); settable at any time."""
        return self._cache_gl_state

    @cache_gl_state.setter
    def cache_gl_state(self, cache: bool) -> None:
        _lib.confetti_set_cache_gl_state(self._live(), int(_flag(cache, "cache_gl_state")))
        self._cache_gl_state = cache

    @property
    def backdrop(self) -> Optional[Tuple[float, float, float]]:
        """The colour the pieces are drawn over, (red, green, blue) in sRGB from 0 to 1, where
        you know it: over a light one (a white page), additive light (fire, sparks, glows) is
        made vivid so that it shows, where added to white it would not. None (the default) or a
        dark colour: light adds. Needs no GL context; the next draw sends it."""
        return self._backdrop

    @backdrop.setter
    def backdrop(self, colour: Optional[Tuple[float, float, float]]) -> None:
        if colour is None:
            red = green = blue = 0.0
        else:
            if isinstance(colour, (str, bytes)) or not isinstance(colour, Sequence) \
                    or len(colour) != 3:
                raise ArgumentError(f"backdrop must be (red, green, blue) from 0 to 1, or None, "
                                    f"not {_shown(colour)}")
            red, green, blue = (_number(v, f"backdrop[{i}]") for i, v in enumerate(colour))
        _lib.confetti_set_backdrop(self._live(), red, green, blue)
        self._backdrop = None if colour is None else (red, green, blue)

    def resize(self, width: float, height: float) -> None:
        """Changes the area the effect lives in, in points (a resized window)."""
        _lib.confetti_resize(self._live(), _number(width, "width"),
                               _number(height, "height"))

    def clear(self, *, keep_start_emitters: bool = False) -> None:
        """Forgets every particle and stops every emitter (but the start ones, if asked)."""
        _lib.confetti_clear(self._live(), _flag(keep_start_emitters, "keep_start_emitters"))

    def is_alive(self, time: float) -> bool:
        """Whether anything is, or may yet be, drawn at or after `time`."""
        alive = ctypes.c_bool()
        _lib.confetti_is_alive(self._live(), _reading(time),
                               ctypes.byref(alive))
        return alive.value

    @property
    def end_time(self) -> Optional[float]:
        """The clock reading from which nothing is drawn any more; None while an emitter is
        still emitting (no end yet); -inf when it holds no particle."""
        end = _d()
        _lib.confetti_end_time(self._live(), ctypes.byref(end))
        return None if end.value == math.inf else end.value

    def alive_count(self, time: float) -> int:
        """How many particles are visible at `time`."""
        count = ctypes.c_int64()
        _lib.confetti_alive_count(self._live(), _reading(time),
                                  ctypes.byref(count))
        return count.value

    @property
    def capacity(self) -> int:
        """The most particles it holds alive at once; beyond it, the oldest make way."""
        count = ctypes.c_int64()
        _lib.confetti_capacity(self._live(), ctypes.byref(count))
        return count.value

    def has(self, trigger: Trigger) -> bool:
        """Whether the effect has emitters that `trigger` starts."""
        has = ctypes.c_bool()
        _lib.confetti_has_trigger(self._live(), int(_trigger(trigger)), ctypes.byref(has))
        return has.value

    @property
    def dropped_count(self) -> int:
        """Pieces the effect promised but does not show (raise capacity)."""
        count = ctypes.c_int64()
        _lib.confetti_dropped_count(self._live(), ctypes.byref(count))
        return count.value


# MARK: Celebrating over the desktop

class Celebration(_Handle):
    """A celebration under way over the desktop (see celebrate()): wait for it, or cancel it,
    from any thread. Closing (or leaving a `with` block) cancels it if it still runs."""

    def __init__(self, options: _CelebrateOptions):
        handle = _handle()
        _lib.confetti_celebration_start(ctypes.byref(options), ctypes.byref(handle))
        self._own(handle.value)

    _ending = staticmethod(_lib.confetti_celebration_close)
    _gone = "the celebration was closed"

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Waits until it is over, or `timeout` seconds (None: as long as it takes); returns
        whether it is over. Raises DesktopError with the reason if it could not be shown.
        Ctrl-C while waiting cancels it and raises KeyboardInterrupt."""
        return self._in_steps(timeout, _lib.confetti_celebration_wait)

    def wait_shown(self, timeout: Optional[float] = None) -> bool:
        """Waits until its first frame is on the screen (True), it has ended (False; a failure
        raises DesktopError with the reason, as wait() does), or `timeout` seconds have passed
        (False; None: as long as it takes): what `confetti run` waits for before it gives the
        shell back. Ctrl-C while waiting cancels it and raises KeyboardInterrupt."""
        def over() -> bool:
            # Over without a frame: a failure is said as wait() says it.
            return self.wait(timeout=0) if not self.running else False
        return self._in_steps(timeout, _lib.confetti_celebration_wait_shown, over)

    def _in_steps(self, timeout: Optional[float], call: Callable,
                  over: Callable[[], bool] = lambda: False) -> bool:
        """Calls `call(handle, step, &flag)` in short steps, so that Python sees Ctrl-C between
        them, until the flag is set, `timeout` seconds have passed (None: as long as it takes)
        or `over()`; returns the flag. Ctrl-C cancels the celebration and is raised again."""
        deadline = None if timeout is None else \
            _number(timeout, "timeout", 0) + _monotonic()
        flag = ctypes.c_bool()
        try:
            while True:
                step = 0.1 if deadline is None else max(0.0, min(0.1, deadline - _monotonic()))
                call(self._live(), step, ctypes.byref(flag))
                if flag.value or (deadline is not None and _monotonic() >= deadline) or over():
                    return flag.value
        except KeyboardInterrupt:
            self.cancel()
            raise

    def cancel(self) -> None:
        """Ends it now; a later wait() returns True without an error."""
        _lib.confetti_celebration_cancel(self._live())

    @property
    def running(self) -> bool:
        over = ctypes.c_bool()
        try:
            _lib.confetti_celebration_wait(self._live(), 0.0, ctypes.byref(over))
        except DesktopError:
            return False
        return not over.value

    def close(self) -> None:
        """Cancels it if it still runs (killed if it has not ended 2 s later), and ends the
        handle. Closing twice is harmless."""
        super().close()


def celebrate(preset: Optional[str] = None, *, json: Optional[str] = None,
              path: Union[str, os.PathLike, None] = None, seed: int = 1,
              monitor: Optional[int] = None, duration: Optional[float] = None,
              loop: bool = False, reduce_motion: Optional[bool] = None,
              wait: bool = True) -> Optional[Celebration]:
    """Throws confetti over the whole desktop, as `confetti overlay` does: transparent, on top,
    every click and key passing through to the windows below, until its last piece is gone
    (the "celebrate" preset by default: about 4 s).

    It runs as a process of its own, so your program keeps its windows and GL contexts. With
    wait=True (the default) it returns once it is over; with wait=False it returns the
    Celebration at once: keep it (wait on it, or cancel it): one dropped is cancelled by its
    finaliser, and the overlay ends with your program. Raises DesktopError where it
    cannot be shown (no desktop, no compositing window manager). `duration` is how long a
    continuous effect (snow) is on the screen (it fades out over its last second); `loop`
    keeps going until cancelled; reduce_motion None follows the desktop's own setting for
    fewer animations, True and False override it.
    """
    flags = 0
    if reduce_motion is not None:
        flags |= _REDUCE_MOTION if _flag(reduce_motion, "reduce_motion") else _FULL_MOTION
    if _flag(loop, "loop"):
        flags |= _LOOP
    if _flag(wait, "wait") and loop:
        raise ArgumentError("loop=True never ends by itself: give wait=False, then cancel() it")
    options = _CelebrateOptions(
        *_effect(preset, json, path), _seed(seed),
        0 if monitor is None else _whole(monitor, "monitor", 1, 2**31 - 1),
        0.0 if duration is None else _above_zero(duration, "duration"), flags)
    celebration = Celebration(options)
    if not wait:
        return celebration
    with celebration:
        celebration.wait()
    return None


# MARK: Rendering to files

def _above_zero(value: object, name: str) -> float:
    """A number above 0: C takes a 0 as its default, which a Python caller gives as None."""
    number = _number(value, name)
    if number <= 0:
        raise ArgumentError(f"{name} must be above 0, not {_shown(value)}")
    return number


def render(out: Union[str, os.PathLike], preset: Optional[str] = None, *,
           json: Optional[str] = None, path: Union[str, os.PathLike, None] = None,
           size: Optional[Tuple[int, int]] = None, scale: int = 1,
           time: Optional[float] = None,
           frames: Optional[int] = None, fps: float = 30.0,
           frame_range: Optional[Tuple[int, int]] = None, until_over: bool = False,
           background: Optional[str] = None, seed: int = 1,
           reduce_motion: bool = False, quality: str = "standard", primitive: str = "auto",
           check_flashes: bool = False,
           progress: Optional[Callable[[int, int], object]] = None) -> pathlib.Path:
    """Renders an effect to `out`, as `confetti render` does: one picture (.png), a numbered
    sequence (NAME-0000.png, ... when frames > 1), or an animation (.gif, .webm, .mp4, .mov,
    made by ffmpeg). Returns `out` as a Path.

    `frames` is how many (None: one picture for a .png, and for an animation as many as the
    effect lasts); `until_over=True` ends a numbered sequence when the effect is over too, its
    first frame with nothing left included (`confetti render --duration auto`; an effect that
    emits until stopped, such as snow, never ends and is refused). `quality` is an animation's
    encoder settings, one of QUALITIES. `check_flashes=True` also checks the frames for flashes
    that can cause seizures in people with photosensitive epilepsy (WCAG 2.3.1, as `confetti
    render --check-flashes`): beyond its limits it raises FlashesError, the files written. It
    needs more than one frame (an animation or a sequence) and an opaque background.

    `time` is the first frame's moment in seconds after the effect starts (None: 0 for a clip,
    0.6 for one picture, as in every language and `confetti render`); `background` is
    "transparent", "#rrggbb" or "#rrggbbaa" (None: the program's dark backdrop); `frame_range`
    (first, end) renders only those frames of the sequence. `progress(done, total)` is called
    after each frame; returning False stops the render (Stopped), and so does an exception
    raised in it (or Ctrl-C), which is raised again once the render has cleaned up. Nothing is
    written over the effect's own files, and a failure leaves nothing under the name.

    The frames are drawn on a GL context of the library's own, on a thread of its own: any GL
    context your program has current is left alone.
    """
    width, height = 0, 0  # the library's default: 800 x 600, or 1280 x 720 for an animation
    if size is not None:
        if isinstance(size, (str, bytes)) or not isinstance(size, Sequence) or len(size) != 2:
            raise ArgumentError(
                f"size must be a pair (width, height) in pixels, not {_shown(size)}")
        width, height = (_whole(v, n, 1, 2**31 - 1) for v, n in zip(size, ("width", "height")))
    first, end = 0, 0
    if frame_range is not None:
        if isinstance(frame_range, (str, bytes)) or not isinstance(frame_range, Sequence) \
                or len(frame_range) != 2:
            raise ArgumentError(f"frame_range must be a pair (first, end), not {_shown(frame_range)}")
        first = _whole(frame_range[0], "frame_range[0]", 0, 2**62)
        end = _whole(frame_range[1], "frame_range[1]", 0, 2**62)
        if end <= first:
            raise ArgumentError(
                f"frame_range {first}:{end} holds no frame: it runs from a first frame to one "
                "past the last")
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be callable, not {_shown(progress)}")
    flags = _REDUCE_MOTION if _flag(reduce_motion, "reduce_motion") else 0
    if _flag(until_over, "until_over"):
        if frames is not None:
            raise ArgumentError(
                f"give frames or until_over=True, not both (frames={_shown(frames)})")
        flags |= _UNTIL_OVER
    if not isinstance(quality, str) or quality not in QUALITIES:
        raise ArgumentError(
            f"quality must be {' or '.join(map(repr, QUALITIES))}, not {_shown(quality)}")
    flags |= _BEST_QUALITY if quality == "best" else 0
    flags |= _primitive(primitive)
    flags |= _CHECK_FLASHES if _flag(check_flashes, "check_flashes") else 0
    raised: list = []

    def told(done: int, total: int, _user: object) -> int:
        if interrupted:
            return 1
        try:
            if progress is not None and progress(done, total) is False:
                return 1
        except BaseException as error:  # noqa: B036 - handed back to the caller below
            raised.append(error)
            return 1
        return 0

    interrupted: list = []
    callback = _PROGRESS(told)
    target = _text(out, "out")
    if time is not None:
        flags |= _AT_TIME
    # The library checks every value (its limits are its own); here only that each is a number
    # of the C type it is passed as.
    options = _RenderOptions(
        *_effect(preset, json, path), target, width, height, _whole(scale, "scale", 1, 2**31 - 1),
        0.0 if time is None else _number(time, "time"),
        0 if frames is None else _whole(frames, "frames", 1, 2**62),
        _above_zero(fps, "fps"), first, end, _text(background, "background"), _seed(seed), flags,
        callback, None)
    # Ctrl-C while the library renders is noted, not raised inside the callback (where ctypes
    # could only print it): the render stops after its frame, cleans up, and the caller gets
    # KeyboardInterrupt. (Python's own handler only, on the main thread, where signals arrive;
    # set once every argument is checked, and put back whatever happens after.)
    previous = None
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous = signal.signal(signal.SIGINT, lambda *_: interrupted.append(True))
    try:
        _lib.confetti_render(ctypes.byref(options))
    except ArgumentError as error:
        # The library names its flag; a Python caller gives until_over=True.
        raise ArgumentError(str(error.args[0]).replace(
            "frames instead of CONFETTI_UNTIL_OVER", "frames=N instead of until_over=True").replace(
            "CONFETTI_UNTIL_OVER", "until_over=True"), error.status) from None
    except Stopped:
        if interrupted:
            raise KeyboardInterrupt from None
        if raised:
            raise raised[0] from None
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if interrupted:
        raise KeyboardInterrupt
    if raised:  # after the last frame: the files are whole, and the exception is still news
        raise raised[0]
    return pathlib.Path(os.fsdecode(target))
