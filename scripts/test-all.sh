#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs the whole test suite.
# This is the README's test command and what CI (.ci/run) runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: Chromium (the HTML report, the viewer and, later, the WebXR shim are tested in it),
# ffmpeg (videos), redis-server (queue sweeps: the tests start their own servers) and openssl (the TLS
# queue test's certificates), Xvfb and the headers headless-gl (the optional "gl" package) builds against,
# plus a C++ toolchain for node-gyp.
# Installed only when missing; needs root or sudo.
SYSTEM_PACKAGES=(chromium ffmpeg redis-server openssl xvfb xauth libxi-dev libx11-dev libxext-dev libgl1-mesa-dev pkg-config python3 make g++)
missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then as_root=(); elif command -v sudo >/dev/null; then as_root=(sudo); else
    echo "test-all: missing system packages (${missing[*]}) and no root or sudo to install them" >&2
    exit 1
  fi
  echo "test-all: installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

npm ci --no-audit --no-fund   # also builds gl from source (optional, about 4 minutes) and dist/ ("prepare")
if ! node -e "require('gl')" 2>/dev/null; then
  echo "test-all: the optional gl package did not build; the GL rendering tests will fail unless XRSIM_SKIP_SYSTEM=1" >&2
fi
npm test
