# shellcheck shell=bash
# Helpers shared by scripts/interpreter and scripts/test. Source this file; it only defines
# functions. Bash 3.2 compatible (macOS): no mapfile, no associative arrays.

# Prints the Deno flags from sandbox/deno_flags.json, one per line. The file keeps one JSON string
# per line so that this works without jq; sandbox/deno_flags_test.ts checks the two agree.
read_deno_flags() {
  sed -n 's/^[[:space:]]*"\([^"]*\)",\{0,1\}[[:space:]]*$/\1/p' "$1"
}

# Sets DENO to a deno binary for the checkout at $1. $2 is "run" or "test":
#   run:  the pinned binary if installed, else deno on PATH, else install the pinned one with npm.
#   test: the pinned binary, installing it with npm if needed; deno on PATH only without npm.
# Nothing but the npm package pinned in scripts/deno/package-lock.json is downloaded.
# Returns 2 after printing error/hint lines when no deno can be found or installed.
find_deno() {
  local repo=$1 mode=$2 pinned=$1/scripts/deno/node_modules/.bin/deno
  if [ -x "$pinned" ]; then
    DENO=$pinned
    return 0
  fi
  if [ "$mode" = run ] && command -v deno >/dev/null 2>&1; then
    DENO=deno
    return 0
  fi
  if command -v npm >/dev/null 2>&1; then
    echo "note: installing the pinned Deno into scripts/deno/node_modules (one time)" >&2
    if npm ci --prefix "$repo/scripts/deno" --no-audit --no-fund >&2 && [ -x "$pinned" ]; then
      DENO=$pinned
      return 0
    fi
    echo "error: Cannot install Deno with \"npm ci --prefix scripts/deno\"" >&2
    echo "hint: check the npm output above, or install Deno 2.9.6 from https://deno.com" >&2
    return 2
  fi
  if command -v deno >/dev/null 2>&1; then
    echo "note: npm is missing, using deno from PATH instead of the pinned version" >&2
    DENO=deno
    return 0
  fi
  echo "error: Deno is not installed and npm is not available to install it" >&2
  echo "hint: install Node.js (for npm) or Deno 2.9.6 (https://deno.com), then run this again" >&2
  return 2
}
