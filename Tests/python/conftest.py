"""What the confetti_gl tests share: an X desktop of their own (Xvfb, with a compositing manager
when asked), waited for by the events that say it is ready, never by fixed sleeps.

Run them against an installed wheel (sh .ci/python-tests does: a fresh venv, the toolchain's
libraries hidden); under CI=true a missing tool is a failure, not a skip.
"""
import ctypes
import os
import select
import shutil
import subprocess
import time

import pytest


def required(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run this test, but {tool} is not installed")
        pytest.skip(f"needs {tool}")
    return found


def wait_for(what: str, condition, timeout: float = 30.0):
    """Polls `condition` until it returns something true (returned), or fails after `timeout`
    seconds: generous, and over as soon as it holds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {timeout} s")
        time.sleep(0.02)


class _X11:
    """The three Xlib calls that say whether a compositing manager runs."""

    def __init__(self):
        self.lib = ctypes.CDLL("libX11.so.6")
        self.lib.XOpenDisplay.restype = ctypes.c_void_p
        self.lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
        self.lib.XInternAtom.restype = ctypes.c_ulong
        self.lib.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.lib.XGetSelectionOwner.restype = ctypes.c_ulong
        self.lib.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        self.lib.XCloseDisplay.argtypes = [ctypes.c_void_p]

    def has_compositor(self, display: str) -> bool:
        connection = self.lib.XOpenDisplay(display.encode())
        if not connection:
            return False
        try:
            atom = self.lib.XInternAtom(connection, b"_NET_WM_CM_S0", 0)
            return self.lib.XGetSelectionOwner(connection, atom) != 0
        finally:
            self.lib.XCloseDisplay(connection)


class Desktop:
    def __init__(self, name: str, processes):
        self.name = name
        self.processes = processes

    def windows(self, name: str = "^Confetti"):
        """The ids of the windows whose name matches, now."""
        found = subprocess.run(
            [required("xdotool"), "search", "--name", name], capture_output=True, text=True,
            env={**os.environ, "DISPLAY": self.name})
        return found.stdout.split()


def _start_xvfb(size: str):
    xvfb = required("Xvfb")
    # The server picks a free display itself and says it once it takes clients (-displayfd).
    # (-noreset: the last client's leaving does not reset it, refusing whoever connects then.)
    server = subprocess.Popen([xvfb, "-displayfd", "1", "-screen", "0", size, "-nolisten", "tcp",
                               "-noreset"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    # (Waited for, within a generous bound: a server that never answers fails the test.)
    ready, _, _ = select.select([server.stdout], [], [], 30)
    line = server.stdout.readline().strip() if ready else ""
    if not line.isdigit():
        server.kill()
        pytest.fail("Xvfb did not start")
    return f":{line}", server


@pytest.fixture
def display():
    """An X display of its own, with no window manager."""
    name, server = _start_xvfb("800x600x24")
    yield Desktop(name, [server])
    server.terminate()
    server.wait()


@pytest.fixture
def desktop():
    """An X display of its own with a compositing manager running on it, as the overlay needs."""
    name, server = _start_xvfb("800x600x24")
    compositor = subprocess.Popen([required("xcompmgr")], env={**os.environ, "DISPLAY": name},
                                  stderr=subprocess.DEVNULL)
    x11 = _X11()
    wait_for("the compositing manager", lambda: x11.has_compositor(name))
    yield Desktop(name, [compositor, server])
    for process in (compositor, server):
        process.terminate()
        process.wait()
