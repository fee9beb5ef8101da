/* The smallest whole GPU confetti: each piece's initial conditions are written once, at its
 * birth, into a GPU buffer; confetti.vert evaluates its closed-form motion from its age; each
 * frame the CPU sets one uniform, the time, and draws. docs/learn/README.md explains each step.
 *
 *   cc confetti.c -o confetti-learn $(pkg-config --cflags --libs glfw3 epoxy) -lm
 *   ./confetti-learn     click: a burst there; space: the cannon; k: pause; hold left: time
 *                        runs backwards; esc: quit. Run it beside confetti.vert and .frag.
 *
 * It also draws the records `confetti render --preset classic-cannon --records r.bin` wrote, at the
 * moment of the render (--clock: the u_now value in r.json); --seconds S ends it after S
 * seconds, and --shot saves the last frame it drew (the first, with --records):
 *   ./confetti-learn --records r.bin --clock 1677721 --size 400x300 --shot r.ppm
 */
#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One piece, as confetti.vert reads it: written once, when it is born. */
typedef struct {
  float origin[2], velocity[2], birth, fall[2], color[4], life[4], spin[4], waves[4];
} Piece;

enum { CAPACITY = 1 << 14 };
static const struct { const char *name; int count, offset; } attributes[] = {
  {"a_origin", 2, offsetof(Piece, origin)}, {"a_velocity", 2, offsetof(Piece, velocity)},
  {"a_birth", 1, offsetof(Piece, birth)},   {"a_fall", 2, offsetof(Piece, fall)},
  {"a_color", 4, offsetof(Piece, color)},   {"a_life", 4, offsetof(Piece, life)},
  {"a_spin", 4, offsetof(Piece, spin)},     {"a_waves", 4, offsetof(Piece, waves)},
};
static GLuint buffer;
static int head, drawn;     /* the next slot to write; how many slots hold pieces */
static double now;          /* the animation's time (s) */
static int paused;
static int width = 800, height = 600;

static float within(float value, float range) {  /* value ± range, uniformly */
  return value + range * (2.0f * (float)rand() / (float)RAND_MAX - 1.0f);
}

/* Everything a burst's pieces share; each is given its own speed, size and colour. */
static Piece paper(float x, float y, float vx, float vy) {
  static const float colors[][3] = {{1, .23f, .19f}, {1, .58f, 0}, {1, .8f, 0},
                                    {.2f, .78f, .35f}, {0, .48f, 1}, {.69f, .32f, .87f}};
  static const float sizes[][2] = {{10, 10}, {12, 7}, {7, 12}};
  const float *c = colors[rand() % 6], *s = sizes[rand() % 3];
  return (Piece){.origin = {x, y}, .velocity = {vx, vy}, .birth = (float)now,
                 .fall = {280, 1.6f}, .color = {c[0], c[1], c[2], 1},
                 .life = {2.5f, 0.6f, s[0], s[1]},
                 .spin = {within(180, 180), within(0, 400), within(13, 5), within(35, 10)},
                 .waves = {within(5.5f, 1.5f), within(3.14f, 3.14f), within(4.5f, 1.5f),
                           within(3.14f, 3.14f)}};
}

/* A burst's records reach the GPU in one upload, and are never written again. */
static void emit(const Piece *pieces, int count) {
  if (head + count > CAPACITY) head = 0;  /* the oldest slots are long gone: write over them */
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferSubData(GL_ARRAY_BUFFER, head * (GLintptr)sizeof(Piece), count * sizeof(Piece), pieces);
  head += count;
  if (head > drawn) drawn = head;
}

static void burst(float x, float y) {  /* 80 pieces flung upwards from (x, y) */
  Piece pieces[80];
  for (int i = 0; i < 80; i++) {
    float angle = within(-1.57f, 0.9f), speed = within(520, 260);
    pieces[i] = paper(x, y, speed * cosf(angle), speed * sinf(angle));
  }
  emit(pieces, 80);
}

static void cannon(void) {  /* the classic cannon: 30 pieces thrown up from below the window */
  Piece pieces[30];
  for (int i = 0; i < 30; i++)
    pieces[i] = paper(within(width / 2.0f, 0.35f * width), height + 20.0f, within(0, 0.3f * width),
                      within(-1.755f, 0.225f) * height);
  emit(pieces, 30);
}

