/* confetti.h: physics-based confetti drawn by the GPU, in your own OpenGL 3.3 program.
 *
 *   cc host.c $(pkg-config --cflags --libs confetti glfw3)
 *
 *   confetti_desc desc = {0};                // zeros mean defaults
 *   desc.preset = "confetti";                // or .json, or .path
 *   desc.width = 1280; desc.height = 720;    // the area the effect lives in, in points
 *   confetti_system *confetti;
 *   if (confetti_create(&desc, &confetti) != CONFETTI_OK)
 *     fprintf(stderr, "%s\n", confetti_last_error());
 *   confetti_trigger(confetti, CONFETTI_TRIGGER_START, now);
 *   ...every frame, after drawing your scene:
 *   confetti_draw(confetti, 0, 0, framebuffer_width, framebuffer_height, now);
 *   ...before the GL context goes:
 *   confetti_close(confetti);
 *
 * The library is the Swift package's ConfettiSystem behind a C interface: the same records,
 * shaders and frames as the `confetti` program draws (`confetti render --time T` of a moment
 * is, pixel for pixel, what a host draws at that moment with the same effect, size and seed).
 *
 * ERRORS. Every call that can fail returns a confetti_status; CONFETTI_OK is 0. A refused
 * argument changes nothing, and confetti_last_error() says what was wrong in one line. The
 * library never prints, exits or aborts on bad input: a null pointer, a destroyed or made-up
 * handle, an unknown preset, malformed JSON, a size, place or time that is not a finite number
 * in range, or no current GL context is an error return. Strings are UTF-8.
 *
 * THE CLOCK. The host owns it. Every `time` is a clock reading in seconds from a clock of the
 * host's choosing (glfwGetTime(), a video's frame time, a paused or rewound player): finite,
 * from 0 to under 2^43 s less 40 minutes (about 278,000 years; the 40 minutes are room for what
 * an effect schedules ahead, such as a firework's sparks). Births are decided on the CPU as the
 * clock passes them; everything after birth is the vertex shader's closed form at the reading
 * confetti_draw is given, so a reading may go back: emission only moves forward, and an earlier
 * reading is drawn without new births.
 *
 * POINTS AND PIXELS. The effect lives in an area of width x height points (emitter positions,
 * a click's place, speeds). confetti_draw spreads that area over a rectangle of the framebuffer
 * in pixels, so a HiDPI host passes its window size in points and its framebuffer in pixels.
 * Points run from the top-left corner, y down, as a window's cursor does; pixel rectangles run
 * from the framebuffer's bottom-left corner, as glViewport takes them.
 *
 * THE GL STATE CONTRACT. (Written here once; the Swift documentation and docs/hosts point
 * here.) confetti_create and confetti_draw need the host's OpenGL 3.3 context (core or
 * compatibility profile) current on the calling thread, the same one for a system's whole life:
 * a draw with any other context current (EGL's or GLX's), even one that shares the system's
 * objects, is CONFETTI_ERROR_GL and draws nothing, for vertex arrays are never shared; make a
 * system on each context that draws. confetti_close deletes the system's GL objects when its
 * own context is current; with another current, or none, it deletes nothing there (another
 * context's objects of the same names are never touched) and leaves them to their own context,
 * freed when that is destroyed. A context made after the system's was destroyed is another,
 * even where EGL or GLX gives it the same address and it shares the system's objects: a mark
 * in the system's vertex array (which no other context has), read back, tells them apart at
 * confetti_close and at each draw (but for a draw with CONFETTI_CACHE_GL_STATE, which asks
 * the GL nothing). A draw into a framebuffer that is not
 * complete is CONFETTI_ERROR_GL, naming its status, and leaves no GL error. Each call sets every
 * piece of state it needs and restores, before it returns, what it changed:
 *   - the viewport, the scissor box and test, the colour mask, the polygon mode (it draws
 *     filled);
 *   - blending: on or off, its functions and equations;
 *   - (where the GL keeps blending and the colour mask for each draw buffer, or the viewport
 *     and scissor for each viewport, those of draw buffer 0 and viewport 0 alone; and since
 *     its shaders write one colour, to draw buffer 0, a draw turns the colour masks of draw
 *     buffers 1 on off, so that a framebuffer with several draw buffers on keeps the others
 *     as they were);
 *   - the capabilities depth test, stencil test, face culling, program point size, rasterizer
 *     discard, colour logic op, alpha-to-coverage, alpha-to-one, sample coverage, sample mask,
 *     primitive restart and clip distances 0-7 (turned off for its own draw);
 *   - the bound program, vertex array, GL_ARRAY_BUFFER, GL_PIXEL_UNPACK_BUFFER and
 *     GL_TRANSFORM_FEEDBACK_BUFFER (and its binding 0);
 *   - the active texture unit, unit 0's 2D texture and sampler object, the pixel-unpack settings;
 *   - on a GL with clip control (4.5, or ARB_clip_control), the clip origin and depth mode (it
 *     draws with the origin at the lower left, whatever the host's is);
 *   - on a compatibility profile, the point sprite, point smoothing, multisampling and alpha test
 *     capabilities (there its points are squares of whole pixels, the same picture, which Mesa's
 *     llvmpipe draws about 16 % faster than a core profile's point sprites), unit 0's
 *     level-of-detail bias (glTexEnv), and, while its pictures are uploaded (at
 *     confetti_create), the pixel transfer: every channel's scale and bias, and GL_MAP_COLOR.
 * It does not touch depth and stencil functions and masks, the clear colour, other texture
 * units, uniform buffers or sRGB conversion, and leaves the host's framebuffer bound (the draw
 * framebuffer is bound again after an effect with light is drawn into a layer of its own).
 * confetti_draw draws into the framebuffer the host has bound, premultiplied-alpha blended over
 * what is there (light from its layer, covering what is there as much as it shines), clipped to
 * its rectangle and to the host's scissor box if scissoring is on, and writes no depth. The other
 * calls touch no GL. One thing cannot be restored: a program the host deleted while it was
 * current is gone once confetti has used its own, and no program is left bound. A GL test sets
 * unusual values for each of these, calls every entry point and compares the state item by item.
 * (With CONFETTI_CACHE_GL_STATE a draw leaves its own state instead, and reads no scissor box or
 * framebuffer status of the host's: see that flag.)
 *
 * THREADS. A system is used by one thread at a time, the one whose context is current for the
 * GL calls. Different systems may be used on different threads at once. A call made while
 * another thread is in a call with the same system is refused, CONFETTI_ERROR_BUSY, and does
 * nothing (checked on entry: breaking the rule is an error, never memory corruption).
 * Celebrations may be waited on and cancelled from any thread. confetti_last_error() is per
 * thread.
 *
 * FORK. A child made by fork() after the library used the GL has its parent's memory but none
 * of the GL driver's threads, so it cannot draw with what its parent set up: there
 * confetti_render, and confetti_draw of a system made before the fork, return CONFETTI_ERROR_GL
 * at once, naming fork(), and confetti_celebration_wait of a celebration started before it
 * returns CONFETTI_ERROR_DESKTOP. The child may still fire and advance such a system, destroy it
 * (its GL objects stay the parent's) and destroy such a celebration (it goes on in the parent).
 * A child started anew (fork then exec, posix_spawn; Python: multiprocessing's "spawn" start
 * method) uses the library as any program does, and so does a fork made before any GL use.
 *
 * CRASHES. Where Swift's runtime is linked into the library (the package, the wheel), loading it
 * sets SWIFT_BACKTRACE=enable=no in the process's environment unless it is set already: Swift's
 * own crash handler is then not installed in the host, whose crashes end as they would without
 * the library (never at a 30-second prompt on its terminal).
 *
 * LIFETIMES. A confetti_system is a handle, not memory: after confetti_close every call with
 * it returns CONFETTI_ERROR_HANDLE, and no later system gets the same handle. Strings passed in
 * are read during the call only; strings returned belong to the library.
 *
 * Confetti is under the MIT licence (LICENSE; installed as /usr/share/doc/confetti/copyright).
 */
