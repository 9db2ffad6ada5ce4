#!/usr/bin/env bash
# Builds OpenAL Soft 1.24.2 (Debian 13's version) into .build/openal-1.24.2, once, for the test
# matrix. The source is the upstream release tarball that Debian's archive serves as trixie's
# openal-soft_1.24.2.orig.tar.gz, fetched with apt-get through a private source list, cache and
# state folder under .build: the machine's own apt sources are never read or changed.
#
#   scripts/build-openal.sh [PREFIX]
#
# The library keeps 1.19's soname (libopenal.so.1), so the engine, linked against the system's
# 1.19.1, runs on it unchanged with LD_LIBRARY_PATH=PREFIX/lib. Prints the library's path last.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.24.2
debian_version=1:1.24.2-1
sha256=7efd383d70508587fbc146e4c508771a2235a5fc8ae05bf6fe721c20a348bd7c
prefix=${1:-$PWD/.build/openal-$version}
work=$PWD/.build/openal-$version-work
library=$prefix/lib/libopenal.so.1

if [ -f "$library" ] && [ -f "$prefix/built-from" ] && grep -qx "$sha256" "$prefix/built-from"; then
  echo "openal-$version: already built at $library"
  echo "$library"
  exit 0
fi

# cmake and the development headers of the backends 1.24 is built with: PipeWire (native),
# PulseAudio, ALSA; null and loopback need nothing.
bash scripts/apt-install-missing.sh openal-$version cmake g++ libpipewire-0.3-dev libpulse-dev libasound2-dev

mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial"
tarball=$work/openal-soft_$version.orig.tar.gz
if ! { [ -f "$tarball" ] && echo "$sha256  $tarball" | sha256sum -c --quiet - 2>/dev/null; }; then
  # The URI of the machine's own Debian mirror, with trixie's source suite, in a list of our own.
  mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)\/\{0,1\}$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
  if [ -z "$mirror" ]; then
    mirror=$(sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\/debian\)\/\{0,1\}[[:space:]].*/\2/p' /etc/apt/sources.list 2>/dev/null | head -n 1)
  fi
  : "${mirror:=http://deb.debian.org/debian}"
  echo "deb-src $mirror trixie main" > "$work/apt/sources.list"
  apt_private=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o APT::Sandbox::User=root)
  echo "openal-$version: fetching the source from $mirror (trixie) through a private apt list in $work/apt"
  apt-get "${apt_private[@]}" -qq update
  # The archive serves the .orig tarball but may miss the .dsc and Debian's patches: apt then
  # reports an error, and the tarball (all that is built) is there all the same.
  (cd "$work" && apt-get "${apt_private[@]}" -qq source --download-only "openal-soft=$debian_version" >/dev/null 2>&1) || true
  if ! { [ -f "$tarball" ] && echo "$sha256  $tarball" | sha256sum -c --quiet -; }; then
    echo "openal-$version: could not fetch openal-soft_$version.orig.tar.gz (sha256 $sha256) from $mirror trixie" >&2
    exit 1
  fi
fi

rm -rf "$work/src" "$work/build"
mkdir -p "$work/src"
tar -xzf "$tarball" -C "$work/src" --strip-components=1
echo "openal-$version: building into $prefix (PipeWire, PulseAudio, ALSA, null)"
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib -DALSOFT_EXAMPLES=OFF -DALSOFT_UTILS=OFF -DALSOFT_INSTALL_EXAMPLES=OFF \
  -DALSOFT_INSTALL_UTILS=OFF -DALSOFT_REQUIRE_PIPEWIRE=ON -DALSOFT_REQUIRE_PULSEAUDIO=ON \
  -DALSOFT_REQUIRE_ALSA=ON -DALSOFT_BACKEND_OSS=OFF -DALSOFT_BACKEND_SNDIO=OFF \
  -DALSOFT_BACKEND_PORTAUDIO=OFF -DALSOFT_BACKEND_JACK=OFF -DALSOFT_BACKEND_WAVE=OFF >"$work/cmake.log"
cmake --build "$work/build" -j "$(nproc)" >"$work/build.log"
cmake --install "$work/build" >"$work/install.log"
echo "$sha256" > "$prefix/built-from"
rm -rf "$work/src" "$work/build"
echo "openal-$version: built $library"
echo "$library"
