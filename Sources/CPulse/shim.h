// libpulse, for the engine's own connection to the audio server (PulseAudio, or PipeWire
// through pipewire-pulse): the threaded main loop, the context, subscriptions and sink-input
// introspection. Only the session's desktop sources use it.
#include <pulse/pulseaudio.h>