#ifndef CONFETTI_H
#define CONFETTI_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version this header belongs to; confetti_version() is the library's. The soname carries
 * the major version: libconfetti.so.0. */
#define CONFETTI_VERSION_MAJOR 0
#define CONFETTI_VERSION_MINOR 6
#define CONFETTI_VERSION_PATCH 0
#define CONFETTI_VERSION "0.6.0"

/* An effect running on the host's GL context. Opaque: made by confetti_create, ended by
 * confetti_close. */
typedef struct confetti_system confetti_system;

typedef enum confetti_status {
  CONFETTI_OK = 0,
  /* A null pointer, or a number out of range: a size or time that is not finite, a negative
   * size, rectangle or capacity, an unknown trigger. */
  CONFETTI_ERROR_ARGUMENT = 1,
  /* Not a live system: null, destroyed, or never made by confetti_create. */
  CONFETTI_ERROR_HANDLE = 2,
  /* The effect cannot be used: an unknown preset, malformed JSON or a value out of range in it,
   * a file that cannot be read, an image that cannot be decoded. */
  CONFETTI_ERROR_EFFECT = 3,
  /* The GL cannot do it: no context current, older than OpenGL 3.3, a shader that did not
   * compile, more particles than one GL buffer holds. */
  CONFETTI_ERROR_GL = 4,
  /* A celebration cannot be shown: no desktop (no DISPLAY or WAYLAND_DISPLAY, a remote
   * shell), no compositing window manager, no confetti program to show it. */
  CONFETTI_ERROR_DESKTOP = 5,
  /* A render's file cannot be written: a folder that is not there, a full disk, a name that
   * is a folder or a special file, the effect's own file, ffmpeg missing or failing. Nothing
   * is left under the name. */
  CONFETTI_ERROR_OUTPUT = 6,
  /* A render was stopped by its progress callback: what it was writing is removed, and a
   * file its name held before is left as it was (a sequence keeps the pictures it
   * finished). */
  CONFETTI_STOPPED = 7,
  /* Another thread is in a call with the same system at this moment (see THREADS): the call
   * did nothing. */
  CONFETTI_ERROR_BUSY = 8,
  /* A render checked for flashes (CONFETTI_CHECK_FLASHES) flashes more than WCAG 2.3.1 allows:
   * the files are written, and confetti_last_error says the worst second and the share of the
   * picture it covers. */
  CONFETTI_FLASHES = 9
} confetti_status;

