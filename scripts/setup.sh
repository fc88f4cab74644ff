#!/usr/bin/env bash
# Everything Desk's demo and tests need on a Debian/Ubuntu machine with Node 20 and npm:
#   system  Debian packages: build headers for VS Code's native modules, ripgrep, Chromium, Google's Python client
#           (python3-googleapi, for the discovery-based conformance suite in test/python), Go 1.19 and Google's Go
#           client (golang-go, golang-google-api-dev, for the conformance program in test/go), libfaketime and
#           patchelf (faketime, patchelf: the VS Code suites' second run at a hostile hour) (skipped if present)
#   npm     the project's npm dependencies (npm ci, from package-lock.json)
#   vscode  the VS Code the demo and tests run in: code-server 4.100.3 in .vscode-test/ (skipped if present)
# With no argument, all three in that order. Used by the README's commands and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config ripgrep chromium python3-googleapi golang-go golang-google-api-dev faketime patchelf)

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

system_packages() {
  local missing=()
  for package in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "Debian packages: all present"
    return
  fi
  if ! command -v apt-get >/dev/null; then
    echo "Please install the equivalents of: ${missing[*]} (this script knows only apt-get)" >&2
    exit 1
  fi
  echo "Debian packages: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq "${missing[@]}" >/dev/null
}

npm_packages() {
  npm ci --no-audit --no-fund
}

vscode() {
  node scripts/vscode/install-code-server.js
}

steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(system npm vscode)
for step in "${steps[@]}"; do
  case "$step" in
    system) system_packages ;;
    npm) npm_packages ;;
    vscode) vscode ;;
    *) echo "unknown step: $step (system, npm, vscode)" >&2; exit 2 ;;
  esac
done
