/* c-glfw: confetti in a C program's own GLFW window, over its own scene. A click throws a burst
 * where it lands, space fires the cannons again, esc quits.
 *
 *   cc main.c -o c-glfw $(pkg-config --cflags --libs confetti glfw3)
 *   ./c-glfw [PRESET] [--seconds S]      (default: confetti, until the window is closed)
 */
#include <confetti.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few GL 1.0 calls the host's own scene needs, from GLFW: no loader library. */
typedef void (*clear_color_fn)(float, float, float, float);
typedef void (*clear_fn)(unsigned);
typedef void (*scissor_fn)(int, int, int, int);
typedef void (*capability_fn)(unsigned);
enum { GL_COLOR_BUFFER_BIT = 0x4000, GL_SCISSOR_TEST = 0x0C11 };
static struct {
  clear_color_fn clear_color;
  clear_fn clear;
  scissor_fn scissor;
  capability_fn enable, disable;
} gl;

static void on_click(GLFWwindow *window, int button, int action, int mods) {
  (void)mods;
  if (button != GLFW_MOUSE_BUTTON_LEFT || action != GLFW_PRESS) return;
  confetti_system *confetti = glfwGetWindowUserPointer(window);
  double x, y, now = glfwGetTime();
  glfwGetCursorPos(window, &x, &y); /* points from the top-left corner, as confetti takes them */
  confetti_trigger_at(confetti, CONFETTI_TRIGGER_CLICK, x, y, now);
  int64_t alive = 0;
  confetti_alive_count(confetti, now, &alive);
  printf("click at %.0f,%.0f: %lld particles alive\n", x, y, (long long)alive);
  fflush(stdout);
}

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods) {
  (void)scancode, (void)mods;
  if (action != GLFW_PRESS) return;
  if (key == GLFW_KEY_ESCAPE) glfwSetWindowShouldClose(window, GLFW_TRUE);
  if (key == GLFW_KEY_SPACE)
    confetti_trigger(glfwGetWindowUserPointer(window), CONFETTI_TRIGGER_KEY, glfwGetTime());
}

static void on_resize(GLFWwindow *window, int width, int height) {
  if (width > 0 && height > 0) /* a minimised window keeps its last size */
    confetti_resize(glfwGetWindowUserPointer(window), width, height);
}

int main(int argc, char **argv) {
  const char *preset = "confetti";
  double seconds = 0; /* 0: until the window is closed */
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) seconds = atof(argv[++i]);
    else preset = argv[i];
  }

  /* Set up: a window with a GL 3.3 core context, then the effect on that context. */
  if (!glfwInit()) return fprintf(stderr, "c-glfw: no display for a window\n"), 1;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow *window = glfwCreateWindow(960, 540, "Confetti in C", NULL, NULL);
  if (!window) return fprintf(stderr, "c-glfw: no OpenGL 3.3 window\n"), glfwTerminate(), 1;
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  gl.clear_color = (clear_color_fn)glfwGetProcAddress("glClearColor");
  gl.clear = (clear_fn)glfwGetProcAddress("glClear");
  gl.scissor = (scissor_fn)glfwGetProcAddress("glScissor");
  gl.enable = (capability_fn)glfwGetProcAddress("glEnable");
  gl.disable = (capability_fn)glfwGetProcAddress("glDisable");

  int width, height;
  glfwGetWindowSize(window, &width, &height);
  confetti_desc desc = {0};
  desc.preset = preset;
  desc.width = width;
  desc.height = height;
  confetti_system *confetti;
  if (confetti_create(&desc, &confetti) != CONFETTI_OK) {
    fprintf(stderr, "c-glfw: %s\n", confetti_last_error());
    glfwTerminate();
    return 1;
  }
  glfwSetWindowUserPointer(window, confetti);
  glfwSetMouseButtonCallback(window, on_click);
  glfwSetKeyCallback(window, on_key);
  glfwSetWindowSizeCallback(window, on_resize);
  confetti_trigger(confetti, CONFETTI_TRIGGER_START, glfwGetTime());

  /* Loop: the host's scene (a backdrop and a square), then confetti over it. */
  while (!glfwWindowShouldClose(window) && (seconds == 0 || glfwGetTime() < seconds)) {
    glfwPollEvents();
    int fb_width, fb_height;
    glfwGetFramebufferSize(window, &fb_width, &fb_height);
    gl.clear_color(0.10f, 0.12f, 0.20f, 1);
    gl.clear(GL_COLOR_BUFFER_BIT);
    gl.enable(GL_SCISSOR_TEST);
    gl.scissor(fb_width / 2 - fb_height / 8, fb_height / 2 - fb_height / 8, fb_height / 4,
               fb_height / 4);
    gl.clear_color(0.95f, 0.95f, 1.0f, 1);
    gl.clear(GL_COLOR_BUFFER_BIT);
    gl.disable(GL_SCISSOR_TEST);
    if (confetti_draw(confetti, 0, 0, fb_width, fb_height, glfwGetTime()) != CONFETTI_OK) {
      fprintf(stderr, "c-glfw: %s\n", confetti_last_error());
      break;
    }
    glfwSwapBuffers(window);
  }

  /* Tear down: the effect's GL objects go while its context is current. */
  confetti_close(confetti);
  glfwDestroyWindow(window);
  glfwTerminate();
  return 0;
}