/* What starts an effect's emitters (each emitter in a configuration names its trigger). */
typedef enum confetti_trigger_type {
  /* When the effect starts: a window opening, time 0 of a render. */
  CONFETTI_TRIGGER_START = 0,
  /* A click: at a point given to confetti_trigger_at, else at the emitters' own places. */
  CONFETTI_TRIGGER_CLICK = 1,
  /* A key press (the program's space bar). */
  CONFETTI_TRIGGER_KEY = 2
} confetti_trigger_type;

/* Flags: for confetti_desc.flags, and where each says, for a celebration's or a render's. */
enum {
  /* Each particle appears near where its motion would take it and fades in place, for people
   * who are bothered by movement. */
  CONFETTI_REDUCE_MOTION = 1,
  /* For a host that has the GL context to itself: the system keeps the GL state it sets
   * between draws instead of saving and restoring the host's (about fifty glGet and
   * glIsEnabled queries a draw), so that a steady frame sends one uniform and one draw (on
   * llvmpipe, one per 16,384 pieces, flushed in between) and asks the GL nothing. The host
   * promises to leave the state as a draw left it and the context current, or to call
   * confetti_reset_gl_state_cache after changing it. Systems sharing a context need no reset
   * for each other: one sets its whole state again when another drew last. What a draw
   * leaves: premultiplied blending on, scissoring on with the draw's rectangle as its box (a
   * host's glClear is clipped to it), program point size on, depth, stencil, culling and the
   * rest off, the colour masks of draw buffers 1 on off, its program and vertex array bound,
   * its texture on unit 0, the clip origin at the lower left where the GL has clip control,
   * and a viewport a margin wider than the rectangle. The host's own scissor box is not read:
   * the confetti is clipped to the draw's rectangle only. */
  CONFETTI_CACHE_GL_STATE = 2,
  /* For confetti_celebrate_options.flags, with confetti_celebration_start (confetti_celebrate
   * refuses it): keep going until cancelled (a continuous effect emits on, a one-off effect is
   * thrown again each time it is over). */
  CONFETTI_LOOP = 4,
  /* For confetti_celebrate_options.flags: full motion whatever the desktop's setting for fewer
   * animations says (without it or CONFETTI_REDUCE_MOTION, that setting is followed). */
  CONFETTI_FULL_MOTION = 8,
  /* For confetti_render_options.flags: the clip ends when the effect is over, its first frame
   * with nothing left included (`confetti render --duration auto`): a numbered sequence of
   * pictures (an animation given no frames does so without it); frames must be 0. An effect
   * that emits until stopped (snow, rain, fire) never ends, and is refused with
   * CONFETTI_ERROR_ARGUMENT. */
  CONFETTI_UNTIL_OVER = 16,
  /* For confetti_render_options.flags: an animation's slower encoder settings, for a master
   * copy (`confetti render --quality best`); without it, those measured to keep pace. */
  CONFETTI_BEST_QUALITY = 32,
  /* For confetti_render_options.flags: time is the first moment as given, 0 included (without
   * it, a time of 0 means the default first moment). */
  CONFETTI_AT_TIME = 64,
  /* For confetti_desc.flags and confetti_render_options.flags, at most one: what the pieces are
   * drawn as (`confetti --primitive`). A point sprite per piece, each a vertex; the same, each an
   * instance; or four corners fitted to the piece. None of them: the one measured fastest on
   * this GL (auto). */
  CONFETTI_POINTS = 128,
  CONFETTI_INSTANCED_POINTS = 256,
  CONFETTI_QUADS = 512,
  /* For confetti_render_options.flags: also checks the frames for flashes that can cause
   * seizures in people with photosensitive epilepsy (WCAG 2.3.1: at most 3 general or red
   * flashes in any second over a quarter of any 341 x 1024ths by 256 x 768ths of the picture;
   * `confetti render --check-flashes`). Beyond it the render returns CONFETTI_FLASHES, the files
   * written. Needs more than one frame and an opaque background (else CONFETTI_ERROR_ARGUMENT). */
  CONFETTI_CHECK_FLASHES = 1024
};

