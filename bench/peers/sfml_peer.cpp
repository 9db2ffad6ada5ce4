// SFML 2.5 Audio on the peer scene (see peer_scene.h): sf::Sound per voice, sf::Music for the
// soundtrack (SFML streams it on its own thread), on OpenAL Soft (run with ALSOFT_DRIVERS=null).
#include "peer_scene.h"

#include <AL/alc.h>
#include <SFML/Audio.hpp>
#include <memory>
#include <vector>

static void move_sound(int index, const float xyz[3], void *context) {
    auto &sounds = *static_cast<std::vector<std::unique_ptr<sf::Sound>> *>(context);
    sounds[static_cast<size_t>(index)]->setPosition(xyz[0], xyz[1], xyz[2]);
}

int main(int argc, char **argv) {
    peer_scene scene;
    if (peer_scene_parse(&scene, argc, argv) != 0) return 2;
    std::vector<sf::SoundBuffer> buffers(static_cast<size_t>(scene.sound_count));
    for (int index = 0; index < scene.sound_count; index++) {
        if (!buffers[static_cast<size_t>(index)].loadFromFile(scene.sound_paths[index])) return 3;
    }
    sf::Music music;
    if (!music.openFromFile(scene.music_path)) return 4;
    music.setLoop(true);
    music.play();
    std::vector<std::unique_ptr<sf::Sound>> sounds;
    for (int index = 0; index < scene.emitter_count; index++) {
        auto sound = std::make_unique<sf::Sound>(buffers[static_cast<size_t>(index % scene.sound_count)]);
        float xyz[3];
        peer_emitter_position(index, 0, xyz);
        sound->setPosition(xyz[0], xyz[1], xyz[2]);
        sound->setVolume(100.0f * peer_emitter_gain(index));
        sound->setLoop(true);
        sound->play();
        sounds.push_back(std::move(sound));
    }
    double played = peer_scene_run(&scene, move_sound, &sounds);
    int playing = 0;
    for (auto &sound : sounds) playing += sound->getStatus() == sf::Sound::Playing ? 1 : 0;
    ALCint frequency = 0;
    ALCcontext *context = alcGetCurrentContext();
    if (context) alcGetIntegerv(alcGetContextsDevice(context), ALC_FREQUENCY, 1, &frequency);
    if (peer_scene_report(&scene, played, frequency) != 0) return 5;
    printf("voices_playing %d\n", playing);
    printf("music_playing %d\n", music.getStatus() == sf::Music::Playing ? 1 : 0);
    return 0;
}
