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
  libebur128-dev      # libebur128: each sound's integrated loudness (EBU R128) for loudness targets, and interlude info's true peak
  flac                # flac encodes and decodes the FLAC test files
  lame                # encodes the MP3 test files (CBR and VBR, with the LAME header)
  mpg123              # the MP3 reference decoder in decode-equality tests
  opus-tools          # opusenc and opusdec for the Opus test files
  pulseaudio          # a private PulseAudio server for the device-loss tests
  pulseaudio-utils    # parecord, to record what the engine played through that server
  libpulse-dev        # libpulse: the engine's own server connection (phone streams, server loss), and libpulse-simple for the click-latency bench
  pipewire            # a private PipeWire server for the phone-stream test against PipeWire
  pipewire-pulse      # its PulseAudio service, which libpulse clients (OpenAL Soft, the engine) reach
  wireplumber         # PipeWire's session manager: links streams to sinks
  dbus-daemon         # private buses: a session bus for WirePlumber, a system bus for the logind tests
  librsvg2-bin        # rsvg-convert, to check that render plots are valid pictures
  tmux                # drives the terminal game prototype in tests
  sox                 # reads the float WAVs renders write, as a third-party check of their header
  libsystemd-dev      # sd-bus: logind's sleep and session-switch sources over the system D-Bus
  valgrind            # callgrind counts the bench's reference scene (a smoke test runs it); make leaks runs memcheck
)

exec bash "$(dirname "$0")/apt-install-missing.sh" install-deps "${packages[@]}"
