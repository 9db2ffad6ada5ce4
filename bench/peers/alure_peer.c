/* ALURE 1.2 on the peer scene (see peer_scene.h): buffers loaded by alureCreateBufferFromFile,
 * the soundtrack streamed by alurePlaySourceStream (4 x 200 ms chunks, as the engine streams),
 * refilled by ALURE's own update thread (alureUpdateInterval 10 ms); voices moved with
 * alSource3f, as ALURE leaves source parameters to OpenAL. Run with ALSOFT_DRIVERS=null. */
#include "peer_scene.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alure.h>

#define MUSIC_BUFFER_COUNT 4

static void move_source(int index, const float xyz[3], void *context) {
    const ALuint *sources = (const ALuint *)context;
    alSource3f(sources[index], AL_POSITION, xyz[0], xyz[1], xyz[2]);
}

int main(int argc, char **argv) {
    peer_scene scene;
    if (peer_scene_parse(&scene, argc, argv) != 0) return 2;
    if (!alureInitDevice(NULL, NULL)) {
        fprintf(stderr, "alureInitDevice: %s\n", alureGetErrorString());
        return 3;
    }
    ALuint *buffers = calloc((size_t)scene.sound_count, sizeof(ALuint));
    for (int index = 0; index < scene.sound_count; index++) {
        buffers[index] = alureCreateBufferFromFile(scene.sound_paths[index]);
        if (buffers[index] == AL_NONE) {
            fprintf(stderr, "alureCreateBufferFromFile(%s): %s\n", scene.sound_paths[index], alureGetErrorString());
            return 3;
        }
    }
    ALuint music_source = 0;
    alGenSources(1, &music_source);
    alSourcei(music_source, AL_SOURCE_RELATIVE, AL_TRUE);
    alSourcef(music_source, AL_ROLLOFF_FACTOR, 0);
    alureStreamSizeIsMicroSec(AL_TRUE);
    alureStream *stream = alureCreateStreamFromFile(scene.music_path, 200000, 0, NULL);
    if (!stream) {
        fprintf(stderr, "alureCreateStreamFromFile(%s): %s\n", scene.music_path, alureGetErrorString());
        return 4;
    }
    if (!alureUpdateInterval(0.01f) || !alurePlaySourceStream(music_source, stream, MUSIC_BUFFER_COUNT, -1, NULL, NULL)) {
        fprintf(stderr, "alurePlaySourceStream: %s\n", alureGetErrorString());
        return 4;
    }
    ALuint *sources = calloc((size_t)scene.emitter_count, sizeof(ALuint));
    alGenSources(scene.emitter_count, sources);
    if (alGetError() != AL_NO_ERROR) return 5;
    for (int index = 0; index < scene.emitter_count; index++) {
        float xyz[3];
        peer_emitter_position(index, 0, xyz);
        alSourcei(sources[index], AL_BUFFER, (ALint)buffers[index % scene.sound_count]);
        alSourcei(sources[index], AL_LOOPING, AL_TRUE);
        alSourcef(sources[index], AL_GAIN, peer_emitter_gain(index));
        alSource3f(sources[index], AL_POSITION, xyz[0], xyz[1], xyz[2]);
    }
    alSourcePlayv(scene.emitter_count, sources);
    double played = peer_scene_run(&scene, move_source, sources);
    int playing = 0;
    for (int index = 0; index < scene.emitter_count; index++) {
        ALint state = 0;
        alGetSourcei(sources[index], AL_SOURCE_STATE, &state);
        playing += state == AL_PLAYING ? 1 : 0;
    }
    ALint music_state = 0;
    alGetSourcei(music_source, AL_SOURCE_STATE, &music_state);
    ALCint frequency = 0;
    alcGetIntegerv(alcGetContextsDevice(alcGetCurrentContext()), ALC_FREQUENCY, 1, &frequency);
    if (peer_scene_report(&scene, played, frequency) != 0) return 6;
    printf("voices_playing %d\n", playing);
    printf("music_playing %d\n", music_state == AL_PLAYING ? 1 : 0);
    alureStopSource(music_source, AL_FALSE);
    alureDestroyStream(stream, 0, NULL);
    alureShutdownDevice();
    return 0;
}
