# shellcheck shell=bash
# Helpers shared by scripts/interpreter and scripts/test. Source this file; it only defines
# functions. Bash 3.2 compatible (macOS): no mapfile, no associative arrays.
# shellcheck disable=SC2034 # DENO and DENO_FLAGS are results for the sourcing script

# Sets the array DENO_FLAGS to the strings in sandbox/deno_flags.json ($1). That file keeps one
# JSON string per line so that plain bash can read it, without jq and without forking;
# sandbox/deno_flags_test.ts checks that this agrees with the JSON parser.
read_deno_flags() {
  local line
  DENO_FLAGS=()
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      *\"*\"*)
        line=${line#*\"}
        DENO_FLAGS+=("${line%\"*}")
        ;;
    esac
  done <"$1"
}

# Sets DENO to the deno binary for the checkout at $1: the pinned one if it is installed, else
# deno from PATH, else the pinned one after installing it with `npm ci` (the only download).
# Returns 2 after printing error and hint lines when there is no deno and no npm to install it.
find_deno() {
  local pinned=$1/scripts/deno/node_modules/.bin/deno
  if [ -x "$pinned" ]; then
    DENO=$pinned
  elif command -v deno >/dev/null 2>&1; then
    DENO=deno
  elif command -v npm >/dev/null 2>&1; then
    echo "note: deno is not on PATH; installing the pinned Deno into scripts/deno (one time)" >&2
    if ! npm ci --prefix "$1/scripts/deno" --no-audit --no-fund >&2 || [ ! -x "$pinned" ]; then
      echo "error: Cannot install Deno with \"npm ci --prefix scripts/deno\"" >&2
      echo "hint: check the npm output above, or install Deno 2.9.6 from https://deno.com" >&2
      return 2
    fi
    DENO=$pinned
  else
    echo "error: Deno is not installed and npm is not available to install it" >&2
    echo "hint: install Node.js (for npm) or Deno 2.9.6 (https://deno.com), then run this again" >&2
    return 2
  fi
}
