/* gtk4: confetti over a GTK 4 program's own scene, in a GtkGLArea (a backdrop and a stage along
 * the bottom). A click throws a burst where it lands, space fires the effect's cannons again,
 * esc quits.
 *
 *   cc main.c -o gtk4-confetti $(pkg-config --cflags --libs confetti gtk4 epoxy)
 *   ./gtk4-confetti [PRESET] [--seed N] [--seconds S] [--snapshot OUT.png --at T]
 *
 * --seed picks the random draws (default 1); --seconds quits after that long (default: when
 * the window is closed); --snapshot draws the moment T seconds after the effect opened (default
 * 0.5), saves the area's pixels as a PNG and quits: `confetti render --preset PRESET --size
 * 960x540 --seed N --time T --background '#1a1f33'` is the same picture above the stage.
 */
#include <confetti.h>
#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
  const char *preset, *snapshot;
  double seconds, at, clock; /* clock: 1 s when the effect opens, as `confetti render` opens it */
  gint64 start;              /* the frame clock's first reading, in microseconds */
  guint64 seed;
  confetti_system *confetti;
  GtkWidget *window;
  bool saved; /* the snapshot */
  int status;
} app = {.preset = "confetti", .at = 0.5, .clock = 1.0, .start = -1, .seed = 1};

/* Closes the window once GTK is back in its loop, not inside one of its signals (before its
 * next frame: an idle of the default priority would wait behind the frames). */
static gboolean close_window(gpointer data) {
  (void)data;
  GtkWidget *window = app.window;
  app.window = NULL;
  if (window) gtk_window_destroy(GTK_WINDOW(window));
  return G_SOURCE_REMOVE;
}

static void close_soon(void) {
  if (app.window) g_idle_add_full(G_PRIORITY_HIGH, close_window, NULL, NULL);
}

static void fail(const char *what, const char *why) {
  fprintf(stderr, "gtk4-confetti: %s: %s\n", what, why);
  app.status = 1;
  close_soon();
}

/* Set up: GTK has made the area's context, 3.3 core as asked; it must be current here. */
static void on_realize(GtkGLArea *area) {
  gtk_gl_area_make_current(area);
  GError *error = gtk_gl_area_get_error(area);
  if (error) return fail("no OpenGL 3.3", error->message);
  GtkWidget *widget = GTK_WIDGET(area);
  confetti_desc desc = {.preset = app.preset, .seed = app.seed};
  desc.width = gtk_widget_get_width(widget) > 0 ? gtk_widget_get_width(widget) : 960;
  desc.height = gtk_widget_get_height(widget) > 0 ? gtk_widget_get_height(widget) : 540;
  if (confetti_create(&desc, &app.confetti) != CONFETTI_OK)
    return fail(app.preset, confetti_last_error());
  confetti_fire_opening(app.confetti, app.clock);
}

/* The area's size in points (GTK sizes its framebuffer in pixels itself). */
static void on_resize(GtkGLArea *area, int pixels_wide, int pixels_high) {
  (void)pixels_wide, (void)pixels_high;
  int width = gtk_widget_get_width(GTK_WIDGET(area));
  int height = gtk_widget_get_height(GTK_WIDGET(area));
  if (app.confetti && width > 0 && height > 0) confetti_resize(app.confetti, width, height);
}

/* The area's framebuffer in pixels (bottom row first) as a PNG (top row first). */
static gboolean save_png(const char *path, int width, int height) {
  guchar *pixels = g_malloc((gsize)width * height * 4), *rows = g_malloc((gsize)width * height * 4);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  for (int y = 0; y < height; y++)
    memcpy(rows + (gsize)y * width * 4, pixels + (gsize)(height - 1 - y) * width * 4, width * 4);
  g_free(pixels);
  GBytes *bytes = g_bytes_new_take(rows, (gsize)width * height * 4);
  GdkTexture *texture =
      gdk_memory_texture_new(width, height, GDK_MEMORY_R8G8B8A8, bytes, (gsize)width * 4);
  gboolean saved = gdk_texture_save_to_png(texture, path);
  g_object_unref(texture), g_bytes_unref(bytes);
  return saved;
}

/* GTK has made the context current and bound the area's framebuffer: the scene, then the
 * confetti over it, at the area's size in pixels. */
