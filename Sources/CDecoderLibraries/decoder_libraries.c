#include "CDecoderLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// One library: its table, filled once under pthread_once, and why it failed if it did.
struct Loaded {
    const void *table;
    char error[256];
    pthread_once_t once;
};

static struct ILFLACFunctions flac;
static struct Loaded flacLoaded = { NULL, "", PTHREAD_ONCE_INIT };
static struct ILMPG123Functions mpg123;
static struct Loaded mpg123Loaded = { NULL, "", PTHREAD_ONCE_INIT };
static struct ILOpusFileFunctions opusFile;
static struct Loaded opusFileLoaded = { NULL, "", PTHREAD_ONCE_INIT };

// The first of `names` that loads (a NULL-terminated list: sonames of the library's versions
// with the same API), or NULL with `loaded->error` naming the first.
static void *openFirst(const char *const *names, struct Loaded *loaded) {
    for (const char *const *name = names; *name; name++) {
        void *library = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (library) return library;
        if (name == names) snprintf(loaded->error, sizeof loaded->error, "%s could not be loaded: %s", *name, dlerror());
    }
    return NULL;
}

// Fills `*field` with `symbol` from `library`; false (and the error says which) when missing.
static int resolve(void *library, const char *libraryName, const char *symbol, void **field, struct Loaded *loaded) {
    *field = dlsym(library, symbol);
    if (*field) return 1;
    snprintf(loaded->error, sizeof loaded->error, "%s has no %s", libraryName, symbol);
    return 0;
}

static void loadFLAC(void) {
    // libFLAC 1.3 (soname 8), 1.4 (12) and 1.4.3+ (14) share the stream decoder's API.
    static const char *const names[] = { "libFLAC.so.12", "libFLAC.so.14", "libFLAC.so.8", NULL };
    void *library = openFirst(names, &flacLoaded);
    if (!library) return;
#define IL_LOAD(name) if (!resolve(library, "libFLAC", #name, (void **)&flac.name, &flacLoaded)) return;
    IL_FLAC_FUNCTIONS(IL_LOAD)
    IL_FLAC_NAME_TABLES(IL_LOAD)
#undef IL_LOAD
    flacLoaded.table = &flac;
}

static void loadMPG123(void) {
    static const char *const names[] = { "libmpg123.so.0", NULL };
    void *library = openFirst(names, &mpg123Loaded);
    if (!library) return;
#define IL_LOAD(name) if (!resolve(library, "libmpg123.so.0", #name, (void **)&mpg123.name, &mpg123Loaded)) return;
    IL_MPG123_FUNCTIONS(IL_LOAD)
#undef IL_LOAD
    // A no-op from libmpg123 1.27 on; older versions need it once per process.
    if (mpg123.mpg123_init() != MPG123_OK) {
        snprintf(mpg123Loaded.error, sizeof mpg123Loaded.error, "libmpg123.so.0 failed to initialize");
        return;
    }
    mpg123Loaded.table = &mpg123;
}

static void loadOpusFile(void) {
    static const char *const names[] = { "libopusfile.so.0", NULL };
    void *library = openFirst(names, &opusFileLoaded);
    if (!library) return;
#define IL_LOAD(name) if (!resolve(library, "libopusfile.so.0", #name, (void **)&opusFile.name, &opusFileLoaded)) return;
    IL_OPUSFILE_FUNCTIONS(IL_LOAD)
#undef IL_LOAD
    opusFileLoaded.table = &opusFile;
}

const struct ILFLACFunctions *il_flac_functions(void) {
    pthread_once(&flacLoaded.once, loadFLAC);
    return flacLoaded.table;
}

const char *il_flac_error(void) {
    pthread_once(&flacLoaded.once, loadFLAC);
    return flacLoaded.table ? NULL : flacLoaded.error;
}

const struct ILMPG123Functions *il_mpg123_functions(void) {
    pthread_once(&mpg123Loaded.once, loadMPG123);
    return mpg123Loaded.table;
}

const char *il_mpg123_error(void) {
    pthread_once(&mpg123Loaded.once, loadMPG123);
    return mpg123Loaded.table ? NULL : mpg123Loaded.error;
}

const struct ILOpusFileFunctions *il_opusfile_functions(void) {
    pthread_once(&opusFileLoaded.once, loadOpusFile);
    return opusFileLoaded.table;
}

const char *il_opusfile_error(void) {
    pthread_once(&opusFileLoaded.once, loadOpusFile);
    return opusFileLoaded.table ? NULL : opusFileLoaded.error;
}
