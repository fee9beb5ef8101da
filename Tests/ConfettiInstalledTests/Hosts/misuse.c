/* A host that calls libconfetti with nonsense: every call must return the status confetti.h
 * promises, with a message, and the library must print nothing and never stop the program.
 * Prints one line per failed expectation and "N passed, N failed" last; exits 1 on a failure.
 *
 *   cc misuse.c -o misuse $(pkg-config --cflags --libs confetti epoxy)
 */
#include <confetti.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "expectations.h"
#include "surfaceless.h"


static void expect(const char *what, confetti_status got, confetti_status wanted) {
  const char *message = confetti_last_error();
  int message_right = wanted == CONFETTI_OK ? message[0] == '\0' : message[0] != '\0';
  if (got == wanted && message_right && !strchr(message, '\n')) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s: status %d (wanted %d), message \"%s\"\n", what, got, wanted, message);
  }
}


static EGLContext context;

/* Another context's own objects, as a fresh context numbers them: the names a system made on
 * the first context has. */
typedef struct {
  GLuint arrays[16], buffers[32], textures[16];
} own_objects;

static void make_objects(own_objects *objects) {
  glGenVertexArrays(16, objects->arrays);
  glGenBuffers(32, objects->buffers);
  glGenTextures(16, objects->textures);
  for (int i = 0; i < 32; i++) {
    if (i < 16) glBindVertexArray(objects->arrays[i]), glBindTexture(GL_TEXTURE_2D, objects->textures[i]);
    glBindBuffer(GL_ARRAY_BUFFER, objects->buffers[i]);
  }
  glBindVertexArray(0), glBindBuffer(GL_ARRAY_BUFFER, 0), glBindTexture(GL_TEXTURE_2D, 0);
}

/* How many of them the current context no longer has. */
static int missing_objects(const own_objects *objects) {
  int missing = 0;
  for (int i = 0; i < 32; i++) {
    if (i < 16) missing += !glIsVertexArray(objects->arrays[i]) + !glIsTexture(objects->textures[i]);
    missing += !glIsBuffer(objects->buffers[i]);
  }
  return missing;
}

/* Threads that break the one-thread rule: each call is done, or refused as busy. */
static confetti_system *shared_system;
static int thread_statuses[2][16];

static void *hammer(void *which) {
  int *counts = thread_statuses[*(int *)which];
  for (int i = 0; i < 20000; i++) {
    confetti_status status =
        confetti_trigger_at(shared_system, CONFETTI_TRIGGER_CLICK, i % 320, i % 240, 1.0 + i * 1e-4);
    counts[status < 16 ? status : 15]++;
  }
  return NULL;
}

