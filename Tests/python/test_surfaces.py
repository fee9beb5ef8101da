"""One concept, one counterpart in each language: the Swift facade (every public member is on
its documentation page, which PublicSurfaceTests holds to the symbol graph), confetti.h's
functions and confetti_gl's. A member of one with no counterpart in the others, and not on the
written list of deliberate differences below, fails this test."""
import pathlib
import re

import confetti_gl as confetti

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]

# concept: (Swift member or members, C functions, Python names)
CONCEPTS = {
    "make a system": (["init(effect:size:capacity:seed:reduceMotion:primitive:)",
                       "init(preset:size:capacity:seed:reduceMotion:primitive:)"],
                      ["confetti_create"], ["System"]),
    "end it": (["close()"], ["confetti_close"], ["System.close"]),
    "fire emitters": (["trigger(_:at:time:)"], ["confetti_trigger", "confetti_trigger_at"],
                      ["System.trigger"]),
    "open the effect as the program does": (["fireOpening(time:)"], ["confetti_fire_opening"],
                                            ["System.fire_opening"]),
    "move emission on": (["advance(to:)"], ["confetti_advance"], ["System.advance"]),
    "draw": (["draw(in:time:)"], ["confetti_draw"], ["System.draw"]),
    "the GL state policy": (["glStatePolicy", "resetGLStateCache()"],
                            ["confetti_set_cache_gl_state", "confetti_reset_gl_state_cache"],
                            ["System.cache_gl_state", "System.reset_gl_state_cache"]),
    "the area": (["size", "resize(to:)"], ["confetti_resize"], ["System.resize"]),
    "the backdrop": (["backdrop"], ["confetti_set_backdrop"], ["System.backdrop"]),
    "stop emitting": (["stopEmitting()"], ["confetti_stop_emitting"], ["System.stop_emitting"]),
    "forget the particles": (["clear(keepingStartEmitters:)"], ["confetti_clear"],
                             ["System.clear"]),
    "what is alive": (["isAlive(time:)"], ["confetti_is_alive"], ["System.is_alive"]),
    "when it ends": (["endTime"], ["confetti_end_time"], ["System.end_time"]),
    "how many are visible": (["aliveCount(time:)"], ["confetti_alive_count"],
                             ["System.alive_count"]),
    "what was not shown": (["droppedCount"], ["confetti_dropped_count"],
                           ["System.dropped_count"]),
    "the largest capacity": (["capacity", "maximumCapacity"], ["confetti_capacity"],
                             ["System.capacity"]),
    "which emitters it has": (["has(_:)"], ["confetti_has_trigger"], ["System.has"]),
    "the version": ([], ["confetti_version"], ["version"]),
    "the last error": ([], ["confetti_last_error"], ["Error"]),
    "celebrate": ([], ["confetti_celebrate", "confetti_celebration_start",
                       "confetti_celebration_wait", "confetti_celebration_wait_shown",
                       "confetti_celebration_cancel",
                       "confetti_celebration_close"],
                  ["celebrate", "Celebration.wait", "Celebration.wait_shown", "Celebration.cancel",
                   "Celebration.close"]),
    "render": ([], ["confetti_render"], ["render"]),
}

# The names before 0.6, kept one release as deprecated aliases of the one name each concept has.
DEPRECATED = {
    "release()": "close()",
    "removeAll(keepingStartEmitters:)": "clear(keepingStartEmitters:)",
    "confetti_destroy": "confetti_close",
    "confetti_set_size": "confetti_resize",
    "confetti_celebration_destroy": "confetti_celebration_close",
}

# Deliberate differences, each with its reason.
DIFFERENCES = {
    # Swift's own idioms, and what a Swift host can reach that a C handle does not carry.
    "effect": "Swift: the Effect value the system runs; C and Python gave it by name or text",
    "largestSide": "Swift: the bound as a constant; C and Python say it in their refusals",
    "latestReading": "Swift: the bound as a constant; C and Python say it in their refusals",
    "Size": "Swift: the facade's value types; C and Python pass two numbers",
    "Point": "Swift: the facade's value types; C and Python pass two numbers",
    "history": "Swift: the window's rewinding (seconds of ended particles kept); a C or Python "
               "host rewinds through the clock it passes, within what is alive",
    "earliestExactReading": "Swift: the rewinding's bound, with history",
    # "celebrate", "render", "version", "the last error": Swift's are in their own modules
    # (ConfettiCelebration, ConfettiExport), its version is ConfettiVersion.current, and its
    # errors are thrown values.
}


def swift_members():
    page = (REPOSITORY / "Sources/Confetti/Confetti.docc/ConfettiSystem.md").read_text()
    return set(re.findall(r"^- ``([^`]+)``$", page, re.MULTILINE))


def c_functions():
    header = (REPOSITORY / "Sources/CConfetti/confetti.h").read_text()
    return set(re.findall(r"^\w[\w *]*?\b(confetti_\w+)\(", header, re.MULTILINE))


def python_names():
    names = {name for name in confetti.__all__}
    for cls in (confetti.System, confetti.Celebration):
        names |= {f"{cls.__name__}.{name}" for name in vars(cls) if not name.startswith("_")}
    return names


