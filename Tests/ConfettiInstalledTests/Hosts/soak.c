/* A host that makes, draws and destroys a system over and over, as a program that celebrates
 * each event would: the memory it holds must stay flat. After WARM cycles (the driver's and the
 * allocator's caches settle), CYCLES more may add at most 80 bytes a cycle to the heap in use
 * (mallinfo2, every arena) and at most 2 MiB to the resident size. Prints both figures; exits
 * 1 past either bound.
 *
 *   cc soak.c -o soak $(pkg-config --cflags --libs confetti epoxy)   ./soak [CYCLES [WARM]]
 */
#include <confetti.h>
#include <malloc.h>
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

int main(int argc, char **argv) {
  int cycles = argc > 1 ? atoi(argv[1]) : 600, warm = argc > 2 ? atoi(argv[2]) : 150;
  EGLContext context = surfaceless_context(EGL_NO_CONTEXT);
  if (context == EGL_NO_CONTEXT || !surfaceless_make_current(context))
    return printf("FAIL no EGL context\n"), 1;
  surfaceless_framebuffer(320, 240);

  confetti_desc desc = {0};
  desc.preset = "confetti";
  desc.width = 320, desc.height = 240;
  for (int i = 0; i < warm; i++)
    if (!cycle(&desc)) return 1;
  /* Measured with the GL's work done: a software GL frees a frame's memory once its threads
   * have drawn it, later on a busy machine. */
  glFinish();
  size_t heap = mallinfo2().uordblks;
  long resident = resident_kib();
  for (int i = 0; i < cycles; i++)
    if (!cycle(&desc)) return 1;
  glFinish();
  long heap_grown = (long)mallinfo2().uordblks - (long)heap;
  long resident_grown = resident_kib() - resident;
  printf("soak: %d cycles after %d: heap in use %+ld bytes (%+.1f a cycle), resident %+ld KiB\n",
         cycles, warm, heap_grown, (double)heap_grown / cycles, resident_grown);
  int held = heap_grown <= 80L * cycles && resident_grown <= 2048;
  if (!held) printf("FAIL memory grew\n");
  return held ? 0 : 1;
}