/* An IEEE half float, as `confetti render --records` stores some fields. */
static float half(const unsigned char *p) {
  unsigned h = p[0] | p[1] << 8, e = h >> 10 & 31, m = h & 1023;
  float v = e == 0 ? ldexpf(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf(m + 1024, e - 25);
  return h & 0x8000 ? -v : v;
}

/* The program's 68-byte records (r.json lists their fields): its clock counts 2^20 ticks a
 * second. Only the cannon's kinds of piece can be drawn here; records that need more are
 * refused. */
static int load(const char *path, uint32_t clock) {
  static Piece pieces[CAPACITY];
  unsigned char r[68];
  int count = 0;
  FILE *file = fopen(path, "rb");
  if (!file) return fprintf(stderr, "cannot open %s\n", path), 0;
  while (count < CAPACITY && fread(r, 68, 1, file) == 1) {
    float f[4], landing, h[18]; /* halves at 20-27, 32-55 and 60-63 */
    uint32_t birth;
    memcpy(f, r, 16), memcpy(&birth, r + 16, 4), memcpy(&landing, r + 64, 4);
    for (int i = 0; i < 18; i++) h[i] = half(r + 20 + 2 * i + (i >= 4) * 4 + (i >= 16) * 4);
    /* A sideways push, drag apart by axis, another shape, no tumble, a trail, growth, a fade
     * by the emitter, a landing: none of them is in confetti.vert. */
    if (h[0] != 0 || h[2] != h[3] || r[56] != 0 || r[57] != 1 || r[59] != 0 || h[16] != 0 ||
        !isinf(h[17]) || !isinf(landing)) {
      fclose(file);
      return fprintf(stderr, "%s: record %d needs more than this example draws; "
                             "render the classic-cannon preset\n", path, count), 0;
    }
    pieces[count++] = (Piece){
        .origin = {f[0], f[1]}, .velocity = {f[2], f[3]},
        .birth = -(float)((uint32_t)(clock - birth) / 1048576.0), /* at now = 0 */
        .fall = {h[1], h[2]}, .color = {r[28] / 255.f, r[29] / 255.f, r[30] / 255.f, r[31] / 255.f},
        .life = {h[4], h[5], h[6], h[7]}, .spin = {h[8], h[9], h[10], h[11]},
        .waves = {h[12], h[13], h[14], h[15]}};
  }
  fclose(file);
  if (count == 0) fprintf(stderr, "%s holds no records\n", path);
  emit(pieces, count);
  return count;
}

static GLuint compile(GLenum stage, const char *path) {
  char source[16384] = "#version 330 core\n", log[1024];
  FILE *file = fopen(path, "rb");
  size_t start = strlen(source), length = file ? fread(source + start, 1, 16000, file) : 0;
  if (!file) fprintf(stderr, "cannot open %s: run this beside it\n", path), exit(1);
  fclose(file);
  source[start + length] = 0;
  GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, (const char *[]){source}, NULL);
  glCompileShader(shader);
  GLint done;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &done);
  if (!done) glGetShaderInfoLog(shader, 1024, NULL, log), fprintf(stderr, "%s: %s", path, log), exit(1);
  return shader;
}

static void on_click(GLFWwindow *window, int button, int action, int mods) {
  double x, y;
  glfwGetCursorPos(window, &x, &y);
  if (button != GLFW_MOUSE_BUTTON_LEFT || action != GLFW_PRESS || mods) return;
  burst(x, y);
  printf("a burst at %.0f,%.0f\n", x, y);
  fflush(stdout);
}

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods) {
  if (action != GLFW_PRESS || scancode < 0 || mods) return;
  if (key == GLFW_KEY_SPACE) cannon();
  if (key == GLFW_KEY_K) {
    paused = !paused;
    printf("%s at %.2f s\n", paused ? "paused" : "playing", now);
    fflush(stdout);
  }
  if (key == GLFW_KEY_ESCAPE) glfwSetWindowShouldClose(window, 1);
}