def test_every_member_has_its_counterparts_or_a_written_reason():
    swift, c, python = swift_members(), c_functions(), python_names()
    assert len(swift) > 20 and len(c) > 20, (swift, c)
    for concept, (swift_names, c_names, python_names_) in CONCEPTS.items():
        for name in swift_names:
            assert name in swift, f"{concept}: Swift has no {name}"
        for name in c_names:
            assert name in c, f"{concept}: confetti.h has no {name}"
        for name in python_names_:
            assert name in python, f"{concept}: confetti_gl has no {name}"
        assert c_names and python_names_, f"{concept} is missing in C or Python"
    named = {name for names, _, _ in CONCEPTS.values() for name in names}
    for old, new in DEPRECATED.items():
        assert old in swift | c and new in swift | c, f"{old} stands for {new}"
    for member in sorted(swift - named - DIFFERENCES.keys() - DEPRECATED.keys()):
        raise AssertionError(f"Swift's {member} has no counterpart and no reason given")
    named_c = {name for _, names, _ in CONCEPTS.values() for name in names}
    assert c - named_c - DEPRECATED.keys() == set(), \
        f"C functions with no concept: {c - named_c - DEPRECATED.keys()}"
    named_python = {name for _, _, names in CONCEPTS.values() for name in names}
    helpers = {"Trigger", "program", "Celebration", "ArgumentError", "HandleError", "EffectError",
               "GLError", "DesktopError", "OutputError", "Stopped", "BusyError", "FlashesError", "System.closed",
               "Celebration.running", "QUALITIES", "PRIMITIVES"}
    assert python - named_python - helpers == set(), \
        f"Python names with no concept: {python - named_python - helpers}"


def test_the_flags_are_confetti_hs():
    header = (REPOSITORY / "Sources/CConfetti/confetti.h").read_text()
    enum = header[header.index("/* Flags: "):]
    enum = enum[:enum.index("};")]
    flags = dict(re.findall(r"^  CONFETTI_(\w+) = (\d+)", enum, re.MULTILINE))
    assert len(flags) == 11, flags
    python = {name[1:]: value for name, value in vars(confetti).items()
              if name.isupper() and name.startswith("_") and isinstance(value, int)
              and name[1:] in flags}
    assert python == {name: int(value) for name, value in flags.items()}


def test_one_name_per_concept_where_the_languages_meet():
    # No end yet: nil in Swift, None in Python; C's double says +INFINITY (written in confetti.h).
    header = (REPOSITORY / "Sources/CConfetti/confetti.h").read_text()
    assert "+INFINITY while an emitter is still emitting" in header
    assert "None while an emitter is still emitting" in " ".join(
        confetti.System.end_time.__doc__.split())


def test_the_deprecated_c_names_say_what_to_use():
    header = (REPOSITORY / "Sources/CConfetti/confetti.h").read_text()
    for old, new in DEPRECATED.items():
        if old.startswith("confetti_"):
            assert f'CONFETTI_DEPRECATED("{new}")\nconfetti_status {old}(' in header, old


# One default per setting, the program's: Python's keyword defaults, and where C and Swift write
# the same one (confetti.h's "0: ..." and the Swift settings' initial values). The bytes are
# compared by the render tests (a render with nothing given is `confetti render --out`'s).
RENDER_DEFAULTS = {
    # Python keyword: (Python default, confetti.h says, Swift RenderOptions declares)
    "size": (None, "0: 800 x 600 for pictures, 1280 x 720 for an animation",
             "public static let defaultVideoSize = PixelSize(width: 1280, height: 720)"),
    "scale": (1, "0: 1.", "public var scale = 1"),
    "time": (None, "0: 0 for a clip", "public var time: Seconds?"),
    "frames": (None, "0: one picture for a .png", "public var frames: Int?"),
    "fps": (30.0, "0: 30.", "public var fps: Double = 30"),
    "until_over": (False, "CONFETTI_UNTIL_OVER", "public var untilOver = false"),
    "seed": (1, "Every random draw comes from it. 0: 1.", "public var seed: UInt64 = 1"),
    "reduce_motion": (False, "CONFETTI_REDUCE_MOTION", "public var reduceMotion = false"),
    "quality": ("standard", "CONFETTI_BEST_QUALITY", "public var quality = ExportQuality.standard"),
    "check_flashes": (False, "CONFETTI_CHECK_FLASHES", "public var checksFlashes = false"),
    "background": (None, "NULL: the program's dark backdrop, #12141c",
                   "public var background = GLFrame.background"),
}


def test_a_render_has_one_default_per_setting_in_every_language():
    import inspect
    header = " ".join((REPOSITORY / "Sources/CConfetti/confetti.h").read_text().split())
    swift = (REPOSITORY / "Sources/ConfettiExport/Export.swift").read_text()
    given = {name: p.default for name, p in inspect.signature(confetti.render).parameters.items()
             if p.default is not inspect.Parameter.empty}
    for name, (python, c, declared) in RENDER_DEFAULTS.items():
        assert given.get(name, "missing") == python, f"render({name}=...) defaults to {given.get(name)}"
        assert c in header, f"confetti.h does not say {c!r} for {name}"
        assert declared in swift, f"Swift's RenderOptions does not declare {declared!r}"
    for keyword in ("seed",):
        for function in (confetti.System, confetti.celebrate):
            assert inspect.signature(function).parameters[keyword].default == 1, function
