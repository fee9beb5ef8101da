/* sdl2: confetti over an SDL2 program's own scene (a backdrop and a stage along the bottom). A
 * click throws a burst where it lands, space fires the effect's cannons again, esc quits.
 *
 *   cc main.c -o sdl2-confetti $(pkg-config --cflags --libs confetti sdl2 libpng)
 *   ./sdl2-confetti [PRESET] [--seed N] [--seconds S] [--snapshot OUT.png --at T]
 *
 * --seed picks the random draws (default 1); --seconds quits after that long (default: when
 * the window is closed); --snapshot draws the moment T seconds after the effect opened (default
 * 0.5), saves the window's pixels as a PNG and quits: `confetti render --preset PRESET --size
 * 960x540 --seed N --time T --background '#1a1f33'` is the same picture above the stage.
 */
#include <SDL.h>
#include <confetti.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few GL 1.0 calls the program's own scene needs, from SDL: no loader library. */
enum { GL_COLOR_BUFFER_BIT = 0x4000, GL_SCISSOR_TEST = 0x0C11, GL_RGBA = 0x1908 };
enum { GL_UNSIGNED_BYTE = 0x1401 };
static struct {
  void (*clear_color)(float, float, float, float);
  void (*clear)(unsigned);
  void (*scissor)(int, int, int, int);
  void (*enable)(unsigned), (*disable)(unsigned);
  void (*read_pixels)(int, int, int, int, unsigned, unsigned, void *);
} gl;

static int fail(const char *what, const char *why) {
  fprintf(stderr, "sdl2-confetti: %s: %s\n", what, why);
  return 1;
}

/* The scene: the backdrop, and the stage 60 points high along the bottom. */
static void draw_scene(int pixels_wide, int pixels_high, int points_high) {
  gl.clear_color(26 / 255.0f, 31 / 255.0f, 51 / 255.0f, 1);
  gl.clear(GL_COLOR_BUFFER_BIT);
  gl.enable(GL_SCISSOR_TEST);
  gl.scissor(0, 0, pixels_wide, 60 * pixels_high / (points_high > 0 ? points_high : 1));
  gl.clear_color(200 / 255.0f, 160 / 255.0f, 60 / 255.0f, 1);
  gl.clear(GL_COLOR_BUFFER_BIT);
  gl.disable(GL_SCISSOR_TEST);
}

/* The bound framebuffer (bottom row first) as a PNG (top row first). */
static int save_png(const char *path, int width, int height) {
  unsigned char *pixels = malloc((size_t)width * height * 4);
  if (!pixels) return 0;
  gl.read_pixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  png_image image = {.version = PNG_IMAGE_VERSION, .width = width, .height = height,
                     .format = PNG_FORMAT_RGBA};
  int saved = png_image_write_to_file(&image, path, 0, pixels, -width * 4, NULL);
  free(pixels);
  return saved;
}

int main(int argc, char **argv) {
  const char *preset = "confetti", *snapshot = NULL;
  double seconds = 0, at = 0.5;
  unsigned long long seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--seconds") == 0 && value) seconds = atof(argv[++i]);
    else if (strcmp(argv[i], "--at") == 0 && value) at = atof(argv[++i]);
    else if (strcmp(argv[i], "--seed") == 0 && value) seed = strtoull(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--snapshot") == 0 && value) snapshot = argv[++i];
    else if (argv[i][0] == '-') return fail(argv[i], "unknown option, or no value after it");
    else preset = argv[i];
  }

  /* Set up: a window with a GL 3.3 core context, current on this thread, then the effect. */
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return fail("no display for a window", SDL_GetError());
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_Window *window =
      SDL_CreateWindow("Confetti in SDL2", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 960,
                       540, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  SDL_GLContext context = window ? SDL_GL_CreateContext(window) : NULL;
  if (!context) return fail("no OpenGL 3.3 window", SDL_GetError()), SDL_Quit(), 1;
  SDL_GL_SetSwapInterval(1);
  gl.clear_color = SDL_GL_GetProcAddress("glClearColor");
  gl.clear = SDL_GL_GetProcAddress("glClear");
  gl.scissor = SDL_GL_GetProcAddress("glScissor");
  gl.enable = SDL_GL_GetProcAddress("glEnable");
  gl.disable = SDL_GL_GetProcAddress("glDisable");
  gl.read_pixels = SDL_GL_GetProcAddress("glReadPixels");

  int width, height; /* the window in points; SDL_GL_GetDrawableSize gives its pixels */
  SDL_GetWindowSize(window, &width, &height);
  confetti_desc desc = {.preset = preset, .width = width, .height = height, .seed = seed};
  confetti_system *confetti;
  if (confetti_create(&desc, &confetti) != CONFETTI_OK) {
    fail(preset, confetti_last_error());
    SDL_GL_DeleteContext(context), SDL_DestroyWindow(window), SDL_Quit();
    return 1;
  }
  /* The clock: 1 s when the effect opens, as `confetti render` opens it, then the performance
   * counter's seconds. */
  const Uint64 start = SDL_GetPerformanceCounter();
  double clock = 1.0;
  confetti_fire_opening(confetti, clock);

  /* Loop: events, the clock, the scene, confetti over it, the swap. */
  int status = 0;
  for (bool running = true; running;) {
    for (SDL_Event event; SDL_PollEvent(&event);) {
      if (event.type == SDL_QUIT) running = false;
      if (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_ESCAPE) running = false;
      if (event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_SPACE)
        confetti_trigger(confetti, CONFETTI_TRIGGER_KEY, clock);
      if (event.type == SDL_MOUSEBUTTONDOWN && event.button.button == SDL_BUTTON_LEFT) {
        /* SDL's mouse places are points from the top-left corner, as confetti takes them. */
        confetti_trigger_at(confetti, CONFETTI_TRIGGER_CLICK, event.button.x, event.button.y,
                            clock);
        int64_t alive = 0;
        confetti_alive_count(confetti, clock, &alive);
        printf("click at %d,%d: %lld particles alive\n", event.button.x, event.button.y,
               (long long)alive);
        fflush(stdout);
      }
      if (event.type == SDL_WINDOWEVENT && event.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
        SDL_GetWindowSize(window, &width, &height);
        if (width > 0 && height > 0) confetti_resize(confetti, width, height);
      }
    }
    if (snapshot) { /* time is the program's to give: step to the moment at 60 frames a second */
      while (clock < 1.0 + at)
        confetti_advance(confetti, clock = SDL_min(1.0 + at, clock + 1 / 60.0));
    } else {
      clock = 1.0 + (double)(SDL_GetPerformanceCounter() - start) / SDL_GetPerformanceFrequency();
      if (seconds > 0 && clock - 1.0 >= seconds) running = false;
    }
    int pixels_wide, pixels_high;
    SDL_GL_GetDrawableSize(window, &pixels_wide, &pixels_high);
    draw_scene(pixels_wide, pixels_high, height);
    if (confetti_draw(confetti, 0, 0, pixels_wide, pixels_high, clock) != CONFETTI_OK) {
      status = fail("draw", confetti_last_error());
      break;
    }
    if (snapshot) {
      if (!save_png(snapshot, pixels_wide, pixels_high)) status = fail(snapshot, "not written");
      else printf("saved %s at %g s\n", snapshot, at);
      break;
    }
    SDL_GL_SwapWindow(window);
  }

  /* Tear down: the effect's GL objects go while its context is current, then the context. */
  confetti_close(confetti);
  SDL_GL_DeleteContext(context);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return status;
}
