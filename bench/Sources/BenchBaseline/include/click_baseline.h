// The click-latency bench's C side: a recorder on a PulseAudio monitor that timestamps what
// it records against CLOCK_MONOTONIC, and the raw OpenAL player the engine is measured against.
#ifndef CLICK_BASELINE_H
#define CLICK_BASELINE_H

#ifdef __cplusplus
extern "C" {
#endif

/// CLOCK_MONOTONIC in seconds.
double bb_monotonic_seconds(void);

/// A recorder: a thread reading mono float frames from a PulseAudio source.
typedef struct bb_recorder bb_recorder;

/// Starts recording `source_name` (e.g. "spk.monitor") at `sample_rate` Hz, for at most
/// `max_seconds`. NULL when the server refuses (the reason goes to stderr).
bb_recorder *bb_recorder_start(const char *source_name, int sample_rate, double max_seconds);

/// Stops the recorder. `*frame_count` gets the frames recorded and `*first_frame_seconds` the
/// CLOCK_MONOTONIC time of frame 0: the earliest any read could have delivered it (the lowest
/// of read time minus frames read so far, over every read). Returns the frames; free() them.
float *bb_recorder_stop(bb_recorder *recorder, long *frame_count, double *first_frame_seconds);

/// A raw OpenAL player: the default device, a context with the given ALC_MONO_SOURCES /
/// ALC_STEREO_SOURCES (0 and 0: no attributes), one source with a mono 16-bit click.
typedef struct bb_click_player bb_click_player;

/// Opens the player; NULL when no device or context opens.
bb_click_player *bb_click_player_open(int mono_sources, int stereo_sources, const short *click,
                                      int click_frames, int click_sample_rate);
/// alSourcePlay on the click's source.
void bb_click_player_play(bb_click_player *player);
/// Frees everything and closes the device.
void bb_click_player_close(bb_click_player *player);

#ifdef __cplusplus
}
#endif

#endif
