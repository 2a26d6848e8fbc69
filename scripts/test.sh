#!/usr/bin/env bash
# The one command that passes every test on a fresh machine:
# installs the dependencies (without the Electron binary), prepares what the tests need,
# then runs the typecheck, the lint, the tests and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

export ELECTRON_SKIP_BINARY_DOWNLOAD=1

echo "==> installing dependencies (Electron binary skipped; better-sqlite3 built for Node)"
npm ci --no-audit --no-fund

# better-sqlite3 must be built for this Node (the tests and the CLI run on Node, not Electron).
if ! node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
  echo "==> rebuilding better-sqlite3 for Node $(node -v)"
  npm rebuild better-sqlite3
fi

echo "==> typecheck"
npm run typecheck

echo "==> lint"
npm run lint

echo "==> build"
npm run build

echo "==> tests"
npm test

echo "All checks passed."