/* What to run, and where. Zero-initialise it ({0}) and set what you need: zeros mean defaults,
 * so a program rebuilt against a later header with more fields gets what it got before. The
 * soname's major version changes whenever the struct's layout does. */
typedef struct confetti_desc {
  /* The effect: at most one of the three. None: the preset "confetti". */
  const char *preset; /* a preset's name: confetti, cannon, snow, fireworks, fire, ... */
  const char *json;   /* a configuration as JSON text (`confetti presets show snow` prints one);
                       * it has no folder, so the images it names must be named in full */
  const char *path;   /* a configuration file; its images are found beside it */
  /* The area the effect lives in, in points: greater than 0, at most 1048576. Required. */
  double width;
  double height;
  /* The most particles alive at once; beyond it, the oldest make way. 0: enough for one firing
   * of every emitter with room to spare. More than one GL buffer holds (about 31 million) is
   * CONFETTI_ERROR_GL; each particle takes 68 bytes of GPU memory and about as much of the
   * program's. */
  int64_t capacity;
  /* Every random draw comes from it, so a run can be repeated exactly. 0: the default seed, 1,
   * which the confetti program uses too. */
  uint64_t seed;
  /* CONFETTI_REDUCE_MOTION, CONFETTI_CACHE_GL_STATE, one of CONFETTI_POINTS,
   * CONFETTI_INSTANCED_POINTS and CONFETTI_QUADS, or 0. */
  uint32_t flags;
} confetti_desc;

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *confetti_version(void);

/* What the last call on this thread that returned an error was refused for, in one line of
 * UTF-8; "" when it succeeded. Valid until the next confetti call on this thread. */
const char *confetti_last_error(void);

/* Makes a system running `desc`'s effect on the current GL context, into *system (left as it
 * was on failure). Needs the context current. Builds its shaders here, not mid-effect. */
confetti_status confetti_create(const confetti_desc *desc, confetti_system **system);

/* Deletes the system's GL objects and flushes the GL, so that the driver frees them now (the
 * context it was made on must be current; with none current they are left, with the few bytes
 * that name them, for the context's own destruction), and the particles, and ends the handle. */
