#!/usr/bin/env bash
# Installs everything the tests need on a fresh machine, then runs the whole test suite.
# This is the README's test command and what CI (.ci/run) runs.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: none yet. Browser (chromium), GL (xvfb, libgl1-mesa-dev, ...) and queue (redis-server)
# tests arrive with later issues; their apt-get installs go here, so a fresh clone stays one command away.

npm ci --no-audit --no-fund   # also builds dist/ (the "prepare" script)
npm test
