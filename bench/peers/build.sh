#!/usr/bin/env bash
# Builds the peer harnesses of `make bench` (scenario 11) into OUT (default .build/peers) with the
# system compilers. Needs the packages scripts/install-bench-deps.sh installs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-.build/peers}"
mkdir -p "$out"
flags=(-O2 -Wall -Wextra -Werror)
cc "${flags[@]}" -std=c11 -D_GNU_SOURCE -o "$out/sdl-mixer-peer" "$here/sdl_mixer_peer.c" \
  $(pkg-config --cflags --libs SDL2_mixer) -lm
cc "${flags[@]}" -std=c11 -D_GNU_SOURCE -o "$out/alure-peer" "$here/alure_peer.c" \
  $(pkg-config --cflags --libs alure openal) -lm
c++ "${flags[@]}" -std=c++17 -o "$out/sfml-peer" "$here/sfml_peer.cpp" \
  $(pkg-config --cflags --libs sfml-audio openal) -lm
# The floor: the same loop with no audio library (C++, as SFML's harness).
c++ "${flags[@]}" -std=c++17 -o "$out/floor-peer" "$here/floor_peer.cpp" -lm