confetti_status confetti_close(confetti_system *system);

/* Starts every emitter with `trigger` at clock reading `time`, at its configured place.
 * Bursts are born at once; timed and continuous emitters go on emitting as the clock moves. */
confetti_status confetti_trigger(
    confetti_system *system, confetti_trigger_type trigger, double time);

/* The same, at (x, y) in points from the top-left corner: a click's place, which may lie
 * outside the area (within 1048576 points of its corner). */
confetti_status confetti_trigger_at(
    confetti_system *system, confetti_trigger_type trigger, double x, double y, double time);

/* Fires what opens the effect, as the confetti program's window, overlay and render open it:
 * its start emitters, or, where it has none, its key ones (or its click ones, at their
 * configured places). `confetti render --time T` of an effect opened at reading R is what
 * confetti_draw draws at R + T. */
confetti_status confetti_fire_opening(confetti_system *system, double time);

/* Stops every emitter from emitting any more (a continuous effect's end: its last pieces live
 * out their lives). */
confetti_status confetti_stop_emitting(confetti_system *system);

/* Emits what the running emitters owe up to `time` and frees what has ended by then, without
 * drawing (a minimised window). confetti_draw does this itself. One call covers at most one
 * second of emission, as after a stall (a window left minimised makes up one second, not an
 * hour): a host that jumps further ahead in one call gets fewer pieces than one that advances
 * in frame-sized steps, and the time skipped is not counted as dropped. One call also makes
 * at most 20,000 pieces; those beyond are counted (confetti_dropped_count). */
confetti_status confetti_advance(confetti_system *system, double time);

/* Draws the effect as it is at clock reading `time` into the rectangle (x, y, width, height) of
 * the bound framebuffer, in pixels from its bottom-left corner. Advances emission to `time`
 * first (also when the GL then fails). Needs the context current; leaves its state as it was
 * (with CONFETTI_CACHE_GL_STATE, as the system needs it). A rectangle of no area draws
 * nothing. */
confetti_status confetti_draw(
    confetti_system *system, int x, int y, int width, int height, double time);

/* Changes the state policy after creation: nonzero, the system keeps the GL state it sets
 * between draws (as CONFETTI_CACHE_GL_STATE at creation); 0, it saves and restores the host's
 * state around each draw. Needs no GL context. */
confetti_status confetti_set_cache_gl_state(confetti_system *system, int cache);

/* The colour the pieces are drawn over, where the host knows it: sRGB components from 0 to 1.
 * Over a light one (a white page, a light window), additive light (fire, sparks, glows) is made
 * vivid, its white taken out, so that it shows where added to white it would not; over a dark
 * one (0, 0, 0, the default) light adds. Needs no GL context: the next draw sends it. */
confetti_status confetti_set_backdrop(
    confetti_system *system, double red, double green, double blue);

/* With CONFETTI_CACHE_GL_STATE: the host changed the context's GL state since the last draw
 * (drew with state of its own, or made another context current and back), so the next draw
 * sets all of its own again. Needs no GL context. Without the flag it does nothing. */
confetti_status confetti_reset_gl_state_cache(confetti_system *system);

/* Changes the area the effect lives in (a resized window), in points: greater than 0, at most
 * 1048576. A minimised window keeps its last size rather than passing 0. */
confetti_status confetti_resize(confetti_system *system, double width, double height);

/* Forgets every particle and stops every emitter; with keep_start_emitters, the effect's own
 * start emitters (a fire's flames, falling snow) go on. */
confetti_status confetti_clear(confetti_system *system, bool keep_start_emitters);

/* *alive: whether anything is, or may yet be, drawn at or after `time` (a visible particle, or
 * an emitter still emitting). A host that loops until it is false ends with the effect. */
confetti_status confetti_is_alive(const confetti_system *system, double time, bool *alive);

/* *end_time: the clock reading from which nothing is drawn any more, exact to 2^-20 s;
 * +INFINITY while an emitter is still emitting; -INFINITY when the system holds no particle
 * (none born, all cleared, or all ended and freed: a reading before they ended then draws
 * nothing either, as confetti_advance frees what has ended). */
