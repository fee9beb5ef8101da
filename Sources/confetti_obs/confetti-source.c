/* confetti-source.c: "Confetti", an OBS input source that draws a libconfetti effect over the
 * scene, transparent where no piece is, fired by its Fire button, its hotkey or obs-websocket
 * (PressInputPropertiesButton "fire", TriggerHotkeyByName "confetti.fire").
 *
 * Threads. OBS calls video_tick and video_render on its graphics thread, video_render (and
 * update, create, destroy: they enter it) inside the graphics context, whose lock serialises
 * every confetti call here: obs-websocket's screenshots render the source on a thread of their
 * own, but inside that lock too. The buttons, the hotkeys and get_properties come on other
 * threads (the UI's, obs-websocket's, the hotkey thread): they only count a request, which the
 * next video_render carries out.
 *
 * The clock is OBS's: the frame time of the video being made (obs_get_video_frame_time), in
 * seconds from the first frame this source saw (plus 1: clock_now), so that a frame OBS draws
 * late or skips shows the effect where it is at that frame's moment (confetti.h, THE CLOCK). A
 * fire asked for while the source is not shown is dropped.
 *
 * Colours. Pieces are drawn into a texture of the canvas's size in plain 8-bit RGBA
 * (GS_RGBA_UNORM: libobs-opengl makes GS_RGBA an sRGB texture, which would decode the colours
 * the library writes), premultiplied, then laid over the scene with premultiplied blending. The
 * source does not declare itself sRGB-aware (OBS_SOURCE_SRGB), so OBS draws it with sRGB
 * conversion off: the scene's stored colours and the pieces' mix as in `confetti render`'s
 * framebuffer, and its colours are the program's.
 */
#include <confetti.h>
#include <math.h>
#include <obs-module.h>
#include <stdatomic.h>
#include <string.h>
#include <util/dstr.h>
#include <util/threading.h>

/* The presets' names and one-line descriptions, written by .ci/package from `confetti presets
 * list` (the program and the library share one engine): static const struct confetti_preset
 * confetti_presets[]. */
#include "confetti-presets.h"

/* The effect list's entry for a JSON file of one's own (no preset has a colon in its name). */
#define EFFECT_FILE ":file"

struct confetti_source {
  obs_source_t *source;

  /* Inside the graphics context only. */
  confetti_system *system; /* NULL while the effect cannot be used */
  gs_texrender_t *texture; /* the pieces, premultiplied, the canvas's size */
  uint32_t width, height;  /* the system's area, in pixels of the canvas */
  double drawn_at;         /* the clock reading the texture shows; NAN: none */
  bool draw_failed;        /* a draw failed and was logged: not logged again */

  /* From any thread: requests the next video_render carries out. */
  atomic_int fires, stops;

  /* The clock: OBS's frame time, in ns, of the first frame seen and of the latest. */
  _Atomic uint64_t first_frame, frame;

  /* What the effect was refused for (the library's one line), or NULL: shown in the
   * properties. Under `lock`. */
  pthread_mutex_t lock;
  char *error;

  obs_hotkey_id fire_hotkey, stop_hotkey;
};

static const char *confetti_source_name(void *type_data) {
  (void)type_data;
  return obs_module_text("Confetti");
}

/* The clock reading now: 1 s at the first frame this source saw, as `confetti render` opens
 * an effect at 1 s (room for what an effect schedules before its opening, such as snow already
 * falling), then OBS's frame time. */
static double clock_now(struct confetti_source *self) {
  uint64_t first = atomic_load(&self->first_frame), frame = atomic_load(&self->frame);
  return 1.0 + (first && frame > first ? (double)(frame - first) / 1e9 : 0.0);
}

static void canvas_size(uint32_t *width, uint32_t *height) {
  struct obs_video_info video;
  if (obs_get_video_info(&video) && video.base_width && video.base_height) {
    *width = video.base_width;
    *height = video.base_height;
  } else {
    *width = 1920;
    *height = 1080;
  }
}

/* Keeps `message` (or none) as the error the properties show; says so in the log once, and has
 * an open properties dialog read its properties again when it changed. */
static void set_error(struct confetti_source *self, const char *message) {
  pthread_mutex_lock(&self->lock);
  bool changed = (message == NULL) != (self->error == NULL) ||
                 (message && strcmp(message, self->error) != 0);
  if (changed) {
    bfree(self->error);
    self->error = message ? bstrdup(message) : NULL;
  }
  pthread_mutex_unlock(&self->lock);
  if (!changed) return;
  if (message)
    blog(LOG_WARNING, "[confetti] '%s' draws nothing: %s", obs_source_get_name(self->source),
         message);
  obs_source_update_properties(self->source);
}

/* Makes the system anew from the settings (the effect, its file, the seed), on the canvas's
 * size: OBS calls it on its graphics thread, outside the graphics context, which it enters. */
