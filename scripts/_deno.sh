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

# Installs the system packages $@ quietly and without asking, with apt-get, dnf, pacman or apk,
# when that needs no password: as root, or through sudo without one. Otherwise, or when the
# install fails, prints the command that installs them. Always returns 0: the caller goes on.
install_packages() {
  local manager shown run sudo=""
  for manager in apt-get dnf pacman apk none; do
    [ "$manager" = none ] || ! command -v "$manager" >/dev/null 2>&1 || break
  done
  case $manager in
    apt-get) shown="apt-get install -y" run="apt-get install -y -qq --no-install-recommends" ;;
    dnf) shown="dnf install -y" run="dnf install -y -q" ;;
    pacman) shown="pacman -S --noconfirm" run="pacman -S --noconfirm --needed" ;;
    apk) shown="apk add" run="apk add --quiet" ;;
    *)
      echo "note: not installed: $*; install with your system's package manager" >&2
      return 0
      ;;
  esac
  if [ "${EUID:-0}" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
      sudo="sudo -n"
    else
      echo "note: not installed: $*; install with: sudo $shown $*" >&2
      return 0
    fi
  fi
  echo "note: installing $* with $manager" >&2
  if [ "$manager" = apt-get ]; then
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null 2>&1 || true
  fi
  # shellcheck disable=SC2086 # $run is the command and its flags, split on purpose
  if ! $sudo env DEBIAN_FRONTEND=noninteractive $run "$@" </dev/null >/dev/null 2>&1; then
    echo "warning: $manager could not install $*; install with: ${sudo:+sudo }$shown $*" >&2
  fi
}

# On Linux, installs bubblewrap (the command sandbox) and ripgrep (file search) when missing,
# as scripts/test does; interpreter still runs without them, and says what that costs.
install_missing_tools() {
  local missing=()
  case ${OSTYPE:-} in
    linux*) ;;
    *) return 0 ;;
  esac
  # interpreter uses /usr/bin/bwrap when it exists, else bwrap from PATH.
  [ -x /usr/bin/bwrap ] || command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
  command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
  [ "${#missing[@]}" -eq 0 ] || install_packages "${missing[@]}"
}
