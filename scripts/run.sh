#!/usr/bin/env bash
# Builds the storybook and serves the demo catalog: scripts/run.sh [serve options], e.g. --port 0.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --product storybook
exec .build/debug/storybook serve "$@"
