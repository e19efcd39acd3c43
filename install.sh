#!/bin/sh
# Installs the interpreter release binary for this machine (Linux or macOS, x64 or arm64):
#
#   curl -fsSL https://github.com/openinterpreter/interpreter/releases/latest/download/install.sh | sh
#
# It downloads the binary and SHA256SUMS, refuses to install unless the checksum matches, moves
# the binary into place atomically and links the short alias `i` next to it. On Linux it also
# installs bubblewrap, the sandbox commands run in, when it is missing (with apt-get, dnf, pacman
# or apk, as root; otherwise it prints the command to run).
#
# Environment:
#   INTERPRETER_VERSION           release to install, such as 0.1.0 (default: the latest release)
#   INTERPRETER_INSTALL_BASE_URL  URL of the directory holding the release assets; when set,
#                                 INTERPRETER_VERSION is ignored (default: GitHub releases)
#   INTERPRETER_INSTALL_DIR       where to install (default: ~/.local/bin)
# install.ps1 is the Windows equivalent and reads the same variables.
set -eu

RELEASES_URL="https://github.com/openinterpreter/interpreter/releases"
DEFAULT_BASE_URL="$RELEASES_URL/latest/download"
FROM_SOURCE="run it from a clone instead: https://github.com/openinterpreter/interpreter"

fail() {
  printf 'error: %s\n' "$1" >&2
  if [ $# -gt 1 ]; then printf 'hint: %s\n' "$2" >&2; fi
  exit 1
}

# Prints the release asset name for this OS and CPU, as scripts/compile.ts names them.
asset_name() {
  os=$(uname -s)
  arch=$(uname -m)
  case $os in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      fail "This installer is for Linux and macOS" "on Windows, run install.ps1 in PowerShell" ;;
    *) fail "No release binary for the operating system \"$os\"" "$FROM_SOURCE" ;;
  esac
  case $arch in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "No release binary for the CPU \"$arch\"" "$FROM_SOURCE" ;;
  esac
  # A shell running under Rosetta reports x86_64 on Apple silicon; prefer the native binary.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] &&
    [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  printf 'interpreter-%s-%s\n' "$os" "$arch"
}

download() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || fail "Cannot download \"$1\"" \
      "check the network and INTERPRETER_VERSION; releases are listed at $RELEASES_URL"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || fail "Cannot download \"$1\"" \
      "check the network and INTERPRETER_VERSION; releases are listed at $RELEASES_URL"
  else
    fail "Neither curl nor wget is installed" "install one of them, then run this again"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{ print $1 }'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{ print $1 }'
  else
    fail "Cannot verify the download: neither sha256sum nor shasum is installed" \
      "install coreutils (sha256sum) or perl (shasum), then run this again"
  fi
}

# Links `i` to the binary unless something else already owns that name.
link_alias() {
  if [ -e "$1/i" ] || [ -L "$1/i" ]; then
    if [ "$(readlink "$1/i" 2>/dev/null || true)" != interpreter ]; then
      printf 'note: not creating the alias "%s/i": that file already exists\n' "$1"
      return 0
    fi
  fi
  rm -f "$1/i"
  ln -s interpreter "$1/i"
}

