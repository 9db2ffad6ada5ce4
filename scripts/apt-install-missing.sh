#!/usr/bin/env bash
# Installs those of the Debian packages named after LABEL that are missing: apt-get directly as
# root, through sudo otherwise. Shared by install-deps.sh (make test, make demo) and
# install-bench-deps.sh (make bench).
#
#   scripts/apt-install-missing.sh LABEL PACKAGE...
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

echo "$label: installing ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  as_root=()
else
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