static void confetti_source_update(void *data, obs_data_t *settings) {
  struct confetti_source *self = data;
  const char *effect = obs_data_get_string(settings, "effect");
  const char *path = obs_data_get_string(settings, "path");
  confetti_desc desc = {0};
  bool from_file = strcmp(effect, EFFECT_FILE) == 0;
  if (from_file)
    desc.path = path;
  else
    desc.preset = effect;
  desc.seed = (uint64_t)obs_data_get_int(settings, "seed");
  uint32_t width, height;
  canvas_size(&width, &height);
  desc.width = width;
  desc.height = height;

  char *message = NULL;
  obs_enter_graphics();
  if (self->system) confetti_close(self->system);
  self->system = NULL;
  if (from_file && !*path) {
    message = bstrdup(obs_module_text("Path.None"));
  } else if (confetti_create(&desc, &self->system) != CONFETTI_OK) {
    message = bstrdup(confetti_last_error()); /* this thread's, read before any other call */
    self->system = NULL;
  }
  self->width = width;
  self->height = height;
  self->drawn_at = NAN;
  self->draw_failed = false;
  obs_leave_graphics();
  set_error(self, message);
  bfree(message);
}

static void request(atomic_int *requests) {
  /* At most a few at once: a burst of requests within one frame throws a few bursts, not a
   * hundred. */
  int count = atomic_load(requests);
  while (count < 4 && !atomic_compare_exchange_weak(requests, &count, count + 1)) {
  }
}

static bool fire_clicked(obs_properties_t *props, obs_property_t *property, void *data) {
  (void)props, (void)property;
  if (data) request(&((struct confetti_source *)data)->fires);
  return false;
}

static bool stop_clicked(obs_properties_t *props, obs_property_t *property, void *data) {
  (void)props, (void)property;
  if (data) request(&((struct confetti_source *)data)->stops);
  return false;
}

static void fire_pressed(void *data, obs_hotkey_id id, obs_hotkey_t *hotkey, bool pressed) {
  (void)id, (void)hotkey;
  if (pressed) request(&((struct confetti_source *)data)->fires);
}

static void stop_pressed(void *data, obs_hotkey_id id, obs_hotkey_t *hotkey, bool pressed) {
  (void)id, (void)hotkey;
  if (pressed) request(&((struct confetti_source *)data)->stops);
}

static void *confetti_source_create(obs_data_t *settings, obs_source_t *source) {
  struct confetti_source *self = bzalloc(sizeof(*self));
  self->source = source;
  self->drawn_at = NAN;
  pthread_mutex_init(&self->lock, NULL);
  obs_enter_graphics();
  self->texture = gs_texrender_create(GS_RGBA_UNORM, GS_ZS_NONE);
  obs_leave_graphics();
  self->fire_hotkey = obs_hotkey_register_source(source, "confetti.fire",
                                                 obs_module_text("FireHotkey"), fire_pressed, self);
  self->stop_hotkey = obs_hotkey_register_source(source, "confetti.stop",
                                                 obs_module_text("StopHotkey"), stop_pressed, self);
  confetti_source_update(self, settings);
  return self;
}

static void confetti_source_destroy(void *data) {
  struct confetti_source *self = data;
  obs_hotkey_unregister(self->fire_hotkey);
  obs_hotkey_unregister(self->stop_hotkey);
  obs_enter_graphics();
  if (self->system) confetti_close(self->system);
  gs_texrender_destroy(self->texture);
  obs_leave_graphics();
  pthread_mutex_destroy(&self->lock);
  bfree(self->error);
  bfree(self);
}

static void confetti_source_defaults(obs_data_t *settings) {
  obs_data_set_default_string(settings, "effect", "confetti");
  obs_data_set_default_string(settings, "path", "");
  obs_data_set_default_int(settings, "seed", 1);
}

/* The chosen preset's description below the list, and the file's path only for a file. */
static bool effect_modified(obs_properties_t *props, obs_property_t *property,
                            obs_data_t *settings) {
  (void)property;
  const char *effect = obs_data_get_string(settings, "effect");
  const char *about = NULL;
  for (size_t i = 0; i < sizeof(confetti_presets) / sizeof(confetti_presets[0]); i++)
    if (strcmp(effect, confetti_presets[i].name) == 0) about = confetti_presets[i].about;
  obs_property_t *description = obs_properties_get(props, "about");
  obs_property_set_description(description, about ? about : "");
  obs_property_set_visible(description, about != NULL);
  obs_property_set_visible(obs_properties_get(props, "path"), strcmp(effect, EFFECT_FILE) == 0);
  return true;
}

