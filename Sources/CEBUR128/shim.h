// libebur128: loudness per ITU-R BS.1770-4 / EBU R128 (see Sources/Interlude/Sounds/Loudness.swift).
#include <ebur128.h>
