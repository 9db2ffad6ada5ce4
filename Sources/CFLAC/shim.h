// libFLAC's stream decoder, read through Interlude's own callbacks (see Sources/Interlude/Decoding).
// Headers only: the engine loads the library itself (CDecoderLibraries); the bench links it.
#include <FLAC/stream_decoder.h>

