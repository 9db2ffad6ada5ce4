#include "bench_baseline.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <vorbis/vorbisfile.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    ALCdevice *device;
    ALCcontext *context;
    LPALCRENDERSAMPLESSOFT render;
} loopback;

static int loopback_open(loopback *out, int sample_rate, int mono_sources, int stereo_sources) {
    LPALCLOOPBACKOPENDEVICESOFT open_device =
        (LPALCLOOPBACKOPENDEVICESOFT)alcGetProcAddress(NULL, "alcLoopbackOpenDeviceSOFT");
    out->render = (LPALCRENDERSAMPLESSOFT)alcGetProcAddress(NULL, "alcRenderSamplesSOFT");
    if (!open_device || !out->render) return -1;
    out->device = open_device(NULL);
    if (!out->device) return -2;
    // The same context attributes the engine asks for.
    ALCint attributes[] = {
        ALC_MONO_SOURCES, mono_sources,
        ALC_STEREO_SOURCES, stereo_sources,
        ALC_HRTF_SOFT, ALC_FALSE,
        ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT,
        ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
        ALC_FREQUENCY, sample_rate,
        ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE,
        ALC_MAX_AUXILIARY_SENDS, 1,
        0,
    };
    out->context = alcCreateContext(out->device, attributes);
    if (!out->context) {
        alcCloseDevice(out->device);
        return -3;
    }
    alcMakeContextCurrent(out->context);
    return 0;
}

static void loopback_close(loopback *device) {
    alcMakeContextCurrent(NULL);
    alcDestroyContext(device->context);
    alcCloseDevice(device->device);
}

// The AL_SOFT_source_resampler index OpenAL Soft gives the resampler Interlude calls `name`,
// found by the names 1.19 and 1.24 report, as the engine finds it; -1 when it has none of them.
static ALint resampler_index(const char *name) {
    static const char *const table[][3] = {
        {"point", "Nearest", "Point"},
        {"linear", "Linear", NULL},
        {"cubic", "Cubic", "Cubic Spline"},
        {"bsinc12", "11th order Sinc", NULL},
        {"bsinc24", "23rd order Sinc", NULL},
    };
    if (!alIsExtensionPresent("AL_SOFT_source_resampler")) return -1;
    LPALGETSTRINGISOFT get_stringi = (LPALGETSTRINGISOFT)alGetProcAddress("alGetStringiSOFT");
    if (!get_stringi) return -1;
    ALint count = alGetInteger(AL_NUM_RESAMPLERS_SOFT);
    for (size_t row = 0; row < sizeof(table) / sizeof(table[0]); row++) {
        if (strcmp(table[row][0], name) != 0) continue;
        for (ALint index = 0; index < count; index++) {
            const ALchar *reported = get_stringi(AL_RESAMPLER_NAME_SOFT, index);
            for (int candidate = 1; candidate < 3 && table[row][candidate]; candidate++) {
                if (reported && strcmp(reported, table[row][candidate]) == 0) return index;
            }
        }
    }
    return -1;
}

void bb_emitter_position(int index, long long frame, int sample_rate, float out_xyz[3]) {
    // Emitters circle the listener at 2..41 units, each at its own speed and phase.
    float seconds = (float)((double)frame / (double)sample_rate);
    float radius = 2.0f + (float)(index % 40);
    float speed = 0.2f + 0.05f * (float)(index % 17);
    float angle = 0.37f * (float)index + speed * seconds;
    out_xyz[0] = radius * cosf(angle);
    out_xyz[1] = 0.5f * (float)(index % 3) - 0.5f;
    out_xyz[2] = radius * sinf(angle);
}

float bb_emitter_gain(int index) {
    return 0.3f + 0.07f * (float)(index % 10);
}

typedef struct {
    OggVorbis_File file;
    ALuint source;
    ALuint *buffers;
    ALuint *free_buffers;
    int free_count;
    int queued_count;
    int buffer_frames;
    int channel_count;
    long sample_rate;
    ogg_int64_t frame_total;
    float *scratch;
} music_stream;

