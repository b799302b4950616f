#!/usr/bin/env bash
# Installs the Debian packages the storybook needs, only those missing, so it is quick to re-run.
#   scripts/install-deps.sh            libwebsockets-dev (to build and serve)
#   scripts/install-deps.sh --test     plus what the tests and the benchmark use: chromium, curl,
#                                      gcc and make, wrk, valgrind and tcpdump (Benchmarks/), python3-venv
# On a system without apt (macOS), it says what to install and stops.
set -euo pipefail

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  if pkg-config --exists libwebsockets 2>/dev/null; then exit 0; fi
  echo "scripts/install-deps.sh installs Debian packages; here install libwebsockets yourself:" >&2
  echo "  macOS: brew install libwebsockets pkgconf   (docs/architecture.md, \"macOS\")" >&2
  exit 1
fi

packages=(libwebsockets-dev pkg-config)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(chromium curl gcc make wrk valgrind tcpdump python3-venv)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
# python3-venv may be absent as a package while a python with venv is installed (pyenv).
if [[ " ${missing[*]} " == *" python3-venv "* ]] && python3 -c "import venv, ensurepip" 2>/dev/null; then
  missing=("${missing[@]/python3-venv}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
echo "Installing ${missing[*]} ..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
