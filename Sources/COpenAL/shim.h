// OpenAL Soft's public headers, in one module. Extension entry points are loaded
// at run time through alcGetProcAddress / alGetProcAddress (see Sources/Interlude/OpenAL).
#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <AL/efx.h>
#include <AL/efx-presets.h>

// glibc's dladdr, which <dlfcn.h> declares only under _GNU_SOURCE (Swift's Glibc module is built
// without it), under a name of our own bound to glibc's symbol: ALLibrary asks it which
// libopenal file the process loaded, to learn its release without starting the library.
#include <dlfcn.h>

/// The layout of glibc's Dl_info.
typedef struct {
    const char *file_name;
    void *file_base;
    const char *symbol_name;
    void *symbol_address;
} interlude_loaded_symbol;

/// glibc's `dladdr`.
int interlude_dladdr(const void *address, interlude_loaded_symbol *info) __asm__("dladdr");
