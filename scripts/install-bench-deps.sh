#!/usr/bin/env bash
# Installs the peer libraries `make bench` measures the engine against, only those missing.
# Not used by `make test`: the peer harnesses are built and run by the bench alone.
set -euo pipefail

packages=(
  g++                 # builds the SFML and ALURE harnesses
  libsfml-dev         # SFML 2.5 Audio, on OpenAL Soft
  libsdl2-mixer-dev   # SDL2_mixer 2.6, run on SDL's dummy audio driver
  libalure-dev        # ALURE 1.2: OpenAL Soft with file loading and streaming
)

exec bash "$(dirname "$0")/apt-install-missing.sh" install-bench-deps "${packages[@]}"