int main(void) {
  confetti_desc good = {0};
  good.preset = "classic-cannon";
  good.width = 320;
  good.height = 240;
  confetti_system *system = NULL;
  confetti_system *made_up = (confetti_system *)(uintptr_t)0x5eed;
  double nan = NAN, inf = INFINITY;

  expect("version", strcmp(confetti_version(), CONFETTI_VERSION) == 0 ? CONFETTI_OK : 99,
         CONFETTI_OK);

  /* No context current yet. */
  expect("create without a context", confetti_create(&good, &system), CONFETTI_ERROR_GL);
  context = surfaceless_context(EGL_NO_CONTEXT);
  if (context == EGL_NO_CONTEXT) return printf("FAIL no EGL context for the test\n"), 1;
  surfaceless_make_current(context);
  GLuint framebuffer = surfaceless_framebuffer(320, 240);

  /* Descriptions. */
  expect("null description", confetti_create(NULL, &system), CONFETTI_ERROR_ARGUMENT);
  expect("null result", confetti_create(&good, NULL), CONFETTI_ERROR_ARGUMENT);
  confetti_desc bad = good;
  bad.preset = "no-such-preset";
  expect("unknown preset", confetti_create(&bad, &system), CONFETTI_ERROR_EFFECT);
  bad = good, bad.preset = NULL, bad.json = "{\"emitters\": [";
  expect("malformed JSON", confetti_create(&bad, &system), CONFETTI_ERROR_EFFECT);
  bad = good, bad.preset = NULL, bad.json = "{\"emitters\": 3}";
  expect("JSON of the wrong shape", confetti_create(&bad, &system), CONFETTI_ERROR_EFFECT);
  bad = good, bad.preset = "snow\nand more";
  expect("a preset name over two lines", confetti_create(&bad, &system), CONFETTI_ERROR_EFFECT);
  bad = good, bad.preset = NULL;
  bad.json = "{\"emitters\": [{\"cells\": [{\"shapes\": [{\"text\": \"\\n\\n\"}]}]}]}";
  expect("a text shape of newlines", confetti_create(&bad, &system), CONFETTI_ERROR_EFFECT);
  bad = good, bad.preset = NULL, bad.path = "/no/such/file.json";
  expect("missing file", confetti_create(&bad, &system), CONFETTI_ERROR_EFFECT);
  bad = good, bad.preset = NULL, bad.path = "/dev/zero";
  expect("a device as the file", confetti_create(&bad, &system), CONFETTI_ERROR_EFFECT);
  bad = good, bad.json = "{}";
  expect("two effects at once", confetti_create(&bad, &system), CONFETTI_ERROR_ARGUMENT);
  double sizes[][2] = {{0, 240}, {320, 0}, {-1, 240}, {320, -5}, {nan, 240}, {inf, 240}};
  for (int i = 0; i < 6; i++) {
    bad = good, bad.width = sizes[i][0], bad.height = sizes[i][1];
    expect("bad size", confetti_create(&bad, &system), CONFETTI_ERROR_ARGUMENT);
  }
  bad = good, bad.capacity = -1;
  expect("negative capacity", confetti_create(&bad, &system), CONFETTI_ERROR_ARGUMENT);
  bad = good, bad.capacity = INT64_MAX;
  expect("capacity past any buffer", confetti_create(&bad, &system), CONFETTI_ERROR_GL);
  bad = good, bad.flags = 0x10000;
  expect("unknown flag", confetti_create(&bad, &system), CONFETTI_ERROR_ARGUMENT);
  bad = good, bad.flags = CONFETTI_POINTS | CONFETTI_QUADS;
  expect("two primitives", confetti_create(&bad, &system), CONFETTI_ERROR_ARGUMENT);
  bad = good, bad.flags = CONFETTI_AT_TIME;
  expect("a render's flag", confetti_create(&bad, &system), CONFETTI_ERROR_ARGUMENT);
  bad = good, bad.width = 1.5e308;
  expect("a finite size past any screen", confetti_create(&bad, &system), CONFETTI_ERROR_ARGUMENT);
  bad = good, bad.width = 1048577;
  expect("one point past the largest side", confetti_create(&bad, &system),
         CONFETTI_ERROR_ARGUMENT);
  if (system != NULL) printf("FAIL a refused create wrote a system\n"), failed++;

  /* The latest reading a host may give, with fireworks whose sparks are born lifetimes later. */
  confetti_desc fireworks = good;
  fireworks.preset = "fireworks";
  confetti_system *late = NULL;
  const double latest = 8796093022208.0 - 2400.0;
  expect("create fireworks", confetti_create(&fireworks, &late), CONFETTI_OK);
  expect("the first reading too late", confetti_trigger(late, CONFETTI_TRIGGER_START, latest),
         CONFETTI_ERROR_ARGUMENT);
  expect("the latest reading", confetti_trigger(late, CONFETTI_TRIGGER_START, latest - 12),
         CONFETTI_OK);
  int64_t most = 0; /* fireworks' shells burst some seconds in */
  for (double t = latest - 12; t < latest - 1; t += 0.25) {
    int64_t alive_now = 0;
    confetti_advance(late, t);
    confetti_alive_count(late, t, &alive_now);
    most = alive_now > most ? alive_now : most;
  }
  expect("drawn at the latest reading", confetti_draw(late, 0, 0, 320, 240, latest - 1),
         CONFETTI_OK);
  if (most < 100)
    printf("FAIL at most %lld sparks alive near the latest reading\n", (long long)most), failed++;
  /* Light is drawn through a layer of its own, which covers only what can show: once as wide
     as the rectangle, when the GL aborted on a texture 10^8 pixels wide. */
  expect("the widest rectangle, with light",
         confetti_draw(late, 0, 0, INT32_MAX, INT32_MAX, latest - 1), CONFETTI_OK);
  expect("a rectangle 10^8 pixels wide, with light",
         confetti_draw(late, 0, 0, 100000000, 1, latest - 1), CONFETTI_OK);
  expect("destroy fireworks", confetti_close(late), CONFETTI_OK);

  /* A good system, then everything wrong that can be said to it. */
  expect("create", confetti_create(&good, &system), CONFETTI_OK);
  expect("trigger", confetti_trigger(system, CONFETTI_TRIGGER_KEY, 1), CONFETTI_OK);
  expect("unknown trigger", confetti_trigger(system, (confetti_trigger_type)7, 1),
         CONFETTI_ERROR_ARGUMENT);
  double times[] = {nan, -1, inf, -inf, 1e300};
  for (int i = 0; i < 5; i++) {
    expect("bad time: trigger", confetti_trigger(system, CONFETTI_TRIGGER_START, times[i]),
           CONFETTI_ERROR_ARGUMENT);
    expect("bad time: advance", confetti_advance(system, times[i]), CONFETTI_ERROR_ARGUMENT);
    expect("bad time: draw", confetti_draw(system, 0, 0, 320, 240, times[i]),
           CONFETTI_ERROR_ARGUMENT);
  }
  expect("bad place", confetti_trigger_at(system, CONFETTI_TRIGGER_CLICK, nan, 3, 1),
         CONFETTI_ERROR_ARGUMENT);
  expect("negative rectangle", confetti_draw(system, 0, 0, -1, 240, 1.5),
         CONFETTI_ERROR_ARGUMENT);
  expect("empty rectangle", confetti_draw(system, 0, 0, 0, 0, 1.5), CONFETTI_OK);
  expect("a rectangle at the ends of int",
         confetti_draw(system, INT32_MIN, INT32_MIN, 320, 240, 1.5), CONFETTI_OK);
  expect("the widest rectangle", confetti_draw(system, 0, 0, INT32_MAX, INT32_MAX, 1.5),
         CONFETTI_OK);
  expect("a place past any screen",
         confetti_trigger_at(system, CONFETTI_TRIGGER_CLICK, 1e300, 3, 1),
         CONFETTI_ERROR_ARGUMENT);
  expect("zero size", confetti_resize(system, 0, 0), CONFETTI_ERROR_ARGUMENT);
  expect("NaN size", confetti_resize(system, nan, 10), CONFETTI_ERROR_ARGUMENT);
  expect("null answer", confetti_is_alive(system, 1, NULL), CONFETTI_ERROR_ARGUMENT);
  expect("null answer", confetti_end_time(system, NULL), CONFETTI_ERROR_ARGUMENT);
  expect("null answer", confetti_alive_count(system, 1, NULL), CONFETTI_ERROR_ARGUMENT);
  expect("null answer", confetti_dropped_count(system, NULL), CONFETTI_ERROR_ARGUMENT);
  expect("draw", confetti_draw(system, 0, 0, 320, 240, 1.5), CONFETTI_OK);
  int64_t count = -1;
  expect("alive count", confetti_alive_count(system, 1.5, &count), CONFETTI_OK);
  if (count != 30) printf("FAIL the cannon shot %lld pieces, not 30\n", (long long)count), failed++;
  expect("dropped count", confetti_dropped_count(system, &count), CONFETTI_OK);
  if (count != 0) printf("FAIL %lld of the shot's pieces dropped\n", (long long)count), failed++;
  bool alive = false;
  expect("is alive", confetti_is_alive(system, 1.5, &alive), CONFETTI_OK);
  if (!alive) printf("FAIL the shot is not alive mid-flight\n"), failed++;
  double end = 0;
  expect("end time", confetti_end_time(system, &end), CONFETTI_OK);
  if (!(end > 1.5 && end < 60)) printf("FAIL the shot ends at %g\n", end), failed++;

  /* Drawing with no context current. */
  surfaceless_make_current(EGL_NO_CONTEXT);
  expect("draw without a context", confetti_draw(system, 0, 0, 320, 240, 1.6), CONFETTI_ERROR_GL);
  expect("advance needs none", confetti_advance(system, 1.6), CONFETTI_OK);
  surfaceless_make_current(context);

  /* Keeping its own GL state: the same calls, a reset, and the context still checked. */
  confetti_desc cached = good;
  cached.flags = CONFETTI_CACHE_GL_STATE;
  confetti_system *keeper = NULL;
  expect("create, keeping its state", confetti_create(&cached, &keeper), CONFETTI_OK);
  expect("kept: trigger", confetti_trigger(keeper, CONFETTI_TRIGGER_KEY, 1), CONFETTI_OK);
  expect("kept: draw", confetti_draw(keeper, 0, 0, 320, 240, 1.5), CONFETTI_OK);
  expect("kept: a steady draw", confetti_draw(keeper, 0, 0, 320, 240, 1.6), CONFETTI_OK);
  expect("kept: reset", confetti_reset_gl_state_cache(keeper), CONFETTI_OK);
  expect("kept: draw after the reset", confetti_draw(keeper, 0, 0, 320, 240, 1.7), CONFETTI_OK);
  surfaceless_make_current(EGL_NO_CONTEXT);
  expect("kept: draw without a context", confetti_draw(keeper, 0, 0, 320, 240, 1.8),
         CONFETTI_ERROR_GL);
  surfaceless_make_current(context);
  expect("kept: destroy", confetti_close(keeper), CONFETTI_OK);
  expect("reset a destroyed system", confetti_reset_gl_state_cache(keeper), CONFETTI_ERROR_HANDLE);
  expect("reset null", confetti_reset_gl_state_cache(NULL), CONFETTI_ERROR_HANDLE);
  expect("policy of null", confetti_set_cache_gl_state(NULL, 1), CONFETTI_ERROR_HANDLE);
  expect("policy of a destroyed system", confetti_set_cache_gl_state(keeper, 0),
         CONFETTI_ERROR_HANDLE);

  /* Two threads trigger while this one draws the same system: never a crash or a corrupted
   * ring, each call done or refused with CONFETTI_ERROR_BUSY. */
  shared_system = system;
  pthread_t threads[2];
  int which[2] = {0, 1};
  for (int t = 0; t < 2; t++) pthread_create(&threads[t], NULL, hammer, &which[t]);
  int drawn[16] = {0};
  for (int i = 0; i < 300; i++) {
    confetti_status status = confetti_draw(system, 0, 0, 320, 240, 1.0 + i * 0.01);
    drawn[status < 16 ? status : 15]++;
  }
  for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
  int done = drawn[CONFETTI_OK], busy = drawn[CONFETTI_ERROR_BUSY], other = 300 - done - busy;
  for (int t = 0; t < 2; t++) {
    done += thread_statuses[t][CONFETTI_OK];
    busy += thread_statuses[t][CONFETTI_ERROR_BUSY];
    other += 20000 - thread_statuses[t][CONFETTI_OK] - thread_statuses[t][CONFETTI_ERROR_BUSY];
  }
  if (other != 0 || done == 0) {
    printf("FAIL threads: %d done, %d busy, %d other\n", done, busy, other);
    failed++;
  } else {
    passed++;
  }
  expect("after the threads: draw", confetti_draw(system, 0, 0, 320, 240, 4), CONFETTI_OK);
  expect("after the threads: advance", confetti_advance(system, 5), CONFETTI_OK);

  /* A framebuffer with nothing attached, and none at all (the surfaceless default): the draw
   * of pieces in flight says so, and leaves no GL error for the host. */
  expect("another shot", confetti_trigger(system, CONFETTI_TRIGGER_KEY, 4), CONFETTI_OK);
  GLuint empty = 0;
  glGenFramebuffers(1, &empty);
  GLuint unusable[2] = {empty, 0};
  for (int i = 0; i < 2; i++) {
    glBindFramebuffer(GL_FRAMEBUFFER, unusable[i]);
    expect(i ? "no framebuffer: draw" : "an empty framebuffer: draw",
           confetti_draw(system, 0, 0, 320, 240, 4.1), CONFETTI_ERROR_GL);
    check("an unusable framebuffer's draw leaves no GL error", glGetError() == GL_NO_ERROR);
    check("an unusable framebuffer's status is named",
          strstr(confetti_last_error(), i ? "FRAMEBUFFER_UNDEFINED" : "MISSING_ATTACHMENT") != NULL);
  }
  glDeleteFramebuffers(1, &empty);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);

  /* Another context current, one of the host's own and one that shares this one's objects:
   * a draw is refused (vertex arrays are never shared) and draws nothing, and a destroy deletes
   * nothing of that context's own objects, whose names are the system's. */
  for (int sharing = 0; sharing < 2; sharing++) {
    confetti_system *elsewhere = NULL;
    expect("made for another context", confetti_create(&good, &elsewhere), CONFETTI_OK);
    expect("its shot", confetti_trigger(elsewhere, CONFETTI_TRIGGER_KEY, 1), CONFETTI_OK);
    expect("drawn on its own", confetti_draw(elsewhere, 0, 0, 320, 240, 1.0), CONFETTI_OK);
    EGLContext other = surfaceless_context(sharing ? context : EGL_NO_CONTEXT);
    surfaceless_make_current(other);
    GLuint other_framebuffer = surfaceless_framebuffer(320, 240);
    own_objects objects;
    make_objects(&objects);
    expect(sharing ? "a sharing context: draw" : "another context: draw",
           confetti_draw(elsewhere, 0, 0, 320, 240, 1.1), CONFETTI_ERROR_GL);
    check("the other context's draw leaves no GL error", glGetError() == GL_NO_ERROR);
    expect(sharing ? "a sharing context: destroy" : "another context: destroy",
           confetti_close(elsewhere), CONFETTI_OK);
    check(sharing ? "a sharing context keeps its objects" : "another context keeps its objects",
          missing_objects(&objects) == 0);
    glDeleteFramebuffers(1, &other_framebuffer);
    surfaceless_make_current(context);
    eglDestroyContext(surfaceless_display, other);
  }
  expect("back on its own context: draw", confetti_draw(system, 0, 0, 320, 240, 4.2), CONFETTI_OK);

  /* Handles that are not live systems. */
  expect("null system", confetti_draw(NULL, 0, 0, 1, 1, 1), CONFETTI_ERROR_HANDLE);
  expect("made-up system", confetti_advance(made_up, 1), CONFETTI_ERROR_HANDLE);
  expect("destroy", confetti_close(system), CONFETTI_OK);
  expect("destroyed: draw", confetti_draw(system, 0, 0, 320, 240, 2), CONFETTI_ERROR_HANDLE);
  expect("destroyed: trigger", confetti_trigger(system, CONFETTI_TRIGGER_KEY, 2),
         CONFETTI_ERROR_HANDLE);
  expect("destroyed twice", confetti_close(system), CONFETTI_ERROR_HANDLE);
  expect("destroy null", confetti_close(NULL), CONFETTI_ERROR_HANDLE);

  /* A new system never gets an old handle; one destroyed without a context current goes too. */
  confetti_system *second = NULL;
  expect("create again", confetti_create(&good, &second), CONFETTI_OK);
  if (second == system) printf("FAIL a new system got a destroyed one's handle\n"), failed++;
  surfaceless_make_current(EGL_NO_CONTEXT);
  expect("destroy without a context", confetti_close(second), CONFETTI_OK);

  /* A system whose context the host destroyed and whose display it terminated while the
   * context was current: EGL keeps a current context until it is released, so the system may
   * still be drawn, and destroy ends the handle; neither aborts the program (libepoxy asserts
   * when it cannot find the context a GL call needs). */
  surfaceless_make_current(context);
  confetti_system *orphan = NULL;
  expect("create, to orphan", confetti_create(&good, &orphan), CONFETTI_OK);
  expect("orphan: draw", confetti_draw(orphan, 0, 0, 320, 240, 1.5), CONFETTI_OK);
  eglDestroyContext(surfaceless_display, context);
  eglTerminate(surfaceless_display);
  confetti_status orphan_drawn = confetti_draw(orphan, 0, 0, 320, 240, 1.6);
  if (orphan_drawn != CONFETTI_OK && orphan_drawn != CONFETTI_ERROR_GL) {
    printf("FAIL draw on a destroyed context: status %d\n", orphan_drawn);
    failed++;
  } else {
    passed++;
  }
  expect("destroy on a destroyed context", confetti_close(orphan), CONFETTI_OK);

  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