confetti_status confetti_end_time(const confetti_system *system, double *end_time);

/* *count: how many particles are visible at `time`: born by then (a trigger writes some born
 * later, a shell's sparks) and not yet gone. */
confetti_status confetti_alive_count(const confetti_system *system, double time, int64_t *count);

/* *capacity: the most particles the system holds alive at once (desc.capacity, or the
 * effect's own when that was 0); beyond it, the oldest make way. */
confetti_status confetti_capacity(const confetti_system *system, int64_t *capacity);

/* *has: whether the effect has emitters that `trigger` starts (a host without a key to press
 * or a click to make can tell what it would miss). */
confetti_status confetti_has_trigger(
    const confetti_system *system, confetti_trigger_type trigger, bool *has);

/* *count: how many pieces the effect promised but the system does not show, since it was made:
 * those the full ring let go of before their end to make way for newer ones (the oldest make way:
 * desc.capacity is too small for the effect), and those owed beyond the 20,000 one advance
 * makes. 0 while everything promised is drawn. Time a call skips beyond its one second is not
 * counted (see confetti_advance). */
confetti_status confetti_dropped_count(const confetti_system *system, int64_t *count);

/* CELEBRATE. The effect thrown over the whole desktop, as `confetti overlay` throws it:
 * transparent, on top, every click and key passing through to the windows below, until its
 * last piece is gone (the celebrate preset: about 4 s). It needs no GL context of the host's:
 * it runs as a process of its own, the confetti program (found through $CONFETTI_PROGRAM,
 * beside libconfetti, as ../bin/confetti or ../../bin/confetti from it, or on PATH), so that
 * the host keeps its windows, contexts and signals and nothing the window system does can end
 * it. The overlay ends when the host ends, even killed. Where it cannot be shown (no desktop, no compositing window manager) the call returns
 * CONFETTI_ERROR_DESKTOP with the reason. Zeros mean defaults. */
typedef struct confetti_celebrate_options {
  /* The effect: at most one of the three, as in confetti_desc. None: the preset "celebrate". */
  const char *preset;
  const char *json;
  const char *path;
  /* Every random draw comes from it. 0: 1. */
  uint64_t seed;
  /* The monitor to cover, from 1. 0: the primary. */
  int32_t monitor;
  /* How long a continuous effect (snow, rain) is on the screen, in seconds, 0.1 to 86400: it
   * fades out over its last second, and is gone by then. 0: 10. One-off effects end by
   * themselves. */
  double duration;
  /* CONFETTI_REDUCE_MOTION or CONFETTI_FULL_MOTION (with neither, the desktop's own setting
   * for fewer animations is followed), CONFETTI_LOOP. */
  uint32_t flags;
} confetti_celebrate_options;

/* A celebration under way. Opaque: made by confetti_celebration_start, ended by
 * confetti_celebration_close. */
typedef struct confetti_celebration confetti_celebration;

/* Celebrates and returns once it is over. `options` may be NULL: the defaults. CONFETTI_LOOP,
 * which never ends by itself, is refused (CONFETTI_ERROR_ARGUMENT): loop with
 * confetti_celebration_start and end it with confetti_celebration_cancel. */
confetti_status confetti_celebrate(const confetti_celebrate_options *options);

/* Starts a celebration into *celebration and returns at once. */
confetti_status confetti_celebration_start(
    const confetti_celebrate_options *options, confetti_celebration **celebration);

/* Waits until it is over or `timeout` seconds have passed (a negative timeout: as long as it
 * takes); *over says which (it may be NULL). Returns the celebration's failure, if it failed
 * (CONFETTI_ERROR_DESKTOP, *over true), once it is over. */
confetti_status confetti_celebration_wait(
    confetti_celebration *celebration, double timeout, bool *over);

/* Waits until its first frame is on the screen (*shown true), it has ended (*shown false; its
 * failure is returned, as confetti_celebration_wait returns it), or `timeout` seconds have
 * passed (*shown false; a negative timeout: as long as it takes): what `confetti run` waits for
 * before it gives the shell back. `shown` may be NULL. */
confetti_status confetti_celebration_wait_shown(
    confetti_celebration *celebration, double timeout, bool *shown);

