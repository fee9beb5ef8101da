"""confetti: libconfetti from Python, through ctypes. confetti.h documents every call.

    system = confetti.System(preset="confetti", width=960, height=540)  # GL context current
    system.trigger(confetti.START, now)
    system.draw(0, 0, framebuffer_width, framebuffer_height, now)      # every frame
    system.destroy()                                                   # before the context goes

Every failure raises confetti.Error with the library's one-line message. The library is found
as libconfetti.so.0 (installed by the confetti package), or at $CONFETTI_LIBRARY.
"""
import ctypes
import os

_lib = ctypes.CDLL(os.environ.get("CONFETTI_LIBRARY", "libconfetti.so.0"))

START, CLICK, KEY = 0, 1, 2  # confetti_trigger_type
REDUCE_MOTION, CACHE_GL_STATE = 1, 2  # confetti_desc.flags


class Error(Exception):
    """A call libconfetti refused: .status is its confetti_status, str() its message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class _Desc(ctypes.Structure):
    _fields_ = [("preset", ctypes.c_char_p), ("json", ctypes.c_char_p), ("path", ctypes.c_char_p),
                ("width", ctypes.c_double), ("height", ctypes.c_double),
                ("capacity", ctypes.c_int64), ("seed", ctypes.c_uint64), ("flags", ctypes.c_uint32)]


ARGUMENT = 1  # confetti_status's CONFETTI_ERROR_ARGUMENT


def _check(status):
    if status != 0:
        raise Error(status, _lib.confetti_last_error().decode())


def _whole(value, name, bits, signed=True):
    """`value` as a C integer of `bits`, refused (not cut down, as ctypes would) when it is not
    a whole number in range."""
    low, high = (-(1 << bits - 1), (1 << bits - 1) - 1) if signed else (0, (1 << bits) - 1)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Error(ARGUMENT, f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _text(value, name):
    if value is None:
        return None
    if not isinstance(value, str) or "\0" in value:
        raise Error(ARGUMENT, f"{name} must be text without NUL characters, not {value!r}")
    return value.encode()


_handle, _d = ctypes.c_void_p, ctypes.c_double
for name, arguments in {
    "confetti_create": [ctypes.POINTER(_Desc), ctypes.POINTER(_handle)],
    "confetti_destroy": [_handle],
    "confetti_trigger": [_handle, ctypes.c_int, _d],
    "confetti_trigger_at": [_handle, ctypes.c_int, _d, _d, _d],
    "confetti_advance": [_handle, _d],
    "confetti_draw": [_handle, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, _d],
    "confetti_reset_gl_state_cache": [_handle],
    "confetti_set_size": [_handle, _d, _d],
    "confetti_clear": [_handle, ctypes.c_bool],
    "confetti_is_alive": [_handle, _d, ctypes.POINTER(ctypes.c_bool)],
    "confetti_end_time": [_handle, ctypes.POINTER(_d)],
    "confetti_alive_count": [_handle, _d, ctypes.POINTER(ctypes.c_int64)],
    "confetti_dropped_count": [_handle, ctypes.POINTER(ctypes.c_int64)],
}.items():
    function = getattr(_lib, name)
    function.argtypes, function.restype, function.errcheck = arguments, ctypes.c_int, \
        lambda status, *_: _check(status)
_lib.confetti_last_error.restype = _lib.confetti_version.restype = ctypes.c_char_p
version = _lib.confetti_version().decode()


class System:
    """An effect on the current GL 3.3 context: a preset, JSON text or a file, in points."""

    def __init__(self, preset=None, json=None, path=None, *, width, height, capacity=0, seed=0,
                 flags=0):
        desc = _Desc(_text(preset, "preset"), _text(json, "json"), _text(path, "path"),
                     float(width), float(height), _whole(capacity, "capacity", 64),
                     _whole(seed, "seed", 64, signed=False), _whole(flags, "flags", 32, False))
        self._handle = _handle()
        _lib.confetti_create(ctypes.byref(desc), ctypes.byref(self._handle))

    def destroy(self):
        """Deletes its GL objects (its context current) and ends the handle."""
        _lib.confetti_destroy(self._handle)

    def trigger(self, trigger, time, at=None):
        """Starts the emitters of `trigger` (START, CLICK, KEY) at `time`; a click `at` (x, y)."""
        trigger = _whole(trigger, "trigger", 32)
        if at is None:
            _lib.confetti_trigger(self._handle, trigger, time)
        else:
            _lib.confetti_trigger_at(self._handle, trigger, at[0], at[1], time)

    def advance(self, time):
        _lib.confetti_advance(self._handle, time)

    def draw(self, x, y, width, height, time):
        """Draws into the framebuffer's rectangle (pixels from its bottom-left corner)."""
        x, y, width, height = (_whole(v, n, 32) for v, n in
                               zip((x, y, width, height), ("x", "y", "width", "height")))
        _lib.confetti_draw(self._handle, x, y, width, height, time)

    def reset_gl_state_cache(self):
        """With CACHE_GL_STATE: the GL state was changed since the last draw; set it all again."""
        _lib.confetti_reset_gl_state_cache(self._handle)

    def set_size(self, width, height):
        _lib.confetti_set_size(self._handle, width, height)

    def clear(self, keep_start_emitters=False):
        _lib.confetti_clear(self._handle, keep_start_emitters)

    def is_alive(self, time):
        alive = ctypes.c_bool()
        _lib.confetti_is_alive(self._handle, time, ctypes.byref(alive))
        return alive.value

    def end_time(self):
        end = _d()
        _lib.confetti_end_time(self._handle, ctypes.byref(end))
        return end.value

    def alive_count(self, time):
        count = ctypes.c_int64()
        _lib.confetti_alive_count(self._handle, time, ctypes.byref(count))
        return count.value

    def dropped_count(self):
        """Pieces promised but not shown: the ring let them go early (raise capacity)."""
        count = ctypes.c_int64()
        _lib.confetti_dropped_count(self._handle, ctypes.byref(count))
        return count.value
