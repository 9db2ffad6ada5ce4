// The C++ floor of the peer scene (see peer_scene.h): the same game loop with no audio library,
// each "move" storing the position as a game stores its objects'. Its CPU and resident memory
// are what a C++ program costs before any audio: the bench reports each C/C++ peer above it.
#include "peer_scene.h"

#include <array>
#include <vector>

static void move_object(int index, const float xyz[3], void *context) {
    auto &positions = *static_cast<std::vector<std::array<float, 3>> *>(context);
    positions[static_cast<size_t>(index)] = {xyz[0], xyz[1], xyz[2]};
}

int main(int argc, char **argv) {
    peer_scene scene;
    if (peer_scene_parse(&scene, argc, argv) != 0) return 2;
    std::vector<std::array<float, 3>> positions(static_cast<size_t>(scene.emitter_count));
    double played = peer_scene_run(&scene, move_object, &positions);
    if (peer_scene_report(&scene, played, 0) != 0) return 5;
    printf("voices_playing 0\n");
    printf("music_playing 0\n");
    return 0;
}
