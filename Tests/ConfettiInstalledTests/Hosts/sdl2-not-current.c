/* An SDL2 host that draws once with its context current, once with none current
 * (SDL_GL_MakeCurrent(window, NULL)), and once more after making it current again: the second
 * is CONFETTI_ERROR_GL with the library's one line, and the third draws as the first did. It
 * prints each status and message, one a line. */
#include <SDL.h>
#include <confetti.h>
#include <stdio.h>

static void draw(confetti_system *confetti, const char *when, double time) {
  confetti_status status = confetti_draw(confetti, 0, 0, 320, 240, time);
  printf("%s: status %d: %s\n", when, (int)status, confetti_last_error());
}

int main(void) {
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return printf("no display: %s\n", SDL_GetError()), 1;
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_Window *window = SDL_CreateWindow("not current", 0, 0, 320, 240, SDL_WINDOW_OPENGL);
  SDL_GLContext context = window ? SDL_GL_CreateContext(window) : NULL;
  if (!context) return printf("no context: %s\n", SDL_GetError()), 1;
  confetti_desc desc = {.preset = "confetti", .width = 320, .height = 240};
  confetti_system *confetti;
  if (confetti_create(&desc, &confetti) != CONFETTI_OK)
    return printf("create: %s\n", confetti_last_error()), 1;
  confetti_fire_opening(confetti, 1.0);
  draw(confetti, "current", 1.1);
  SDL_GL_MakeCurrent(window, NULL);
  draw(confetti, "none current", 1.2);
  SDL_GL_MakeCurrent(window, context);
  draw(confetti, "current again", 1.3);
  printf("close: status %d\n", (int)confetti_close(confetti));
  SDL_GL_DeleteContext(context);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return 0;
}
