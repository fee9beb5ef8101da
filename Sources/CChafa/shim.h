/* Debian's libchafa and the terminal's size, for the celebration in a terminal
   (ConfettiTerminal): frames turned into kitty graphics, sixels or coloured character cells. */
#include <chafa.h>
#include <stddef.h>

/* The terminal's sequences as chafa knows them from `environment` (TERM and the rest), filled
   out with those of the kitty and sixel terminals chafa knows: the protocol is chosen by
   confetti (its queries, its override), and chafa then has what it needs to speak it.
   chafa_term_info_unref() it. */
static inline ChafaTermInfo *confetti_chafa_term_info(char **environment) {
  ChafaTermDb *db = chafa_term_db_get_default();
  ChafaTermInfo *info = chafa_term_db_detect(db, environment);
  char *kitty_environment[] = {"TERM=xterm-kitty", NULL};
  char *sixel_environment[] = {"TERM=foot", NULL};
  ChafaTermInfo *kitty = chafa_term_db_detect(db, kitty_environment);
  ChafaTermInfo *sixel = chafa_term_db_detect(db, sixel_environment);
  chafa_term_info_supplement(info, kitty);
  chafa_term_info_supplement(info, sixel);
  chafa_term_info_unref(kitty);
  chafa_term_info_unref(sixel);
  return info;
}

/* The canvas as the terminal's text: *text holds `return` bytes; confetti_chafa_free() it. */
static inline size_t confetti_chafa_print(ChafaCanvas *canvas, ChafaTermInfo *info, char **text) {
  GString *printed = chafa_canvas_print(canvas, info);
  size_t count = printed->len;
  *text = g_string_free(printed, FALSE);
  return count;
}

static inline void confetti_chafa_free(char *text) { g_free(text); }

#include <sys/ioctl.h>

/* The terminal on `descriptor`'s size in cells, and in pixels where it says (0 where not).
   0, or -1 (errno) where it is no terminal. */
static inline int confetti_terminal_size(int descriptor, unsigned *columns, unsigned *rows,
                                         unsigned *width, unsigned *height) {
  struct winsize size;
  if (ioctl(descriptor, TIOCGWINSZ, &size) != 0) return -1;
  *columns = size.ws_col, *rows = size.ws_row, *width = size.ws_xpixel, *height = size.ws_ypixel;
  return 0;
}
