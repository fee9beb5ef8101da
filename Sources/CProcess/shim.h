/* Linux's process controls, for confetti run's overlay (RunCommand.swift). */
#include <signal.h>
#include <sys/prctl.h>

/* Asks the kernel to send this process SIGTERM when its parent ends, even by SIGKILL: the
   celebration of a `confetti run` that was killed ends with it. Returns 0, or -1 (errno). */
static inline int confetti_end_with_parent(void) {
  return prctl(PR_SET_PDEATHSIG, SIGTERM);
}
