// libmpg123, read through Interlude's own reader callbacks (see Sources/Interlude/Decoding).
// Headers only: the engine loads the library itself (CDecoderLibraries); the bench links it.
// The plain (unsuffixed) names: off_t is 64-bit on the platforms Interlude builds for.
#include <sys/types.h>
#include <mpg123.h>
