#include "CDesktopLibraries.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// One loaded library: its table, filled once under pthread_once, and why it failed if it did.
static struct ILPulseFunctions pulse;
static const struct ILPulseFunctions *pulseLoaded;
static char pulseError[256];
static pthread_once_t pulseOnce = PTHREAD_ONCE_INIT;

static struct ILSystemdFunctions systemd;
static const struct ILSystemdFunctions *systemdLoaded;
static char systemdError[256];
static pthread_once_t systemdOnce = PTHREAD_ONCE_INIT;

// Fills `*field` with `symbol` from `library`, named `name`; false (and `error` says which) when
// it is missing.
static int resolve(void *library, const char *name, const char *symbol, void **field, char *error, size_t errorSize) {
    *field = dlsym(library, symbol);
    if (*field) return 1;
    snprintf(error, errorSize, "%s has no %s", name, symbol);
    return 0;
}

static void loadPulse(void) {
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(pulseError, sizeof pulseError, "libpulse.so.0 could not be loaded: %s", dlerror());
        return;
    }
#define IL_LOAD(name) \
    if (!resolve(library, "libpulse.so.0", "pa_" #name, (void **)&pulse.name, pulseError, sizeof pulseError)) return;
    IL_PULSE_FUNCTIONS(IL_LOAD)
#undef IL_LOAD
    pulseLoaded = &pulse;
}

static void loadSystemd(void) {
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(systemdError, sizeof systemdError, "libsystemd.so.0 could not be loaded: %s", dlerror());
        return;
    }
#define IL_LOAD(name) \
    if (!resolve(library, "libsystemd.so.0", "sd_" #name, (void **)&systemd.name, systemdError, sizeof systemdError)) return;
    IL_SYSTEMD_FUNCTIONS(IL_LOAD)
#undef IL_LOAD
    systemdLoaded = &systemd;
}

const struct ILPulseFunctions *il_pulse_functions(void) {
    pthread_once(&pulseOnce, loadPulse);
    return pulseLoaded;
}

const char *il_pulse_error(void) {
    pthread_once(&pulseOnce, loadPulse);
    return pulseLoaded ? NULL : pulseError;
}

const struct ILSystemdFunctions *il_systemd_functions(void) {
    pthread_once(&systemdOnce, loadSystemd);
    return systemdLoaded;
}

const char *il_systemd_error(void) {
    pthread_once(&systemdOnce, loadSystemd);
    return systemdLoaded ? NULL : systemdError;
}

int il_pulse_is_loaded(void) {
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!library) return 0;
    dlclose(library);  // drops only the reference RTLD_NOLOAD took
    return 1;
}
