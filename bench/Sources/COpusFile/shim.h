// libopusfile, read through Interlude's own OpusFileCallbacks (see Sources/Interlude/Decoding).
#include <opusfile.h>
