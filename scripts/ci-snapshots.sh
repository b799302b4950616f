#!/usr/bin/env bash
# Snapshot review for a CI job: builds the storybook, compares every story with the goldens
# committed in $SNAPSHOTS (default Snapshots/) and leaves in $ARTIFACTS (default ci-artifacts/):
#   report.xml       JUnit report: one testcase per story, each failure carrying its diff
#   snapshots.diff   what the check printed: a unified diff per changed story, then the summary line
#   export/          when something changed: every story's current .txt, .html, .json and index.html
# Exit status: 0 nothing changed; 1 a story changed, is new or was removed (or a saved variant no longer
# loads); 2 the check could not run.
# Environment: SNAPSHOTS, ARTIFACTS, CONFIGURATION (debug or release), PRODUCT (the executable that checks:
# storybook-review, the demo's review commands that need no libwebsockets, or your own),
# BUILD_FLAGS (more `swift build` options, e.g. --scratch-path .build-ci), PACKAGE_DIR (the package to
# build and check; default: the directory above this script's, so a copy in your package's scripts/ works).
set -uo pipefail
cd "${PACKAGE_DIR:-$(dirname "$0")/..}" || exit 2

SNAPSHOTS=${SNAPSHOTS:-Snapshots}
ARTIFACTS=${ARTIFACTS:-ci-artifacts}
CONFIGURATION=${CONFIGURATION:-debug}
PRODUCT=${PRODUCT:-storybook-review}
read -r -a build_flags <<< "${BUILD_FLAGS:-}"

swift build -c "$CONFIGURATION" "${build_flags[@]}" --product "$PRODUCT" || exit 2
storybook="$(swift build -c "$CONFIGURATION" "${build_flags[@]}" --show-bin-path)/$PRODUCT"

rm -rf "$ARTIFACTS"
mkdir -p "$ARTIFACTS"
"$storybook" check --snapshots "$SNAPSHOTS" --junit "$ARTIFACTS/report.xml" | tee "$ARTIFACTS/snapshots.diff"
status=${PIPESTATUS[0]}

if [[ $status -eq 1 ]]; then
  "$storybook" export --out "$ARTIFACTS/export" || true
  echo "Review the diffs above (also in $ARTIFACTS/snapshots.diff). If the changes are intended, run"
  printf '  cd %q && %q check --snapshots %q --record --prune\n' "$PWD" "$storybook" "$SNAPSHOTS"
  echo "and commit $SNAPSHOTS/ with your change."
fi
exit "$status"