static gboolean on_render(GtkGLArea *area, GdkGLContext *context) {
  (void)context;
  if (!app.confetti) return TRUE;
  GtkWidget *widget = GTK_WIDGET(area);
  int scale = gtk_widget_get_scale_factor(widget);
  int pixels_wide = gtk_widget_get_width(widget) * scale;
  int pixels_high = gtk_widget_get_height(widget) * scale;
  glClearColor(26 / 255.0f, 31 / 255.0f, 51 / 255.0f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, pixels_wide, 60 * scale);
  glClearColor(200 / 255.0f, 160 / 255.0f, 60 / 255.0f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  if (confetti_draw(app.confetti, 0, 0, pixels_wide, pixels_high, app.clock) != CONFETTI_OK) {
    fail("draw", confetti_last_error());
  } else if (app.snapshot && !app.saved) {
    app.saved = true;
    if (save_png(app.snapshot, pixels_wide, pixels_high))
      printf("saved %s at %g s\n", app.snapshot, app.at);
    else
      app.status = 1, fprintf(stderr, "gtk4-confetti: %s: not written\n", app.snapshot);
    close_soon();
  }
  return TRUE;
}

/* Tear down: the effect's GL objects go while its context is current. */
static void on_unrealize(GtkGLArea *area) {
  gtk_gl_area_make_current(area);
  if (app.confetti) confetti_close(app.confetti);
  app.confetti = NULL;
}

/* The loop: each frame of the frame clock moves the clock on and asks for a render. */
static gboolean on_tick(GtkWidget *widget, GdkFrameClock *frame_clock, gpointer data) {
  (void)data;
  gint64 now = gdk_frame_clock_get_frame_time(frame_clock);
  if (app.start < 0) app.start = now;
  if (app.snapshot) { /* time is the program's to give: step to the moment at 60 frames a second */
    while (app.confetti && app.clock < 1.0 + app.at)
      confetti_advance(app.confetti, app.clock = MIN(1.0 + app.at, app.clock + 1 / 60.0));
  } else {
    app.clock = 1.0 + (now - app.start) / 1e6;
    if (app.seconds > 0 && app.clock - 1.0 >= app.seconds) return close_soon(), G_SOURCE_REMOVE;
  }
  gtk_gl_area_queue_render(GTK_GL_AREA(widget));
  return G_SOURCE_CONTINUE;
}

static void on_click(GtkGestureClick *gesture, int presses, double x, double y, gpointer data) {
  (void)gesture, (void)presses, (void)data;
  if (!app.confetti) return;
  /* GTK's places are points from the area's top-left corner, as confetti takes them. */
  confetti_trigger_at(app.confetti, CONFETTI_TRIGGER_CLICK, x, y, app.clock);
  int64_t alive = 0;
  confetti_alive_count(app.confetti, app.clock, &alive);
  printf("click at %.0f,%.0f: %lld particles alive\n", x, y, (long long)alive);
  fflush(stdout);
}

static gboolean on_key(GtkEventControllerKey *keys, guint key, guint code, GdkModifierType mods,
                       gpointer data) {
  (void)keys, (void)code, (void)mods, (void)data;
  if (key == GDK_KEY_Escape) close_soon();
  else if (key == GDK_KEY_space && app.confetti)
    confetti_trigger(app.confetti, CONFETTI_TRIGGER_KEY, app.clock);
  else return FALSE;
  return TRUE;
}

static void on_activate(GtkApplication *application) {
  app.window = gtk_application_window_new(application);
  gtk_window_set_title(GTK_WINDOW(app.window), "Confetti in GTK 4");
  gtk_window_set_default_size(GTK_WINDOW(app.window), 960, 540);
  GtkWidget *area = gtk_gl_area_new();
  gtk_gl_area_set_required_version(GTK_GL_AREA(area), 3, 3);
  g_signal_connect(area, "realize", G_CALLBACK(on_realize), NULL);
  g_signal_connect(area, "unrealize", G_CALLBACK(on_unrealize), NULL);
  g_signal_connect(area, "resize", G_CALLBACK(on_resize), NULL);
  g_signal_connect(area, "render", G_CALLBACK(on_render), NULL);
  gtk_widget_add_tick_callback(area, on_tick, NULL, NULL);
  GtkGesture *click = gtk_gesture_click_new();
  g_signal_connect(click, "pressed", G_CALLBACK(on_click), NULL);
  gtk_widget_add_controller(area, GTK_EVENT_CONTROLLER(click));
  GtkEventController *keys = gtk_event_controller_key_new();
  g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), NULL);
  gtk_widget_add_controller(app.window, keys);
  gtk_window_set_child(GTK_WINDOW(app.window), area);
  gtk_window_present(GTK_WINDOW(app.window));
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--seconds") == 0 && value) app.seconds = atof(argv[++i]);
    else if (strcmp(argv[i], "--at") == 0 && value) app.at = atof(argv[++i]);
    else if (strcmp(argv[i], "--seed") == 0 && value) app.seed = strtoull(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--snapshot") == 0 && value) app.snapshot = argv[++i];
    else if (argv[i][0] == '-')
      return fprintf(stderr, "gtk4-confetti: %s: unknown option, or no value\n", argv[i]), 1;
    else app.preset = argv[i];
  }
  /* Options are read above: GTK is given none, and a second copy runs as a window of its own. */
  GtkApplication *application = gtk_application_new(NULL, G_APPLICATION_NON_UNIQUE);
  g_signal_connect(application, "activate", G_CALLBACK(on_activate), NULL);
  int status = g_application_run(G_APPLICATION(application), 0, NULL);
  g_object_unref(application);
  return app.status ? app.status : status;
}
