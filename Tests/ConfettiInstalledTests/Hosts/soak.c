/* A host that makes, draws and destroys a system over and over, as a program that celebrates
 * each event would: the memory it holds must stay flat. After WARM cycles (the driver's and the
 * allocator's caches settle), CYCLES more may add at most 80 bytes a cycle to the heap in use
 * (mallinfo2, every arena) and at most 2 MiB to the resident size. Prints both figures; exits
 * 1 past either bound.
 *
 * The heap in use is the least of the last WINDOW cycles' readings, each taken with the GL's
 * work done: llvmpipe holds a block of about 380 KB for some frames and not others (a busy
 * machine's frames more often), and glFinish or waiting does not return it. A leak raises
 * every reading; that block only some.
 *
 *   cc soak.c -o soak $(pkg-config --cflags --libs confetti epoxy)   ./soak [CYCLES [WARM]]
 */
#include <confetti.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "surfaceless.h"

static long resident_kib(void) {
  FILE *status = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (status && fgets(line, sizeof line, status))
    if (strncmp(line, "VmRSS:", 6) == 0) kib = atol(line + 6);
  if (status) fclose(status);
  return kib;
}

enum { WINDOW = 100 };

/* One system's life: made, fired, drawn twice, destroyed. */
static int cycle(const confetti_desc *desc) {
  confetti_system *system = NULL;
  if (confetti_create(desc, &system) != CONFETTI_OK ||
      confetti_fire_opening(system, 1) != CONFETTI_OK ||
      confetti_draw(system, 0, 0, 320, 240, 1.2) != CONFETTI_OK ||
      confetti_draw(system, 0, 0, 320, 240, 1.4) != CONFETTI_OK ||
      confetti_destroy(system) != CONFETTI_OK) {
    printf("FAIL a cycle: %s\n", confetti_last_error());
    return 0;
  }
  return 1;
}

/* Runs COUNT cycles; the least heap in use after each of the last WINDOW, or 0 if one failed. */
static size_t heap_in_use(const confetti_desc *desc, int count) {
  size_t least = SIZE_MAX;
  for (int i = 0; i < count; i++) {
    if (!cycle(desc)) return 0;
    if (i < count - WINDOW) continue;
    glFinish();
    size_t now = mallinfo2().uordblks;
    if (now < least) least = now;
  }
  return least;
}

int main(int argc, char **argv) {
  int cycles = argc > 1 ? atoi(argv[1]) : 600, warm = argc > 2 ? atoi(argv[2]) : 150;
  EGLContext context = surfaceless_context(EGL_NO_CONTEXT);
  if (context == EGL_NO_CONTEXT || !surfaceless_make_current(context))
    return printf("FAIL no EGL context\n"), 1;
  surfaceless_framebuffer(320, 240);

  confetti_desc desc = {0};
  desc.preset = "confetti";
  desc.width = 320, desc.height = 240;
  if (warm < WINDOW || cycles < WINDOW) return printf("FAIL fewer than %d cycles\n", WINDOW), 1;
  size_t heap = heap_in_use(&desc, warm);
  long resident = resident_kib();
  size_t heap_after = heap ? heap_in_use(&desc, cycles) : 0;
  if (!heap_after) return 1;
  long heap_grown = (long)heap_after - (long)heap;
  long resident_grown = resident_kib() - resident;
  printf("soak: %d cycles after %d: heap in use %+ld bytes (%+.1f a cycle), resident %+ld KiB\n",
         cycles, warm, heap_grown, (double)heap_grown / cycles, resident_grown);
  int held = heap_grown <= 80L * cycles && resident_grown <= 2048;
  if (!held) printf("FAIL memory grew\n");
  return held ? 0 : 1;
}
