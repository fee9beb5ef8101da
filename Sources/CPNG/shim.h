#include <png.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A PNG encoded in memory with libpng's full API, for the settings its simplified API does not
 * offer (that one also encodes twice: once to learn the size). */
typedef struct {
  unsigned char *bytes; /* malloc'd: free() it */
  size_t count, capacity;
  char message[200]; /* why it failed */
} confetti_png_output;

static void confetti_png_append(png_structp png, png_bytep bytes, size_t count) {
  confetti_png_output *output = (confetti_png_output *)png_get_io_ptr(png);
  if (output->count + count > output->capacity) {
    size_t capacity = (output->count + count) * 2;
    unsigned char *grown = (unsigned char *)realloc(output->bytes, capacity);
    if (!grown) png_error(png, "out of memory");
    output->bytes = grown, output->capacity = capacity;
  }
  memcpy(output->bytes + output->count, bytes, count);
  output->count += count;
}

static void confetti_png_flush(png_structp png) { (void)png; }

static void confetti_png_error(png_structp png, png_const_charp message) {
  confetti_png_output *output = (confetti_png_output *)png_get_error_ptr(png);
  strncpy(output->message, message, sizeof output->message - 1);
  png_longjmp(png, 1);
}

static void confetti_png_warning(png_structp png, png_const_charp message) {
  (void)png, (void)message;
}

/* Encodes `height` rows of `width` RGBA pixels, 8 bits a channel, straight alpha, `stride` bytes
 * apart, as an sRGB PNG at zlib level `level` with the Up filter and zlib's run-length strategy
 * (what measured fastest at about the default's size on confetti's frames: docs/export.md).
 * 0: `output` holds the file; -1: it holds the message, and no bytes. */
static inline int confetti_png_encode(const unsigned char *rgba, uint32_t width, uint32_t height,
                                      size_t stride, int level, confetti_png_output *output) {
  memset(output, 0, sizeof *output);
  png_structp png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, output, confetti_png_error,
                              confetti_png_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    strcpy(output->message, "out of memory");
    return -1;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(output->bytes);
    output->bytes = NULL, output->count = output->capacity = 0;
    return -1;
  }
  png_set_write_fn(png, output, confetti_png_append, confetti_png_flush);
  png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_set_compression_level(png, level);
  png_set_compression_strategy(png, Z_RLE);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_write_info(png, info);
  for (uint32_t y = 0; y < height; y++) png_write_row(png, rgba + (size_t)y * stride);
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return 0;
}