/* Ends it now, if it still runs; a later wait returns CONFETTI_OK (or the failure it had
 * already had). */
confetti_status confetti_celebration_cancel(confetti_celebration *celebration);

/* Ends it if it still runs (killed if it has not ended 2 s after being asked), waits for that,
 * and ends the handle. */
confetti_status confetti_celebration_close(confetti_celebration *celebration);

/* RENDER. An effect written to a file, as `confetti render` writes it: one picture (.png), a
 * numbered sequence (NAME-0000.png, ...), or an animation (.gif, .webm, .mp4, .mov, made by
 * the ffmpeg program). It needs no GL context of the host's: the frames are drawn on a
 * headless one of the library's own, on a thread of its own, so the calling thread's context
 * and GL state are left alone. Nothing is written over the effect's own files; a failure
 * leaves nothing under the name (a sequence keeps the pictures it finished, and says so).
 * Zeros mean defaults. */

/* Told after each frame, on the calling thread: `done` of `total` frames written. Return 0 to
 * go on, anything else to stop the render (it returns CONFETTI_STOPPED). */
typedef int (*confetti_progress_callback)(int64_t done, int64_t total, void *user);

typedef struct confetti_render_options {
  /* The effect: at most one of the three, as in confetti_desc. None: the preset "confetti". */
  const char *preset;
  const char *json;
  const char *path;
  /* The file to write: .png, .gif, .webm, .mp4 or .mov. Required. */
  const char *out;
  /* The picture's size in pixels. 0: 800 x 600 for pictures, 1280 x 720 for an animation. */
  int32_t width;
  int32_t height;
  /* Pixels per point, 1 to 8 (2: a HiDPI picture of the same scene). 0: 1. */
  int32_t scale;
  /* The first frame's moment, in seconds after the effect starts, 0 to 3600. 0: 0 for a clip
   * (from the effect's first moment), 0.6 for one picture (its pieces in flight), as in every
   * language and `confetti render`; with CONFETTI_AT_TIME, 0 itself. */
  double time;
  /* How many frames the sequence has, 1 to 100000. 0: one picture for a .png, and for an
   * animation as many as the effect lasts (as with CONFETTI_UNTIL_OVER). */
  int64_t frames;
  /* Frames per second of a sequence. 0: 30. */
  double fps;
  /* Only frames first_frame to end_frame - 1 of the sequence, numbered as in the whole (a long
   * sequence split across processes). Both 0: all. */
  int64_t first_frame;
  int64_t end_frame;
  /* "transparent", "#rrggbb" or "#rrggbbaa". NULL: the program's dark backdrop, #12141c. */
  const char *background;
  /* Every random draw comes from it. 0: 1. */
  uint64_t seed;
  /* CONFETTI_REDUCE_MOTION, CONFETTI_UNTIL_OVER, CONFETTI_BEST_QUALITY, CONFETTI_AT_TIME,
   * CONFETTI_CHECK_FLASHES, one of CONFETTI_POINTS, CONFETTI_INSTANCED_POINTS and
   * CONFETTI_QUADS, or 0. */
  uint32_t flags;
  /* Told after each frame (NULL: not told), with `user`. */
  confetti_progress_callback progress;
  void *user;
} confetti_render_options;

/* Renders as `options` say and returns once the files are written. */
confetti_status confetti_render(const confetti_render_options *options);

/* DEPRECATED NAMES. Each concept has one name in C, Swift and Python (close, resize); the names
 * before 0.6 stay for one release, and warn where the compiler can. */
#if defined(__GNUC__) || defined(__clang__)
#define CONFETTI_DEPRECATED(instead) __attribute__((deprecated("use " instead)))
#else
#define CONFETTI_DEPRECATED(instead)
#endif
CONFETTI_DEPRECATED("confetti_close")
confetti_status confetti_destroy(confetti_system *system);
CONFETTI_DEPRECATED("confetti_resize")
confetti_status confetti_set_size(confetti_system *system, double width, double height);
CONFETTI_DEPRECATED("confetti_celebration_close")
confetti_status confetti_celebration_destroy(confetti_celebration *celebration);

#ifdef __cplusplus
}
#endif

#endif /* CONFETTI_H */
