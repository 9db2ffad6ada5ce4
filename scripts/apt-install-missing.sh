#!/usr/bin/env bash
# Installs those of the Debian packages named after LABEL that are missing: apt-get directly as
# root, through sudo otherwise. Shared by install-deps.sh (make test, make demo),
# install-bench-deps.sh (make bench) and `make leaks`.
#
#   scripts/apt-install-missing.sh LABEL PACKAGE...
#
# With nothing missing it succeeds as any user, installing nothing. With something missing and
# neither root nor sudo at hand, it names the missing packages and the command that installs them,
# and exits with status 1.
set -euo pipefail
label=$1
shift

missing=()
for package in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  {
    echo "$label: these packages are missing: ${missing[*]}"
    echo "$label: this user is not root and sudo is not installed, so they cannot be installed from here."
    echo "$label: install them as root, then run make again:"
    echo "    apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    echo "$label: (or, where sudo is set up: sudo apt-get install -y --no-install-recommends ${missing[*]})"
  } >&2
  exit 1
fi

echo "$label: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
