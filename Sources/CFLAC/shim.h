// libFLAC's stream decoder, read through Interlude's own callbacks (see Sources/Interlude/Decoding).
#include <FLAC/stream_decoder.h>

// libFLAC's name tables are unsized extern arrays, which Swift cannot import; these read them.
static inline const char *interlude_flac_state_name(FLAC__StreamDecoderState state) {
    return FLAC__StreamDecoderStateString[state];
}
static inline const char *interlude_flac_init_status_name(FLAC__StreamDecoderInitStatus status) {
    return FLAC__StreamDecoderInitStatusString[status];
}
static inline const char *interlude_flac_error_name(FLAC__StreamDecoderErrorStatus status) {
    return FLAC__StreamDecoderErrorStatusString[status];
}
