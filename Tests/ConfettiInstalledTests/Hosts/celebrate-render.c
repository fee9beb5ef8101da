/* The C host of PackageTests' celebrate and render tests: each run does one thing through
 * confetti.h and prints what the library answered, as "status N: message" and what it saw.
 *
 *   celebrate-render render OUT FRAMES       renders the classic cannon, as the test's
 *                                           `confetti render` does, printing each progress;
 *                                           FRAMES "over": until it is over, best quality
 *   celebrate-render stop OUT                a 30-frame render stopped by its callback at 3
 *   celebrate-render flashes OUT JSON BG     a 512 x 384 animation of the effect JSON over
 *                                           BG, checked for flashes
 *   celebrate-render refuse                  renders and celebrations the library refuses
 *   celebrate-render celebrate               the default celebration, waited for
 *   celebrate-render cancel                  a looping celebration, cancelled once it runs
 */
#include <confetti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int report(const char *what, confetti_status status) {
  printf("%s: status %d: %s\n", what, (int)status, confetti_last_error());
  return status == CONFETTI_OK ? 0 : 1;
}

static int progress(int64_t done, int64_t total, void *user) {
  int64_t *stop_at = user;
  printf("progress %lld/%lld\n", (long long)done, (long long)total);
  return *stop_at > 0 && done >= *stop_at;
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  if (strcmp(argv[1], "render") == 0 && argc == 4) {
    int64_t never = 0;
    confetti_render_options options = {0};
    options.preset = "classic-cannon";
    options.out = argv[2];
    options.width = 320;
    options.height = 240;
    options.time = 0.5;
    options.seed = 7;
    options.frames = 0;
    if (strcmp(argv[3], "over") == 0) {
      options.flags = CONFETTI_UNTIL_OVER | CONFETTI_BEST_QUALITY;
    } else {
      sscanf(argv[3], "%lld", (long long *)&options.frames);
    }
    options.progress = progress;
    options.user = &never;
    return report("render", confetti_render(&options));
  }
  if (strcmp(argv[1], "defaults") == 0 && (argc == 3 || argc == 6)) {
    /* Everything at its default (zeros), or a preset and a size and the rest so. */
    confetti_render_options options = {0};
    options.out = argv[2];
    if (argc == 6) {
      options.preset = argv[3];
      options.width = atoi(argv[4]);
      options.height = atoi(argv[5]);
    }
    return report("defaults", confetti_render(&options));
  }
  if (strcmp(argv[1], "at-zero") == 0 && argc == 3) {
    /* One picture at the effect's very start: time 0 as given, not the default moment. */
    confetti_render_options options = {0};
    options.out = argv[2];
    options.flags = CONFETTI_AT_TIME;
    return report("at zero", confetti_render(&options));
  }
  if (strcmp(argv[1], "flashes") == 0 && argc == 5) {
    confetti_render_options options = {0};
    options.out = argv[2];
    options.json = argv[3];
    options.background = argv[4];
    options.width = 512;
    options.height = 384;
    options.fps = 15;
    options.flags = CONFETTI_CHECK_FLASHES;
    return report("flashes", confetti_render(&options));
  }
  if (strcmp(argv[1], "stop") == 0 && argc == 3) {
    int64_t stop_at = 3;
    confetti_render_options options = {0};
    options.out = argv[2];
    options.width = 160;
    options.height = 120;
    options.frames = 30;
    options.progress = progress;
    options.user = &stop_at;
    return report("stop", confetti_render(&options)) == 1 ? 0 : 1;
  }
  if (strcmp(argv[1], "refuse") == 0) {
    confetti_render_options render = {0};
    report("no options", confetti_render(NULL));
    report("no out", confetti_render(&render));
    render.out = "x.avi";
    report("avi", confetti_render(&render));
    render.out = "x.png";
    render.background = "+fffff";
    report("background", confetti_render(&render));
    render.background = NULL;
    render.fps = -1;
    report("fps", confetti_render(&render));
    render.fps = 0;
    render.preset = "nope";
    report("preset", confetti_render(&render));
    render.preset = NULL;
    render.out = "/proc/x.png";
    report("proc", confetti_render(&render));
    render.out = "x.png";
    render.frames = 3;
    render.flags = CONFETTI_UNTIL_OVER;
    report("frames until over", confetti_render(&render));
    render.frames = 0;
    render.preset = "snow";
    report("snow until over", confetti_render(&render));
    render.preset = NULL;
    render.flags = 0x10000;
    report("render flags", confetti_render(&render));
    render.flags = 0;
    confetti_celebrate_options celebrate = {0};
    celebrate.monitor = -1;
    report("monitor", confetti_celebrate(&celebrate));
    celebrate.monitor = 0;
    celebrate.preset = "nope";
    report("celebrate preset", confetti_celebrate(&celebrate));
    celebrate.preset = NULL;
    celebrate.flags = 64;
    report("flags", confetti_celebrate(&celebrate));
    celebrate.flags = CONFETTI_LOOP;
    report("loop", confetti_celebrate(&celebrate));
    report("wait null", confetti_celebration_wait(NULL, 0, NULL));
    report("cancel made-up", confetti_celebration_cancel((confetti_celebration *)42));
    return 0;
  }
  if (strcmp(argv[1], "celebrate") == 0) {
    return report("celebrate", confetti_celebrate(NULL));
  }
  if (strcmp(argv[1], "cancel") == 0) {
    confetti_celebrate_options options = {0};
    options.preset = "snow";
    options.flags = CONFETTI_LOOP;
    confetti_celebration *celebration = NULL;
    if (report("start", confetti_celebration_start(&options, &celebration))) return 1;
    bool over = true;
    report("wait", confetti_celebration_wait(celebration, 1.5, &over));
    printf("over after 1.5 s: %s\n", over ? "yes" : "no");
    report("cancel", confetti_celebration_cancel(celebration));
    report("wait", confetti_celebration_wait(celebration, 10, &over));
    printf("over after cancel: %s\n", over ? "yes" : "no");
    report("destroy", confetti_celebration_close(celebration));
    report("destroyed", confetti_celebration_cancel(celebration));
    return 0;
  }
  return 2;
}
