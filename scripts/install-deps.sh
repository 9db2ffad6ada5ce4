#!/usr/bin/env bash
# Installs the Debian packages Interlude needs, only those that are missing.
# Runs apt-get directly as root, through sudo otherwise. Used by `make demo` and `make test`.
set -euo pipefail

packages=(
  pkg-config          # SwiftPM finds OpenAL, vorbisfile, FLAC, mpg123 and opusfile through it
  libopenal-dev       # OpenAL Soft: the mixer, devices, loopback rendering
  libopenal-data      # OpenAL Soft's HRTF data sets
  libvorbis-dev       # libvorbisfile: Ogg Vorbis decoding
  vorbis-tools        # oggenc for the asset generator, oggdec for decode-equality tests
  libflac-dev         # libFLAC: FLAC decoding
  libmpg123-dev       # libmpg123: MP3 decoding
  libopusfile-dev     # libopusfile: Ogg Opus decoding
  flac                # flac encodes and decodes the FLAC test files
  lame                # encodes the MP3 test files (CBR and VBR, with the LAME header)
  mpg123              # the MP3 reference decoder in decode-equality tests
  opus-tools          # opusenc and opusdec for the Opus test files
  pulseaudio          # a private PulseAudio server for the device-loss tests
  pulseaudio-utils    # parecord, to record what the engine played through that server
  libpulse-dev        # libpulse-simple: the click-latency bench records a private sink's monitor
  librsvg2-bin        # rsvg-convert, to check that render plots are valid pictures
  tmux                # drives the terminal game prototype in tests
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

echo "install-deps: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
else
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
