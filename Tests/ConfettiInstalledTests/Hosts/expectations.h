/* What the C hosts that check the library share: the count of expectations that held and
 * failed, and a yes-or-no expectation of the host's own (no status, no message). Each host
 * prints "N passed, N failed" last. Included by misuse.c and fork.c, each compiled on its own. */
#ifndef EXPECTATIONS_H
#define EXPECTATIONS_H

#include <stdio.h>

static int passed, failed;

static void check(const char *what, int holds) {
  if (holds) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s\n", what);
  }
}

#endif
