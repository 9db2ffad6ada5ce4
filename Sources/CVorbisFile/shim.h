// libvorbisfile, read through Interlude's own ov_callbacks (see Sources/Interlude/Decoding).
#include <vorbis/vorbisfile.h>
