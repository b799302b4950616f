#!/usr/bin/env bash
# Runs every test: the Swift tests, then the end-to-end tests (Python clients and Chromium)
# against the real server. Installs what it needs first; safe to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test

echo "== swift build (every product, the benchmark and the tests)"
swift build --build-tests
make -C Benchmarks --quiet

echo "== the review tools link no libwebsockets (a CI job that only checks goldens needs no C library)"
if ldd .build/debug/storybook-review | grep -i websockets; then
  echo "storybook-review links libwebsockets: StorybookReview must not depend on the transport" >&2
  exit 1
fi
ldd .build/debug/storybook | grep libwebsockets >/dev/null  # the check above would pass vacuously otherwise (not grep -q: with pipefail, ldd could die of SIGPIPE)

echo "== the example package (Examples/TasksStorybook), built as a user's package that depends on this one"
# The build manifest is planned anew each time: a cached one misses files added to the path
# dependency (this repository) since the example's last build.
swift build --package-path Examples/TasksStorybook --disable-build-manifest-caching

echo "== the headless renderer example (Examples/HeadlessRenderer, on the StorybookClient library), used by the e2e tests"
swift build --package-path Examples/HeadlessRenderer --disable-build-manifest-caching

echo "== swift test"
swift test --skip-build --parallel

echo "== fuzzing: JSON parser, JSON Patch, Props decoding, client messages, WebSocket frames (libFuzzer)"
scripts/fuzz.sh 10

echo "== snapshot review of the demo catalog (storybook check)"
.build/debug/storybook check --snapshots Snapshots

echo "== end-to-end tests"
if [[ ! -x .venv/bin/pytest ]] || ! cmp -s Tests/e2e/requirements.txt .venv/requirements.txt; then
  python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r Tests/e2e/requirements.txt
  cp Tests/e2e/requirements.txt .venv/requirements.txt
fi
STORYBOOK_BINARY="$PWD/.build/debug/storybook" \
STORYBOOK_EXAMPLE_BINARY="$PWD/Examples/TasksStorybook/.build/debug/tasks-storybook" \
STORYBOOK_RENDERER_BINARY="$PWD/Examples/HeadlessRenderer/.build/debug/headless-renderer" \
  .venv/bin/pytest Tests/e2e -q -p no:cacheprovider "$@"