static int music_refill(music_stream *music) {
    while (music->free_count > 0) {
        int filled = 0;
        while (filled < music->buffer_frames) {
            float **planes = NULL;
            int section = 0;
            long got = ov_read_float(&music->file, &planes, music->buffer_frames - filled, &section);
            if (got < 0) return -20;
            if (got == 0) {
                // The end: a partial buffer is queued as it is; an empty one loops to the start.
                if (filled > 0) break;
                if (ov_pcm_seek(&music->file, 0) != 0) return -21;
                continue;
            }
            float *destination = music->scratch + (size_t)filled * (size_t)music->channel_count;
            for (long frame = 0; frame < got; frame++) {
                for (int channel = 0; channel < music->channel_count; channel++) {
                    destination[frame * music->channel_count + channel] = planes[channel][frame];
                }
            }
            filled += (int)got;
        }
        ALuint buffer = music->free_buffers[--music->free_count];
        alBufferData(buffer, music->channel_count == 2 ? AL_FORMAT_STEREO_FLOAT32 : AL_FORMAT_MONO_FLOAT32,
                     music->scratch, (ALsizei)((size_t)filled * (size_t)music->channel_count * sizeof(float)),
                     (ALsizei)music->sample_rate);
        alSourceQueueBuffers(music->source, 1, &buffer);
        music->queued_count++;
    }
    return 0;
}

static int music_open(music_stream *music, const char *path, int buffer_count, double buffer_seconds, ALint resampler) {
    memset(music, 0, sizeof(*music));
    if (ov_fopen(path, &music->file) != 0) return -10;
    vorbis_info *info = ov_info(&music->file, -1);
    music->channel_count = info->channels;
    music->sample_rate = info->rate;
    music->frame_total = ov_pcm_total(&music->file, -1);
    music->buffer_frames = (int)((double)info->rate * buffer_seconds);
    if (music->buffer_frames < 256) music->buffer_frames = 256;
    music->scratch = malloc((size_t)music->buffer_frames * (size_t)music->channel_count * sizeof(float));
    music->buffers = malloc(sizeof(ALuint) * (size_t)buffer_count);
    music->free_buffers = malloc(sizeof(ALuint) * (size_t)buffer_count);
    alGenSources(1, &music->source);
    alGenBuffers(buffer_count, music->buffers);
    for (int index = 0; index < buffer_count; index++) music->free_buffers[index] = music->buffers[index];
    music->free_count = buffer_count;
    if (music->channel_count == 2) alSourcei(music->source, AL_DIRECT_CHANNELS_SOFT, AL_TRUE);
    alSourcei(music->source, AL_SOURCE_RELATIVE, AL_TRUE);
    alSource3f(music->source, AL_POSITION, 0, 0, 0);
    alSourcef(music->source, AL_ROLLOFF_FACTOR, 0);
    alSourcef(music->source, AL_GAIN, 1);
    if (resampler >= 0) alSourcei(music->source, AL_SOURCE_RESAMPLER_SOFT, resampler);
    int result = music_refill(music);
    if (result != 0) return result;
    alSourcePlay(music->source);
    return alGetError() == AL_NO_ERROR ? 0 : -11;
}

static int music_service(music_stream *music) {
    ALint processed = 0;
    alGetSourcei(music->source, AL_BUFFERS_PROCESSED, &processed);
    while (processed-- > 0) {
        ALuint buffer = 0;
        alSourceUnqueueBuffers(music->source, 1, &buffer);
        music->free_buffers[music->free_count++] = buffer;
        music->queued_count--;
    }
    ALint state = 0;
    alGetSourcei(music->source, AL_SOURCE_STATE, &state);
    int result = music_refill(music);
    if (result != 0) return result;
    if ((state == AL_STOPPED || state == AL_INITIAL) && music->queued_count > 0) alSourcePlay(music->source);
    return 0;
}

static void music_close(music_stream *music, int buffer_count) {
    alSourceStop(music->source);
    alSourcei(music->source, AL_BUFFER, 0);
    alDeleteSources(1, &music->source);
    alDeleteBuffers(buffer_count, music->buffers);
    free(music->scratch);
    free(music->buffers);
    free(music->free_buffers);
    ov_clear(&music->file);
}

