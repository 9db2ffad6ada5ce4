#include "click_baseline.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <pthread.h>
#include <pulse/error.h>
#include <pulse/simple.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bb_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

// Frames per read: 2 ms at 48 kHz, so each read's time is close to its last frame's.
enum { read_frames = 96 };

struct bb_recorder {
    pa_simple *stream;
    pthread_t thread;
    atomic_int stopping;
    float *frames;
    long frame_count;
    long capacity;
    int sample_rate;
    double first_frame_seconds;
};

static void *recorder_run(void *argument) {
    bb_recorder *recorder = argument;
    float chunk[read_frames];
    int error = 0;
    while (!atomic_load(&recorder->stopping) && recorder->frame_count + read_frames <= recorder->capacity) {
        if (pa_simple_read(recorder->stream, chunk, sizeof chunk, &error) < 0) break;
        double now = bb_monotonic_seconds();
        memcpy(recorder->frames + recorder->frame_count, chunk, sizeof chunk);
        recorder->frame_count += read_frames;
        double first = now - (double)recorder->frame_count / recorder->sample_rate;
        if (first < recorder->first_frame_seconds) recorder->first_frame_seconds = first;
    }
    return NULL;
}

bb_recorder *bb_recorder_start(const char *source_name, int sample_rate, double max_seconds) {
    bb_recorder *recorder = calloc(1, sizeof *recorder);
    if (!recorder) return NULL;
    recorder->sample_rate = sample_rate;
    recorder->capacity = (long)(max_seconds * sample_rate);
    recorder->frames = calloc((size_t)recorder->capacity, sizeof(float));
    recorder->first_frame_seconds = 1e300;
    pa_sample_spec spec = {PA_SAMPLE_FLOAT32LE, (uint32_t)sample_rate, 1};
    // A small fragment: the server hands frames over every 2 ms.
    pa_buffer_attr attributes = {(uint32_t)-1, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1,
                                 (uint32_t)(read_frames * sizeof(float))};
    int error = 0;
    recorder->stream = pa_simple_new(NULL, "interlude-bench-recorder", PA_STREAM_RECORD, source_name, "clicks",
                                     &spec, NULL, &attributes, &error);
    if (!recorder->frames || !recorder->stream) {
        fprintf(stderr, "bb_recorder_start(%s): %s\n", source_name, pa_strerror(error));
        if (recorder->stream) pa_simple_free(recorder->stream);
        free(recorder->frames);
        free(recorder);
        return NULL;
    }
    atomic_init(&recorder->stopping, 0);
    if (pthread_create(&recorder->thread, NULL, recorder_run, recorder) != 0) {
        pa_simple_free(recorder->stream);
        free(recorder->frames);
        free(recorder);
        return NULL;
    }
    return recorder;
}

float *bb_recorder_stop(bb_recorder *recorder, long *frame_count, double *first_frame_seconds) {
    atomic_store(&recorder->stopping, 1);
    pthread_join(recorder->thread, NULL);
    pa_simple_free(recorder->stream);
    float *frames = recorder->frames;
    *frame_count = recorder->frame_count;
    *first_frame_seconds = recorder->first_frame_seconds;
    free(recorder);
    return frames;
}

struct bb_click_player {
    ALCdevice *device;
    ALCcontext *context;
    ALuint buffer;
    ALuint source;
};

bb_click_player *bb_click_player_open(int mono_sources, int stereo_sources, const short *click,
                                      int click_frames, int click_sample_rate) {
    bb_click_player *player = calloc(1, sizeof *player);
    if (!player) return NULL;
    player->device = alcOpenDevice(NULL);
    if (!player->device) {
        free(player);
        return NULL;
    }
    ALCint attributes[] = {ALC_MONO_SOURCES, mono_sources, ALC_STEREO_SOURCES, stereo_sources, 0};
    player->context = alcCreateContext(player->device, mono_sources > 0 ? attributes : NULL);
    if (!player->context || !alcMakeContextCurrent(player->context)) {
        if (player->context) alcDestroyContext(player->context);
        alcCloseDevice(player->device);
        free(player);
        return NULL;
    }
    alGenBuffers(1, &player->buffer);
    alBufferData(player->buffer, AL_FORMAT_MONO16, click, click_frames * (int)sizeof(short), click_sample_rate);
    alGenSources(1, &player->source);
    alSourcei(player->source, AL_BUFFER, (ALint)player->buffer);
    return player;
}

void bb_click_player_play(bb_click_player *player) {
    alSourcePlay(player->source);
}

void bb_click_player_close(bb_click_player *player) {
    alSourceStop(player->source);
    alDeleteSources(1, &player->source);
    alDeleteBuffers(1, &player->buffer);
    alcMakeContextCurrent(NULL);
    alcDestroyContext(player->context);
    alcCloseDevice(player->device);
    free(player);
}
