// The raw C baseline of Interlude's bench: OpenAL Soft and libvorbisfile driven directly,
// rendering the same scenes through a loopback device, in the same process as the engine.
#ifndef BENCH_BASELINE_H
#define BENCH_BASELINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A scene: `emitter_count` positional looping emitters moved every `update_frames`, plus an
/// optional streamed, looping soundtrack, rendered at `sample_rate` Hz stereo float.
typedef struct {
    int sample_rate;
    int emitter_count;
    /// Emitters past this many get no source (raw OpenAL has no virtual voices).
    int source_limit;
    /// ALC_MONO_SOURCES / ALC_STEREO_SOURCES of the context.
    int mono_source_count;
    int stereo_source_count;
    /// Mono float PCM of each sound at `sound_sample_rate`; emitter i plays sound i % sound_count.
    const float *const *sounds;
    const int *sound_frame_counts;
    int sound_count;
    int sound_sample_rate;
    /// An Ogg Vorbis file streamed with ov_read_float and alSourceQueueBuffers; NULL: none.
    const char *music_path;
    int music_buffer_count;
    double music_buffer_seconds;
    long long frame_count;
    int update_frames;
    /// frame_count * 2 floats to keep the render, or NULL to discard it.
    float *output;
    /// How every source resamples, by Interlude's name for it (point, linear, cubic, bsinc12,
    /// bsinc24), set through AL_SOFT_source_resampler as the engine does; NULL: OpenAL Soft's
    /// own default, with no call made.
    const char *resampler;
} bb_scene;

/// Renders `scene`. Returns 0, or a negative code naming the failing step.
int bb_render_scene(const bb_scene *scene);

/// Where emitter `index` is at `frame`: the one definition the engine side of the bench uses too.
void bb_emitter_position(int index, long long frame, int sample_rate, float out_xyz[3]);

/// Emitter `index`'s gain.
float bb_emitter_gain(int index);

/// Decodes all of an Ogg Vorbis file in `buffer_frames` chunks: mode 0 ov_read_float into
/// interleaved float (what the engine's decoder produces), mode 1 ov_read into int16.
/// Returns the frames decoded, or a negative code.
long long bb_decode_vorbis(const char *path, int buffer_frames, int mode);

/// Decodes all of a FLAC file through libFLAC's file decoder, each block converted to interleaved
/// float as v / 2^(bits - 1). Returns the frames decoded, or a negative code.
long long bb_decode_flac(const char *path);

/// Decodes all of an MP3 file through libmpg123 (gapless, 32-bit float out) in `buffer_frames`
/// chunks. Returns the frames decoded, or a negative code.
long long bb_decode_mp3(const char *path, int buffer_frames);

/// Decodes all of an Ogg Opus file with op_read_float in `buffer_frames` chunks. Returns the
/// frames decoded, or a negative code.
long long bb_decode_opus(const char *path, int buffer_frames);

/// Opens a loopback device and context, uploads `sound_count` mono float sounds into buffers,
/// then tears everything down. Returns 0, or a negative code.
int bb_startup(int sample_rate, const float *const *sounds, const int *sound_frame_counts, int sound_count,
               int sound_sample_rate);

/// Times `updates` updates of `source_count` looping sources of one mono float sound on a
/// loopback device, each update setting every source's gain and pitch (new values each time)
/// between alDeferUpdatesSOFT and alProcessUpdatesSOFT, as a curve-following update does.
/// Returns the process CPU seconds per update, or a negative code.
double bb_gain_pitch_updates(int sample_rate, const float *sound, int sound_frame_count, int sound_sample_rate,
                             int source_count, int updates);

#ifdef __cplusplus
}
#endif

// The click-latency scenario's recorder and raw player.
#include "click_baseline.h"

#endif