int bb_render_scene(const bb_scene *scene) {
    loopback device;
    int result = loopback_open(&device, scene->sample_rate, scene->mono_source_count, scene->stereo_source_count);
    if (result != 0) return result;
    alDistanceModel(AL_INVERSE_DISTANCE_CLAMPED);
    ALint resampler = -1;
    if (scene->resampler) {
        resampler = resampler_index(scene->resampler);
        if (resampler < 0) {
            loopback_close(&device);
            return -40;
        }
    }

    music_stream music;
    int has_music = scene->music_path != NULL;
    if (has_music) {
        result = music_open(&music, scene->music_path, scene->music_buffer_count, scene->music_buffer_seconds, resampler);
        if (result != 0) {
            loopback_close(&device);
            return result;
        }
    }

    ALuint *buffers = malloc(sizeof(ALuint) * (size_t)scene->sound_count);
    alGenBuffers(scene->sound_count, buffers);
    for (int index = 0; index < scene->sound_count; index++) {
        alBufferData(buffers[index], AL_FORMAT_MONO_FLOAT32, scene->sounds[index],
                     (ALsizei)((size_t)scene->sound_frame_counts[index] * sizeof(float)), scene->sound_sample_rate);
    }
    int source_count = scene->emitter_count < scene->source_limit ? scene->emitter_count : scene->source_limit;
    ALuint *sources = malloc(sizeof(ALuint) * (size_t)(source_count > 0 ? source_count : 1));
    float position[3];
    for (int index = 0; index < source_count; index++) {
        alGenSources(1, &sources[index]);
        ALuint source = sources[index];
        alSourcei(source, AL_BUFFER, (ALint)buffers[index % scene->sound_count]);
        alSourcef(source, AL_GAIN, bb_emitter_gain(index));
        alSourcei(source, AL_LOOPING, AL_TRUE);
        if (resampler >= 0) alSourcei(source, AL_SOURCE_RESAMPLER_SOFT, resampler);
        bb_emitter_position(index, 0, scene->sample_rate, position);
        alSourcefv(source, AL_POSITION, position);
        alSourcePlay(source);
    }
    if (alGetError() != AL_NO_ERROR) result = -30;

    float *scratch = malloc(sizeof(float) * 2 * (size_t)scene->update_frames);
    for (long long frame = 0; frame < scene->frame_count && result == 0; frame += scene->update_frames) {
        if (frame > 0) {
            for (int index = 0; index < source_count; index++) {
                bb_emitter_position(index, frame, scene->sample_rate, position);
                alSourcefv(sources[index], AL_POSITION, position);
            }
        }
        if (has_music) result = music_service(&music);
        long long remaining = scene->frame_count - frame;
        int chunk = remaining < scene->update_frames ? (int)remaining : scene->update_frames;
        float *destination = scene->output ? scene->output + frame * 2 : scratch;
        device.render(device.device, destination, chunk);
    }
    free(scratch);

    for (int index = 0; index < source_count; index++) {
        alSourceStop(sources[index]);
        alSourcei(sources[index], AL_BUFFER, 0);
    }
    if (source_count > 0) alDeleteSources(source_count, sources);
    if (has_music) music_close(&music, scene->music_buffer_count);
    alDeleteBuffers(scene->sound_count, buffers);
    free(sources);
    free(buffers);
    loopback_close(&device);
    return result;
}

long long bb_decode_vorbis(const char *path, int buffer_frames, int mode) {
    OggVorbis_File file;
    if (ov_fopen(path, &file) != 0) return -1;
    int channel_count = ov_info(&file, -1)->channels;
    long long total = 0;
    if (mode == 0) {
        float *interleaved = malloc(sizeof(float) * (size_t)buffer_frames * (size_t)channel_count);
        for (;;) {
            float **planes = NULL;
            int section = 0;
            long got = ov_read_float(&file, &planes, buffer_frames, &section);
            if (got < 0) { total = -2; break; }
            if (got == 0) break;
            for (long frame = 0; frame < got; frame++) {
                for (int channel = 0; channel < channel_count; channel++) {
                    interleaved[frame * channel_count + channel] = planes[channel][frame];
                }
            }
            total += got;
        }
        free(interleaved);
    } else {
        int byte_count = buffer_frames * channel_count * 2;
        char *pcm = malloc((size_t)byte_count);
        for (;;) {
            int section = 0;
            long got = ov_read(&file, pcm, byte_count, 0, 2, 1, &section);
            if (got < 0) { total = -2; break; }
            if (got == 0) break;
            total += got / (2 * channel_count);
        }
        free(pcm);
    }
    ov_clear(&file);
    return total;
}

