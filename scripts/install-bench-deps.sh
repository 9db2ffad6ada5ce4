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

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-bench-deps: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
else
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