static obs_properties_t *confetti_source_properties(void *data) {
  struct confetti_source *self = data;
  obs_properties_t *props = obs_properties_create();

  char *error = NULL;
  if (self) {
    pthread_mutex_lock(&self->lock);
    error = self->error ? bstrdup(self->error) : NULL;
    pthread_mutex_unlock(&self->lock);
  }
  obs_property_t *shown =
      obs_properties_add_text(props, "error", error ? error : "", OBS_TEXT_INFO);
  obs_property_text_set_info_type(shown, OBS_TEXT_INFO_ERROR);
  obs_property_set_visible(shown, error != NULL);
  bfree(error);

  obs_property_t *effect = obs_properties_add_list(props, "effect", obs_module_text("Effect"),
                                                   OBS_COMBO_TYPE_LIST, OBS_COMBO_FORMAT_STRING);
  for (size_t i = 0; i < sizeof(confetti_presets) / sizeof(confetti_presets[0]); i++)
    obs_property_list_add_string(effect, confetti_presets[i].name, confetti_presets[i].name);
  obs_property_list_add_string(effect, obs_module_text("Effect.File"), EFFECT_FILE);
  obs_property_set_modified_callback(effect, effect_modified);
  obs_properties_add_text(props, "about", "", OBS_TEXT_INFO);

  struct dstr filter = {0};
  dstr_printf(&filter, "%s (*.json);;* (*)", obs_module_text("Path.Filter"));
  obs_properties_add_path(props, "path", obs_module_text("Path"), OBS_PATH_FILE, filter.array,
                          NULL);
  dstr_free(&filter);
  obs_properties_add_int(props, "seed", obs_module_text("Seed"), 1, INT32_MAX, 1);
  obs_properties_add_button(props, "fire", obs_module_text("Fire"), fire_clicked);
  obs_properties_add_button(props, "stop", obs_module_text("Stop"), stop_clicked);
  return props;
}

static uint32_t confetti_source_width(void *data) {
  (void)data;
  uint32_t width, height;
  canvas_size(&width, &height);
  return width;
}

static uint32_t confetti_source_height(void *data) {
  (void)data;
  uint32_t width, height;
  canvas_size(&width, &height);
  return height;
}

static void confetti_source_tick(void *data, float seconds) {
  (void)seconds;
  struct confetti_source *self = data;
  uint64_t frame = obs_get_video_frame_time();
  uint64_t none = 0;
  atomic_compare_exchange_strong(&self->first_frame, &none, frame);
  atomic_store(&self->frame, frame);
  /* Not on the program or the preview (another scene is live): a fire asked for now is
   * dropped, not kept for whenever the scene is shown again. */
  if (!obs_source_showing(self->source)) atomic_store(&self->fires, 0);
}

static void confetti_source_render(void *data, gs_effect_t *unused) {
  (void)unused;
  struct confetti_source *self = data;
  int stops = atomic_exchange(&self->stops, 0), fires = atomic_exchange(&self->fires, 0);
  if (!self->system) return;
  double now = clock_now(self);
  if (stops) confetti_stop_emitting(self->system);
  for (int i = 0; i < fires; i++) confetti_fire_opening(self->system, now);
  if (stops || fires) self->drawn_at = NAN;

  uint32_t width, height;
  canvas_size(&width, &height);
  if (width != self->width || height != self->height) {
    if (confetti_resize(self->system, width, height) == CONFETTI_OK) {
      self->width = width;
      self->height = height;
    }
    self->drawn_at = NAN;
  }

  bool alive = false;
  confetti_is_alive(self->system, now, &alive);
  if (!alive) return;

  /* Drawn once a frame: the preview, the program and a screenshot of the same frame share it. */
  if (self->drawn_at != now) {
    gs_texrender_reset(self->texture);
    if (!gs_texrender_begin(self->texture, self->width, self->height)) return;
    struct vec4 transparent;
    vec4_zero(&transparent);
    gs_clear(GS_CLEAR_COLOR, &transparent, 0.0f, 0);
    confetti_status status =
        confetti_draw(self->system, 0, 0, (int)self->width, (int)self->height, now);
    gs_texrender_end(self->texture);
    if (status != CONFETTI_OK) {
      if (!self->draw_failed)
        blog(LOG_WARNING, "[confetti] '%s' cannot draw: %s", obs_source_get_name(self->source),
             confetti_last_error());
      self->draw_failed = true;
      self->drawn_at = NAN;
      return;
    }
    self->drawn_at = now;
  }

  /* The texture holds GL's rows, bottom first; OBS's run top first: drawn flipped. */
  gs_texture_t *texture = gs_texrender_get_texture(self->texture);
  gs_effect_t *effect = obs_get_base_effect(OBS_EFFECT_DEFAULT);
  gs_blend_state_push();
  gs_enable_blending(true);
  gs_blend_function(GS_BLEND_ONE, GS_BLEND_INVSRCALPHA);
  while (gs_effect_loop(effect, "Draw"))
    obs_source_draw(texture, 0, 0, self->width, self->height, true);
  gs_blend_state_pop();
}

struct obs_source_info confetti_source_info = {
    .id = "confetti_source",
    .type = OBS_SOURCE_TYPE_INPUT,
    .output_flags = OBS_SOURCE_VIDEO | OBS_SOURCE_CUSTOM_DRAW,
    .get_name = confetti_source_name,
    .create = confetti_source_create,
    .destroy = confetti_source_destroy,
    .update = confetti_source_update,
    .get_defaults = confetti_source_defaults,
    .get_properties = confetti_source_properties,
    .get_width = confetti_source_width,
    .get_height = confetti_source_height,
    .video_tick = confetti_source_tick,
    .video_render = confetti_source_render,
};