int bb_startup(int sample_rate, const float *const *sounds, const int *sound_frame_counts, int sound_count,
               int sound_sample_rate) {
    loopback device;
    int result = loopback_open(&device, sample_rate, 255, 16);
    if (result != 0) return result;
    ALuint *buffers = malloc(sizeof(ALuint) * (size_t)sound_count);
    alGenBuffers(sound_count, buffers);
    for (int index = 0; index < sound_count; index++) {
        alBufferData(buffers[index], AL_FORMAT_MONO_FLOAT32, sounds[index],
                     (ALsizei)((size_t)sound_frame_counts[index] * sizeof(float)), sound_sample_rate);
    }
    if (alGetError() != AL_NO_ERROR) result = -30;
    alDeleteBuffers(sound_count, buffers);
    free(buffers);
    loopback_close(&device);
    return result;
}

static double process_cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

double bb_gain_pitch_updates(int sample_rate, const float *sound, int sound_frame_count, int sound_sample_rate,
                             int source_count, int updates) {
    loopback device;
    int result = loopback_open(&device, sample_rate, 255, 16);
    if (result != 0) return result;
    LPALDEFERUPDATESSOFT defer_updates = (LPALDEFERUPDATESSOFT)alGetProcAddress("alDeferUpdatesSOFT");
    LPALPROCESSUPDATESSOFT process_updates = (LPALPROCESSUPDATESSOFT)alGetProcAddress("alProcessUpdatesSOFT");
    // The thread's own context (ALC_EXT_thread_local_context), as the engine's update uses: each
    // call then skips the lock that the process-wide context takes, the cheapest way to call.
    PFNALCSETTHREADCONTEXTPROC set_thread_context = (PFNALCSETTHREADCONTEXTPROC)alcGetProcAddress(device.device, "alcSetThreadContext");
    if (!defer_updates || !process_updates || !set_thread_context || !set_thread_context(device.context)) {
        loopback_close(&device);
        return -50;
    }
    ALuint buffer;
    alGenBuffers(1, &buffer);
    alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, sound, (ALsizei)((size_t)sound_frame_count * sizeof(float)), sound_sample_rate);
    ALuint *sources = malloc(sizeof(ALuint) * (size_t)source_count);
    alGenSources(source_count, sources);
    for (int index = 0; index < source_count; index++) {
        alSourcei(sources[index], AL_BUFFER, (ALint)buffer);
        alSourcei(sources[index], AL_LOOPING, AL_TRUE);
        alSource3f(sources[index], AL_POSITION, (float)(index % 8) - 4, 0, -(float)(index / 8) - 1);
        alSourcePlay(sources[index]);
    }
    double seconds = -51;
    if (alGetError() == AL_NO_ERROR) {
        double start = process_cpu_seconds();
        for (int update = 0; update < updates; update++) {
            float gain = 0.5f + (float)(update % 100) / 200, pitch = 0.8f + (float)(update % 100) / 140;
            defer_updates();
            for (int index = 0; index < source_count; index++) {
                alSourcef(sources[index], AL_GAIN, gain);
                alSourcef(sources[index], AL_PITCH, pitch);
            }
            process_updates();
        }
        seconds = (process_cpu_seconds() - start) / (updates > 0 ? updates : 1);
    }
    for (int index = 0; index < source_count; index++) alSourceStop(sources[index]);
    alDeleteSources(source_count, sources);
    alDeleteBuffers(1, &buffer);
    free(sources);
    set_thread_context(NULL);
    loopback_close(&device);
    return seconds;
}
