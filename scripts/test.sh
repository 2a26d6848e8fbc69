#!/usr/bin/env bash
# The one command that passes every test on a fresh machine:
# installs the dependencies (without the Electron binary), prepares what the tests need
# (better-sqlite3 built for Node, Debian's Chromium for the end-to-end tests), then runs
# the typecheck, the lint, the build, the Electron security scan, the tests, the MCP
# conformance suite's client scenarios and the browser end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."

export ELECTRON_SKIP_BINARY_DOWNLOAD=1
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

echo "==> installing dependencies (Electron binary skipped; better-sqlite3 built for Node)"
npm ci --no-audit --no-fund

# better-sqlite3 must be built for this Node (the tests and the CLI run on Node, not Electron).
if ! node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
  echo "==> rebuilding better-sqlite3 for Node $(node -v)"
  npm rebuild better-sqlite3
fi

echo "==> Chromium for the end-to-end tests"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
  else
    echo "The end-to-end tests need Debian's Chromium at /usr/bin/chromium." >&2
    echo "Install it with:  sudo apt-get install -y chromium   (then run this script again)" >&2
    exit 1
  fi
fi
/usr/bin/chromium --version 2>/dev/null | grep -v '^\[' || true

echo "==> typecheck"
npm run typecheck

echo "==> lint"
npm run lint

echo "==> build"
npm run build

echo "==> Electron security scan (electronegativity over the built main and preload)"
npm run electronegativity

echo "==> tests"
npm test

echo "==> MCP conformance (the official suite's client scenarios; installs it and a Node 22 on first run)"
npm run -s conformance

echo "==> end-to-end tests (Playwright + Chromium, browser mode)"
npm run e2e

echo "All checks passed."