# Installs bubblewrap when it is missing on Linux: quietly as root, else it prints the command.
install_bubblewrap() {
  [ "$(uname -s)" = Linux ] || return 0
  ! command -v bwrap >/dev/null 2>&1 || return 0
  if command -v apt-get >/dev/null 2>&1; then
    command="apt-get install -y bubblewrap"
  elif command -v dnf >/dev/null 2>&1; then
    command="dnf install -y bubblewrap"
  elif command -v pacman >/dev/null 2>&1; then
    command="pacman -S --noconfirm bubblewrap"
  elif command -v apk >/dev/null 2>&1; then
    command="apk add bubblewrap"
  else
    printf 'note: bubblewrap is not installed; install it with your package manager so that\n'
    printf '  the commands interpreter runs are sandboxed\n'
    return 0
  fi
  if [ "$(id -u)" != 0 ]; then
    printf 'note: bubblewrap is not installed; install it so that the commands interpreter runs\n'
    printf '  are sandboxed:\n  sudo %s\n' "$command"
    return 0
  fi
  printf 'Installing bubblewrap (the command sandbox): %s\n' "$command"
  if [ "${command%% *}" = apt-get ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null 2>&1 || true
  fi
  # shellcheck disable=SC2086 # $command is the program and its arguments
  if ! DEBIAN_FRONTEND=noninteractive $command </dev/null >/dev/null 2>&1; then
    printf 'warning: "%s" failed; run it yourself to sandbox commands\n' "$command" >&2
  fi
}

main() {
  if [ -n "${INTERPRETER_INSTALL_BASE_URL:-}" ]; then
    base_url=$INTERPRETER_INSTALL_BASE_URL
  elif [ -n "${INTERPRETER_VERSION:-}" ]; then
    base_url="$RELEASES_URL/download/v${INTERPRETER_VERSION#v}"
  else
    base_url=$DEFAULT_BASE_URL
  fi
  base_url=${base_url%/}
  if [ -n "${INTERPRETER_INSTALL_DIR:-}" ]; then
    install_dir=$INTERPRETER_INSTALL_DIR
  elif [ -n "${HOME:-}" ]; then
    install_dir="$HOME/.local/bin"
  else
    fail "HOME is not set" "set INTERPRETER_INSTALL_DIR to the directory to install into"
  fi
  asset=$(asset_name)

  tmp_dir=$(mktemp -d 2>/dev/null || mktemp -d -t interpreter) ||
    fail "Cannot create a temporary directory"
  staged=""
  trap 'rm -rf "$tmp_dir"; if [ -n "$staged" ]; then rm -f "$staged"; fi' EXIT
  trap 'exit 130' INT TERM

  printf 'Downloading %s from %s\n' "$asset" "$base_url"
  download "$base_url/$asset" "$tmp_dir/$asset"
  download "$base_url/SHA256SUMS" "$tmp_dir/SHA256SUMS"

  # sha256sum lines are "<hex>  <name>", or "<hex> *<name>" in binary mode.
  expected=$(awk -v name="$asset" \
    '{ f = $2; sub(/^\*/, "", f); if (f == name) { print tolower($1); exit } }' "$tmp_dir/SHA256SUMS")
  [ -n "$expected" ] || fail "SHA256SUMS has no entry for \"$asset\"; nothing was installed" \
    "the release may be incomplete; try another INTERPRETER_VERSION or report it at $RELEASES_URL"
  actual=$(sha256_of "$tmp_dir/$asset")
  [ "$actual" = "$expected" ] ||
    fail "Checksum mismatch for \"$asset\": expected $expected, got $actual; nothing was installed" \
      "the download is damaged or was tampered with; run this again, and report it if it persists"

  mkdir -p "$install_dir" || fail "Cannot create the directory \"$install_dir\"" \
    "set INTERPRETER_INSTALL_DIR to a directory you can write to"
  staged="$install_dir/.interpreter.$$.tmp"
  if ! { cp "$tmp_dir/$asset" "$staged" && chmod 755 "$staged" &&
    mv -f "$staged" "$install_dir/interpreter"; }; then
    fail "Cannot write \"$install_dir/interpreter\"" \
      "set INTERPRETER_INSTALL_DIR to a directory you can write to"
  fi
  staged=""
  link_alias "$install_dir"
  install_bubblewrap

  version=$("$install_dir/interpreter" --version 2>/dev/null || true)
  printf 'Installed %s to %s/interpreter (alias: i)\n' "${version:-interpreter}" "$install_dir"
  case ":${PATH:-}:" in
    *":$install_dir:"*) ;;
    *)
      printf 'hint: %s is not on your PATH; add this line to your shell profile' "$install_dir"
      printf ' (~/.profile, ~/.zshrc):\n'
      # shellcheck disable=SC2016 # $PATH is for the user's profile, not expanded here
      printf '  export PATH="%s:$PATH"\n' "$install_dir"
      ;;
  esac
}

main "$@"
