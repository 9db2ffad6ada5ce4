// libpulse and sd-bus, loaded when first needed rather than linked: a game on a machine with no
// audio server and no system bus (a headless box, a container, the bench's null backend) never
// maps them, nor the two dozen libraries they pull in (about 3 MiB resident), and a machine
// without them still runs the engine, without the desktop's sources.
//
// The headers give the types and constants; each function is reached through a table filled by
// dlsym, whose fields have the functions' own types (so a call is checked as a direct one is).
#ifndef INTERLUDE_DESKTOP_LIBRARIES_H
#define INTERLUDE_DESKTOP_LIBRARIES_H

#include <pulse/pulseaudio.h>
#include <systemd/sd-bus.h>

#define IL_PULSE_FUNCTIONS(X) \
    X(context_connect) X(context_disconnect) X(context_errno) X(context_get_client_info) \
    X(context_get_client_info_list) X(context_get_server) \
    X(context_get_server_info) X(context_get_sink_info_by_name) X(context_get_sink_input_info) \
    X(context_get_sink_input_info_list) \
    X(context_get_state) X(context_move_sink_input_by_name) X(context_new) \
    X(context_set_state_callback) X(context_set_subscribe_callback) X(context_subscribe) \
    X(context_unref) X(gettimeofday) X(mainloop_dispatch) X(mainloop_free) X(mainloop_get_api) \
    X(mainloop_new) X(mainloop_poll) X(mainloop_prepare) X(operation_unref) X(proplist_gets) \
    X(strerror) X(threaded_mainloop_free) X(threaded_mainloop_get_api) \
    X(threaded_mainloop_in_thread) X(threaded_mainloop_lock) X(threaded_mainloop_new) \
    X(threaded_mainloop_set_name) X(threaded_mainloop_start) X(threaded_mainloop_stop) \
    X(threaded_mainloop_unlock) X(timeval_add)

#define IL_SYSTEMD_FUNCTIONS(X) \
    X(bus_add_match) X(bus_call) X(bus_error_free) X(bus_flush_close_unref) X(bus_get_events) \
    X(bus_get_fd) X(bus_get_property_trivial) X(bus_get_timeout) X(bus_is_open) \
    X(bus_match_signal) X(bus_message_append_basic) X(bus_message_enter_container) \
    X(bus_message_exit_container) X(bus_message_new_method_call) X(bus_message_read_basic) \
    X(bus_message_skip) X(bus_message_unref) X(bus_new) X(bus_open_system) X(bus_process) \
    X(bus_set_address) X(bus_set_bus_client) X(bus_slot_unref) X(bus_start) X(bus_unref)

#define IL_PULSE_FIELD(name) __typeof__(&pa_##name) _Nonnull name;
#define IL_SYSTEMD_FIELD(name) __typeof__(&sd_##name) _Nonnull name;

/// libpulse's functions, each named without its `pa_` prefix.
struct ILPulseFunctions { IL_PULSE_FUNCTIONS(IL_PULSE_FIELD) };
/// sd-bus's functions, each named without its `sd_` prefix.
struct ILSystemdFunctions { IL_SYSTEMD_FUNCTIONS(IL_SYSTEMD_FIELD) };

#undef IL_PULSE_FIELD
#undef IL_SYSTEMD_FIELD

/// libpulse.so.0's functions, loaded on the first call (once per process, never unloaded); NULL
/// when the library or one of the functions is missing, and `il_pulse_error` says why.
const struct ILPulseFunctions *_Nullable il_pulse_functions(void);
const char *_Nullable il_pulse_error(void);

/// libsystemd.so.0's sd-bus functions, as `il_pulse_functions`.
const struct ILSystemdFunctions *_Nullable il_systemd_functions(void);
const char *_Nullable il_systemd_error(void);

/// Whether libpulse.so.0 is mapped in this process already (OpenAL Soft's PulseAudio backend
/// loads it when it plays to a server), without loading it.
int il_pulse_is_loaded(void);

#endif
