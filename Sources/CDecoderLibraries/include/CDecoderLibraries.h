// libFLAC, libmpg123 and libopusfile, loaded the first time a file of theirs is opened rather
// than linked: a game that plays WAV and Ogg Vorbis alone never maps them (FoundationFreeTests
// checks it), and the dynamic linker does not resolve their symbols at every start.
//
// libFLAC's and libmpg123's headers give the types and constants; each function is reached
// through a table filled by dlsym, whose fields have the functions' own types and names, so a
// call is checked as a direct one is. libopusfile's header needs libopus's include folder,
// which only pkg-config gives (and SwiftPM links what pkg-config names), so the part of its
// interface the engine calls is declared below, as opusfile.h declares it (unchanged since 0.1).
#ifndef INTERLUDE_DECODER_LIBRARIES_H
#define INTERLUDE_DECODER_LIBRARIES_H

#include <sys/types.h>
#include <FLAC/stream_decoder.h>
#include <mpg123.h>
#include <stddef.h>
#include <stdint.h>

#define IL_FLAC_FUNCTIONS(X) \
    X(FLAC__stream_decoder_new) X(FLAC__stream_decoder_delete) X(FLAC__stream_decoder_get_state) \
    X(FLAC__stream_decoder_init_stream) X(FLAC__stream_decoder_set_metadata_respond) \
    X(FLAC__stream_decoder_process_single) X(FLAC__stream_decoder_process_until_end_of_metadata) \
    X(FLAC__stream_decoder_seek_absolute) X(FLAC__stream_decoder_flush) X(FLAC__stream_decoder_reset)

// libFLAC's name tables, unsized extern arrays of strings.
#define IL_FLAC_NAME_TABLES(X) \
    X(FLAC__StreamDecoderStateString) X(FLAC__StreamDecoderInitStatusString) \
    X(FLAC__StreamDecoderErrorStatusString)

#define IL_MPG123_FUNCTIONS(X) \
    X(mpg123_init) X(mpg123_new) X(mpg123_delete) X(mpg123_close) X(mpg123_param2) \
    X(mpg123_format_none) X(mpg123_format) X(mpg123_rates) X(mpg123_replace_reader_handle) \
    X(mpg123_open_handle) X(mpg123_getformat) X(mpg123_scan) X(mpg123_length) X(mpg123_read) \
    X(mpg123_seek) X(mpg123_strerror) X(mpg123_plain_strerror)

#define IL_OPUSFILE_FUNCTIONS(X) \
    X(op_open_callbacks) X(op_free) X(op_read_float) X(op_pcm_tell) X(op_pcm_seek) X(op_tags) \
    X(op_channel_count) X(op_link_count) X(op_pcm_total)

/// opusfile.h's OggOpusFile, opaque.
typedef struct ILOggOpusFile ILOggOpusFile;
/// opusfile.h's OpusFileCallbacks: reads, seeks and tells over the caller's stream.
typedef struct ILOpusFileCallbacks {
    int (*_Nullable read)(void *_Nullable stream, unsigned char *_Nullable bytes, int byteCount);
    int (*_Nullable seek)(void *_Nullable stream, int64_t offset, int whence);
    int64_t (*_Nullable tell)(void *_Nullable stream);
    int (*_Nullable close)(void *_Nullable stream);
} ILOpusFileCallbacks;
/// opusfile.h's OpusTags.
typedef struct ILOpusTags {
    char *_Nullable *_Nullable user_comments;
    int *_Nullable comment_lengths;
    int comments;
    char *_Nullable vendor;
} ILOpusTags;
// opusfile.h's return codes that the engine tells apart.
#define IL_OP_HOLE (-3)
#define IL_OP_EREAD (-128)
#define IL_OP_EIMPL (-130)
#define IL_OP_ENOTFORMAT (-132)
#define IL_OP_EBADHEADER (-133)
#define IL_OP_EVERSION (-134)
#define IL_OP_EBADPACKET (-136)
#define IL_OP_EBADLINK (-137)
#define IL_OP_EBADTIMESTAMP (-139)

#define IL_DECODER_FIELD(name) __typeof__(&name) _Nonnull name;
#define IL_DECODER_NAME_TABLE(name) const char *_Nullable const *_Nonnull name;

/// libFLAC's stream decoder functions and name tables.
struct ILFLACFunctions { IL_FLAC_FUNCTIONS(IL_DECODER_FIELD) IL_FLAC_NAME_TABLES(IL_DECODER_NAME_TABLE) };
/// libmpg123's functions.
struct ILMPG123Functions { IL_MPG123_FUNCTIONS(IL_DECODER_FIELD) };
/// libopusfile's functions, with opusfile.h's types.
struct ILOpusFileFunctions {
    ILOggOpusFile *_Nullable (*_Nonnull op_open_callbacks)(void *_Nullable stream, const ILOpusFileCallbacks *_Nonnull callbacks,
                                                           const unsigned char *_Nullable initialData, size_t initialByteCount,
                                                           int *_Nullable error);
    void (*_Nonnull op_free)(ILOggOpusFile *_Nullable file);
    int (*_Nonnull op_read_float)(ILOggOpusFile *_Nonnull file, float *_Nonnull pcm, int sampleCount, int *_Nullable link);
    int64_t (*_Nonnull op_pcm_tell)(const ILOggOpusFile *_Nonnull file);
    int (*_Nonnull op_pcm_seek)(ILOggOpusFile *_Nonnull file, int64_t frame);
    const ILOpusTags *_Nullable (*_Nonnull op_tags)(const ILOggOpusFile *_Nonnull file, int link);
    int (*_Nonnull op_channel_count)(const ILOggOpusFile *_Nonnull file, int link);
    int (*_Nonnull op_link_count)(const ILOggOpusFile *_Nonnull file);
    int64_t (*_Nonnull op_pcm_total)(const ILOggOpusFile *_Nonnull file, int link);
};

#undef IL_DECODER_FIELD
#undef IL_DECODER_NAME_TABLE

/// libFLAC's functions, loaded on the first call (once per process, never unloaded); NULL when
/// the library or one of its symbols is missing, and `il_flac_error` says why.
const struct ILFLACFunctions *_Nullable il_flac_functions(void);
const char *_Nullable il_flac_error(void);

/// libmpg123's functions, as `il_flac_functions`.
const struct ILMPG123Functions *_Nullable il_mpg123_functions(void);
const char *_Nullable il_mpg123_error(void);

/// libopusfile's functions, as `il_flac_functions`.
const struct ILOpusFileFunctions *_Nullable il_opusfile_functions(void);
const char *_Nullable il_opusfile_error(void);

#endif
