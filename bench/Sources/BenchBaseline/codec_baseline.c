// Plain C decode loops over libFLAC, libmpg123 and libopusfile, producing what Interlude's own
// decoders produce (interleaved 32-bit float), so `make bench` can set the engine's decoders
// against the libraries themselves.
#include "bench_baseline.h"

#include <FLAC/stream_decoder.h>
#include <mpg123.h>
#include <opusfile.h>
#include <stdlib.h>

typedef struct {
    float *interleaved;
    long long frames;
    unsigned capacity_frames;
} flac_sink;

static FLAC__StreamDecoderWriteStatus flac_write(const FLAC__StreamDecoder *decoder, const FLAC__Frame *frame,
                                                 const FLAC__int32 *const buffer[], void *client) {
    (void)decoder;
    flac_sink *sink = client;
    unsigned frames = frame->header.blocksize, channels = frame->header.channels;
    if (frames > sink->capacity_frames) {
        free(sink->interleaved);
        sink->interleaved = malloc(sizeof(float) * frames * channels);
        sink->capacity_frames = frames;
    }
    float scale = 1.0f / (float)(1u << (frame->header.bits_per_sample - 1));
    for (unsigned channel = 0; channel < channels; channel++) {
        for (unsigned index = 0; index < frames; index++) {
            sink->interleaved[index * channels + channel] = (float)buffer[channel][index] * scale;
        }
    }
    sink->frames += frames;
    return FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE;
}

static void flac_error(const FLAC__StreamDecoder *decoder, FLAC__StreamDecoderErrorStatus status, void *client) {
    (void)decoder; (void)status; (void)client;
}

long long bb_decode_flac(const char *path) {
    FLAC__StreamDecoder *decoder = FLAC__stream_decoder_new();
    if (!decoder) return -1;
    flac_sink sink = {0};
    long long result = -2;
    if (FLAC__stream_decoder_init_file(decoder, path, flac_write, NULL, flac_error, &sink) == FLAC__STREAM_DECODER_INIT_STATUS_OK &&
        FLAC__stream_decoder_process_until_end_of_stream(decoder)) {
        result = sink.frames;
    }
    FLAC__stream_decoder_delete(decoder);
    free(sink.interleaved);
    return result;
}

long long bb_decode_mp3(const char *path, int buffer_frames) {
    int error = 0;
    mpg123_handle *handle = mpg123_new(NULL, &error);
    if (!handle) return -1;
    mpg123_param(handle, MPG123_FLAGS, MPG123_GAPLESS | MPG123_QUIET, 0);
    mpg123_format_none(handle);
    const long *rates = NULL;
    size_t rate_count = 0;
    mpg123_rates(&rates, &rate_count);
    for (size_t index = 0; index < rate_count; index++) {
        mpg123_format(handle, rates[index], MPG123_MONO | MPG123_STEREO, MPG123_ENC_FLOAT_32);
    }
    long long total = -2;
    if (mpg123_open(handle, path) == MPG123_OK) {
        long rate = 0;
        int channels = 0, encoding = 0;
        mpg123_getformat(handle, &rate, &channels, &encoding);
        size_t byte_capacity = sizeof(float) * (size_t)buffer_frames * 2;
        unsigned char *buffer = malloc(byte_capacity);
        total = 0;
        for (;;) {
            size_t done = 0;
            int status = mpg123_read(handle, buffer, byte_capacity, &done);
            if (status == MPG123_NEW_FORMAT) {
                mpg123_getformat(handle, &rate, &channels, &encoding);
                continue;
            }
            total += (long long)(done / (sizeof(float) * (size_t)(channels > 0 ? channels : 1)));
            if (status == MPG123_DONE) break;
            if (status != MPG123_OK) { total = -3; break; }
        }
        free(buffer);
        mpg123_close(handle);
    }
    mpg123_delete(handle);
    return total;
}

long long bb_decode_opus(const char *path, int buffer_frames) {
    int error = 0;
    OggOpusFile *file = op_open_file(path, &error);
    if (!file) return -1;
    int channels = op_channel_count(file, -1);
    float *buffer = malloc(sizeof(float) * (size_t)buffer_frames * (size_t)channels);
    long long total = 0;
    for (;;) {
        int got = op_read_float(file, buffer, buffer_frames * channels, NULL);
        if (got < 0) { total = -2; break; }
        if (got == 0) break;
        total += got;
    }
    free(buffer);
    op_free(file);
    return total;
}
