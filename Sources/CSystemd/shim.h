// sd-bus, systemd's D-Bus client library, in one module. The session sources use its
// non-variadic calls only (method calls built with sd_bus_message_append_basic, replies read
// with sd_bus_message_read_basic): Swift cannot call C's variadic functions.
#include <systemd/sd-bus.h>