int main(int argc, char **argv) {
  const char *records = NULL, *shot = NULL;
  uint32_t clock = 0;
  int clocked = 0;
  double seconds = -1; /* until the window is closed */
  for (int i = 1; i < argc; i += 2) {
    const char *value = i + 1 < argc ? argv[i + 1] : "";
    if (!strcmp(argv[i], "--records")) records = value;
    else if (!strcmp(argv[i], "--clock")) clock = (uint32_t)strtoul(value, NULL, 10), clocked = 1;
    else if (!strcmp(argv[i], "--size")) {
      if (sscanf(value, "%dx%d", &width, &height) != 2) width = 0;
    }
    else if (!strcmp(argv[i], "--shot")) shot = value;
    else if (!strcmp(argv[i], "--seconds")) seconds = atof(value) >= 0 ? atof(value) : NAN;
    else width = 0;
  }
  if (!(width >= 1 && width <= 8192 && height >= 1 && height <= 8192) || (shot && !*shot) ||
      isnan(seconds) || (records != NULL) != clocked)
    return fprintf(stderr, "usage: %s [--records R.bin --clock N] [--size WxH] "
                           "[--seconds S] [--shot F.ppm]\n", argv[0]), 64;
  if (records && seconds < 0) seconds = 0;
  if (!glfwInit()) return fprintf(stderr, "no display: run it on a desktop\n"), 1;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3), glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  GLFWwindow *window = glfwCreateWindow(width, height, "confetti, learned", NULL, NULL);
  if (!window) return fprintf(stderr, "no OpenGL 3.3 here\n"), 1;
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  glfwSetMouseButtonCallback(window, on_click), glfwSetKeyCallback(window, on_key);

  GLuint program = glCreateProgram(), array;
  glAttachShader(program, compile(GL_VERTEX_SHADER, "confetti.vert"));
  glAttachShader(program, compile(GL_FRAGMENT_SHADER, "confetti.frag"));
  for (GLuint i = 0; i < 8; i++) glBindAttribLocation(program, i, attributes[i].name);
  glLinkProgram(program);
  GLint linked;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) return fprintf(stderr, "the shaders do not link\n"), 1;
  glUseProgram(program);
  GLint timeAt = glGetUniformLocation(program, "u_time");
  glUniform2f(glGetUniformLocation(program, "u_viewSize"), width, height);

  /* The buffer is made once; each piece is a quad of 4 corners, its record read per instance. */
  glGenVertexArrays(1, &array), glBindVertexArray(array);
  glGenBuffers(1, &buffer), glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, CAPACITY * sizeof(Piece), NULL, GL_STATIC_DRAW);
  for (GLuint i = 0; i < 8; i++) {
    glEnableVertexAttribArray(i);
    glVertexAttribPointer(i, attributes[i].count, GL_FLOAT, GL_FALSE, sizeof(Piece),
                          (void *)(intptr_t)attributes[i].offset);
    glVertexAttribDivisor(i, 1);
  }
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  /* premultiplied colour over the backdrop */
  if (records && !load(records, clock)) return 1;
  paused = records != NULL;  /* a render's records: the render's moment, held */
  if (!records) cannon();

  double started = glfwGetTime(), last = started;
  int w, h;
  for (int closing = 0;; closing = glfwWindowShouldClose(window)) {
    double clockNow = glfwGetTime(), speed = paused ? 0 : 1;
    if (glfwGetKey(window, GLFW_KEY_LEFT) == GLFW_PRESS) speed = -1;
    now += (clockNow - last) * speed, last = clockNow;
    glfwGetFramebufferSize(window, &w, &h);
    glViewport(0, 0, w, h);
    glClearColor(0.0706f, 0.0784f, 0.1098f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glUniform1f(timeAt, (float)now);  /* the one value that changes: every piece follows */
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, drawn);
    if (closing || (seconds >= 0 && clockNow - started >= seconds)) break; /* not yet shown */
    glfwSwapBuffers(window);
    glfwPollEvents();
  }
  if (shot) { /* what was drawn last, as a binary PPM, top row first */
    unsigned char *pixels = malloc((size_t)w * h * 3);
    FILE *file = fopen(shot, "wb");
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, pixels);
    if (!file) return fprintf(stderr, "cannot write %s\n", shot), 1;
    fprintf(file, "P6\n%d %d\n255\n", w, h);
    for (int y = h - 1; y >= 0; y--) fwrite(pixels + (size_t)y * w * 3, 3, w, file);
    if (fclose(file) != 0) return fprintf(stderr, "cannot write %s\n", shot), 1;
  }
  glfwTerminate();
  return 0;
}
