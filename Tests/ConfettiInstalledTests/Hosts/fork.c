/* A host that forks after using libconfetti: renders and draws in the parent, then in the
 * child, whose every call either works or fails at once with a message that names fork() —
 * never a hang (an alarm ends a child that hangs) and never a wrong message. The parent goes
 * on as before. Prints one line per failed expectation and "N passed, N failed" last (the
 * child's line, then the parent's); exits 1 on a failure.
 *
 *   cc fork.c -o fork $(pkg-config --cflags --libs confetti epoxy)
 *   ./fork FOLDER        (where its pictures go)
 */
#include <confetti.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "expectations.h"
#include "surfaceless.h"


/* A call's status, and a message that holds `words` (NULL: none, as on success). */
static void expect(const char *what, confetti_status got, confetti_status wanted,
                   const char *words) {
  const char *message = confetti_last_error();
  int message_right = words == NULL ? message[0] == '\0' : strstr(message, words) != NULL;
  if (got == wanted && message_right) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s: status %d (wanted %d), message \"%s\"\n", what, got, wanted, message);
  }
}


static confetti_status render(const char *folder, const char *name) {
  char out[4096];
  snprintf(out, sizeof out, "%s/%s", folder, name);
  confetti_render_options options = {0};
  options.preset = "classic-cannon";
  options.out = out;
  options.width = 64;
  options.height = 48;
  options.time = 0.5;
  return confetti_render(&options);
}

static int exists(const char *folder, const char *name) {
  char path[4096];
  struct stat status;
  snprintf(path, sizeof path, "%s/%s", folder, name);
  return stat(path, &status) == 0;
}

int main(int argc, char **argv) {
  const char *folder = argc > 1 ? argv[1] : ".";
  expect("the parent renders", render(folder, "parent.png"), CONFETTI_OK, NULL);

  EGLContext context = surfaceless_context(EGL_NO_CONTEXT);
  if (context == EGL_NO_CONTEXT || !surfaceless_make_current(context)) {
    printf("no surfaceless GL 3.3 context\n");
    return 1;
  }
  surfaceless_framebuffer(64, 48);
  confetti_desc desc = {0};
  desc.preset = "confetti";
  desc.width = 64;
  desc.height = 48;
  confetti_system *system = NULL;
  expect("the parent makes a system", confetti_create(&desc, &system), CONFETTI_OK, NULL);
  expect("the parent fires it", confetti_trigger(system, CONFETTI_TRIGGER_START, 0), CONFETTI_OK,
         NULL);
  expect("the parent draws it", confetti_draw(system, 0, 0, 64, 48, 0.5), CONFETTI_OK, NULL);
  glFinish();

  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    alarm(30); /* a call that hangs ends the child by SIGALRM: the parent says so */
    expect("the child's first render", render(folder, "child.png"), CONFETTI_ERROR_GL, "fork()");
    expect("the child's second render", render(folder, "child.png"), CONFETTI_ERROR_GL,
           "fork()");
    check("the child wrote no picture", !exists(folder, "child.png"));
    expect("the child draws the parent's system", confetti_draw(system, 0, 0, 64, 48, 0.6),
           CONFETTI_ERROR_GL, "made before this process was forked");
    expect("the child fires it (no GL)", confetti_trigger(system, CONFETTI_TRIGGER_KEY, 0.6),
           CONFETTI_OK, NULL);
    expect("the child destroys its copy, leaving the parent's GL",
           confetti_close(system), CONFETTI_OK, NULL);
    printf("child: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    _exit(failed ? 1 : 0);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
  }
  check("the child ended by itself, hanging nowhere",
        WIFEXITED(status) || !(WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM));
  check("the child's expectations held", WIFEXITED(status) && WEXITSTATUS(status) == 0);

  expect("the parent draws on", confetti_draw(system, 0, 0, 64, 48, 0.7), CONFETTI_OK, NULL);
  expect("the parent destroys its system", confetti_close(system), CONFETTI_OK, NULL);
  expect("the parent renders on", render(folder, "parent-after.png"), CONFETTI_OK, NULL);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
