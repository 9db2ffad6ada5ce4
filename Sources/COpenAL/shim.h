// OpenAL Soft's public headers, in one module. Extension entry points are loaded
// at run time through alcGetProcAddress / alGetProcAddress (see Sources/Interlude/OpenAL).
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <AL/efx.h>
#include <AL/efx-presets.h>
