/* A host that makes, draws and destroys a system over and over, as a program that celebrates
 * each event would: the memory it holds must stay flat. After WARM cycles (the driver's and the
 * allocator's caches settle), CYCLES more run in BLOCKS equal blocks. In the median block, the
 * heap in use (mallinfo2, every arena) may grow by at most 80 bytes a cycle and the resident
 * size by at most 512 KiB; read after every cycle, the heap is never more than 16 MB over the
 * warm cycles' least. Prints the figures; exits 1 past any bound.
 *
 * No cycle waits for its GL work, as a host that draws into a picture of its own and shows none
 * between. llvmpipe frees a deleted program's compiled shaders only once the work queued before
 * is flushed: before the library flushed as a system is released, each cycle held about 450 KB
 * more, let go 50 MB at a time now and then (a 2,400-cycle run kept 65 MB for good, its resident
 * size 100 MB up), and a CI run read the resident size 2.1 MiB up. The heap read after every
 * cycle rose 64 to 130 MB over the warm cycles' least then; 0.1 MB with the flush.
 *
 * Each block's heap in use is the least of its last WINDOW cycles' readings, each taken with the
 * GL's work finished: llvmpipe holds a block of about 400 KB for some frames and not others (a
 * busy machine's frames more often), and now and then keeps a scene's 1 MB for good, a step in
 * one block. A leak raises every block; the median of five blocks sees a leak and ignores up to
 * two steps, in the heap and the resident size alike.
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

enum { WINDOW = 60, BLOCKS = 5 };

/* One system's life: made, fired, drawn twice, destroyed. */
static int cycle(const confetti_desc *desc) {
  confetti_system *system = NULL;
  if (confetti_create(desc, &system) != CONFETTI_OK ||
      confetti_fire_opening(system, 1) != CONFETTI_OK ||
      confetti_draw(system, 0, 0, 320, 240, 1.2) != CONFETTI_OK ||
      confetti_draw(system, 0, 0, 320, 240, 1.4) != CONFETTI_OK ||
      confetti_close(system) != CONFETTI_OK) {
    printf("FAIL a cycle: %s\n", confetti_last_error());
    return 0;
  }
  return 1;
}

/* The most heap in use read after any cycle, its GL work finished or not. */
static size_t most;

/* Runs COUNT cycles; the least heap in use after each of the last WINDOW, or 0 if one failed. */
static size_t heap_in_use(const confetti_desc *desc, int count) {
  size_t least = SIZE_MAX;
  for (int i = 0; i < count; i++) {
    if (!cycle(desc)) return 0;
    size_t unfinished = mallinfo2().uordblks;
    if (unfinished > most) most = unfinished;
    if (i < count - WINDOW) continue;
    glFinish();
    size_t now = mallinfo2().uordblks;
    if (now < least) least = now;
  }
  return least;
}

static int by_value(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int cycles = argc > 1 ? atoi(argv[1]) : 600, warm = argc > 2 ? atoi(argv[2]) : 150;
  int block = cycles / BLOCKS;
  EGLContext context = surfaceless_context(EGL_NO_CONTEXT);
  if (context == EGL_NO_CONTEXT || !surfaceless_make_current(context))
    return printf("FAIL no EGL context\n"), 1;
  surfaceless_framebuffer(320, 240);

  confetti_desc desc = {0};
  desc.preset = "confetti";
  desc.width = 320, desc.height = 240;
  if (warm < WINDOW || block < WINDOW)
    return printf("FAIL fewer than %d warm cycles or %d cycles\n", WINDOW, WINDOW * BLOCKS), 1;
  size_t heap = heap_in_use(&desc, warm), warm_least = heap;
  if (!heap) return 1;
  most = 0;
  long resident = resident_kib(), first_resident = resident;
  long grown[BLOCKS], sorted[BLOCKS], total = 0, resident_grown[BLOCKS];
  for (int b = 0; b < BLOCKS; b++) {
    size_t now = heap_in_use(&desc, block);
    if (!now) return 1;
    grown[b] = sorted[b] = (long)now - (long)heap;
    total += grown[b];
    heap = now;
    long resident_now = resident_kib();
    resident_grown[b] = resident_now - resident;
    resident = resident_now;
  }
  qsort(sorted, BLOCKS, sizeof sorted[0], by_value);
  qsort(resident_grown, BLOCKS, sizeof resident_grown[0], by_value);
  long median = sorted[BLOCKS / 2], resident_median = resident_grown[BLOCKS / 2];
  printf("soak: %d cycles after %d: heap in use %+.1f bytes a cycle in the median block "
         "(%+ld bytes in all; blocks", block * BLOCKS, warm, (double)median / block, total);
  for (int b = 0; b < BLOCKS; b++) printf(" %+ld", grown[b]);
  printf("), resident %+ld KiB in the median block (%+ld KiB in all), heap at most %+.1f MB\n",
         resident_median, resident - first_resident, ((double)most - (double)warm_least) / 1e6);
  int held = median <= 80L * block && resident_median <= 512 && most <= warm_least + 16000000;
  if (!held) printf("FAIL memory grew\n");
  return held ? 0 : 1;
}
