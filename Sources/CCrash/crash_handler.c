/* A crash of the program's, as its user sees it: the terminal given back, one line and a short
 * backtrace, the process ended by its signal (never Swift's own handler, which holds a terminal
 * at a 30-second prompt: these replace it as the program starts). */
#define _GNU_SOURCE
#include "confetti_crash.h"

#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t borrowed;
static int give_back_output = -1, give_back_input = -1, has_mode;
static char give_back_bytes[256];
static size_t give_back_count;
static struct termios give_back_mode;
static char program_name[64] = "confetti";

/* Set by libconfetti where the program is linked against it (the installed program), absent where
 * the program carries the library's code itself. */
extern int libconfetti_set_swift_backtrace __attribute__((weak));

void confetti_crash_gives_back(int output, const void *bytes, size_t count, int input,
                               const void *mode) {
  borrowed = 0;
  give_back_output = output;
  give_back_count = count < sizeof give_back_bytes ? count : sizeof give_back_bytes;
  memcpy(give_back_bytes, bytes, give_back_count);
  give_back_input = input;
  has_mode = input >= 0 && mode != NULL;
  if (has_mode) memcpy(&give_back_mode, mode, sizeof give_back_mode);
  borrowed = 1;
}

void confetti_crash_gives_back_nothing(void) { borrowed = 0; }

void confetti_give_back_terminal_now(void) {
  if (!borrowed) return;
  borrowed = 0;
  /* A terminal that reads nothing must not hold the process: what fits is written, at once.
   * The flag is the open terminal's, which the shell shares: it is put back after. */
  int flags = fcntl(give_back_output, F_GETFL);
  if (flags >= 0) fcntl(give_back_output, F_SETFL, flags | O_NONBLOCK);
  ssize_t written = write(give_back_output, give_back_bytes, give_back_count);
  (void)written;
  if (flags >= 0) fcntl(give_back_output, F_SETFL, flags);
  if (has_mode) tcsetattr(give_back_input, TCSANOW, &give_back_mode);
}

static void say(const char *text) {
  ssize_t written = write(STDERR_FILENO, text, strlen(text));
  (void)written;
}

static void crashed(int number) {
  confetti_give_back_terminal_now();
  const char *name = number == SIGSEGV   ? "a segmentation fault"
                     : number == SIGBUS  ? "a bus error"
                     : number == SIGILL  ? "an illegal instruction (a failed check)"
                     : number == SIGFPE  ? "an arithmetic error"
                     : number == SIGTRAP ? "a trap (a failed check)"
                                         : "an abort";
  say(program_name);
  say(": crashed with ");
  say(name);
  say("; please report it, with the command that did it and these lines:\n");
  void *frames[16];
  int count = backtrace(frames, 16);
  backtrace_symbols_fd(frames, count, STDERR_FILENO);
  signal(number, SIG_DFL);
  raise(number);
}

void confetti_crash_handlers_install(const char *program) {
  /* The library kept Swift's handler out (this one replaces it): the commands the program runs
   * get the environment it was given. */
  if (&libconfetti_set_swift_backtrace != NULL && libconfetti_set_swift_backtrace) {
    unsetenv("SWIFT_BACKTRACE");
  }
  if (program != NULL) {
    strncpy(program_name, program, sizeof program_name - 1);
    program_name[sizeof program_name - 1] = '\0';
  }
  /* backtrace() loads libgcc's unwinder on its first call: done now, not in the handler. */
  void *frame[1];
  backtrace(frame, 1);
  static char alternate[64 * 1024];
  stack_t stack = {.ss_sp = alternate, .ss_size = sizeof alternate};
  sigaltstack(&stack, NULL); /* a stack overflow's handler needs a stack of its own */
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = crashed;
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  int numbers[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT};
  for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
    sigaction(numbers[i], &action, NULL);
  }
}
