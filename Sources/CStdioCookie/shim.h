// glibc's fopencookie, which <stdio.h> declares only under _GNU_SOURCE (Swift's Glibc module is
// built without it), under a name of our own bound to glibc's symbol. Interlude's debug-only
// decoder fault layer (DecoderFaults) makes with it a stdio stream whose reads fail.
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

typedef ssize_t interlude_cookie_read_function(void *cookie, char *buffer, size_t size);
typedef ssize_t interlude_cookie_write_function(void *cookie, const char *buffer, size_t size);
typedef int interlude_cookie_seek_function(void *cookie, int64_t *offset, int whence);
typedef int interlude_cookie_close_function(void *cookie);

/// The layout of glibc's cookie_io_functions_t.
typedef struct {
    interlude_cookie_read_function *read;
    interlude_cookie_write_function *write;
    interlude_cookie_seek_function *seek;
    interlude_cookie_close_function *close;
} interlude_cookie_io_functions;

/// glibc's `fopencookie`.
FILE *interlude_fopencookie(void *cookie, const char *mode, interlude_cookie_io_functions functions) __asm__("fopencookie");
