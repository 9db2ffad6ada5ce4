/* SDL2_mixer 2.6 on the peer scene (see peer_scene.h), on SDL's dummy audio driver
 * (SDL_AUDIODRIVER=dummy: a real mixing thread whose output goes nowhere). One channel per
 * voice, looping; the soundtrack through Mix_PlayMusic (decoded on the mixing thread).
 * SDL2_mixer has no 3D: a voice moves with Mix_SetPosition, the nearest it has. Its angle is
 * the direction from a listener at the origin facing -z (0 = ahead, 90 = right), its distance
 * 255 * (1 - 1/d), so the level follows OpenAL's inverse-distance law (gain 1/d past 1 unit). */
#include "peer_scene.h"

#include <SDL2/SDL.h>
#include <SDL2/SDL_mixer.h>

#define PEER_SDL_SAMPLE_RATE 44100
#define PEER_SDL_CHUNK_FRAMES 1024

static long long mixed_bytes;

static void count_mixed(void *context, Uint8 *stream, int length) {
    (void)context;
    (void)stream;
    __atomic_add_fetch(&mixed_bytes, (long long)length, __ATOMIC_RELAXED);
}

static void move_channel(int index, const float xyz[3], void *context) {
    (void)context;
    double degrees = atan2((double)xyz[0], (double)-xyz[2]) * 180.0 / M_PI;
    if (degrees < 0) degrees += 360.0;
    double distance = sqrt((double)xyz[0] * xyz[0] + (double)xyz[1] * xyz[1] + (double)xyz[2] * xyz[2]);
    double far = distance <= 1.0 ? 0.0 : 255.0 * (1.0 - 1.0 / distance);
    if (far > 254.0) far = 254.0;
    Mix_SetPosition(index, (Sint16)lround(degrees) % 360, (Uint8)lround(far));
}

int main(int argc, char **argv) {
    peer_scene scene;
    if (peer_scene_parse(&scene, argc, argv) != 0) return 2;
    if (SDL_Init(SDL_INIT_AUDIO) != 0) {
        fprintf(stderr, "SDL_Init: %s\n", SDL_GetError());
        return 3;
    }
    Mix_Init(MIX_INIT_OGG);
    if (Mix_OpenAudio(PEER_SDL_SAMPLE_RATE, MIX_DEFAULT_FORMAT, 2, PEER_SDL_CHUNK_FRAMES) != 0) {
        fprintf(stderr, "Mix_OpenAudio: %s\n", Mix_GetError());
        return 3;
    }
    int frequency = 0;
    Uint16 format = 0;
    int channels = 0;
    Mix_QuerySpec(&frequency, &format, &channels);
    Mix_AllocateChannels(scene.emitter_count);
    Mix_Chunk **chunks = calloc((size_t)scene.sound_count, sizeof(Mix_Chunk *));
    for (int index = 0; index < scene.sound_count; index++) {
        chunks[index] = Mix_LoadWAV(scene.sound_paths[index]);
        if (!chunks[index]) {
            fprintf(stderr, "Mix_LoadWAV(%s): %s\n", scene.sound_paths[index], Mix_GetError());
            return 3;
        }
    }
    Mix_Music *music = Mix_LoadMUS(scene.music_path);
    if (!music || Mix_PlayMusic(music, -1) != 0) {
        fprintf(stderr, "Mix_LoadMUS/Mix_PlayMusic(%s): %s\n", scene.music_path, Mix_GetError());
        return 4;
    }
    for (int index = 0; index < scene.emitter_count; index++) {
        float xyz[3];
        peer_emitter_position(index, 0, xyz);
        Mix_Volume(index, (int)lroundf(MIX_MAX_VOLUME * peer_emitter_gain(index)));
        move_channel(index, xyz, NULL);
        if (Mix_PlayChannel(index, chunks[index % scene.sound_count], -1) != index) {
            fprintf(stderr, "Mix_PlayChannel(%d): %s\n", index, Mix_GetError());
            return 5;
        }
    }
    Mix_SetPostMix(count_mixed, NULL);
    double played = peer_scene_run(&scene, move_channel, NULL);
    int playing = Mix_Playing(-1);
    int music_playing = Mix_PlayingMusic();
    long long bytes = __atomic_load_n(&mixed_bytes, __ATOMIC_RELAXED);
    if (peer_scene_report(&scene, played, frequency) != 0) return 6;
    printf("voices_playing %d\n", playing);
    printf("music_playing %d\n", music_playing);
    printf("mixed_frames %lld\n", bytes / (channels * (SDL_AUDIO_BITSIZE(format) / 8)));
    Mix_CloseAudio();
    SDL_Quit();
    return 0;
}
