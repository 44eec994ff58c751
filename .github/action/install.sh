#!/usr/bin/env bash
# Installs a tausik release binary for this runner: picks the asset `make
# release` names for the runner's OS and architecture, checks it against
# SHA256SUMS, checks SHA256SUMS's ssh signature when a public key is given,
# and puts the binary on the job's PATH.
#
# Environment (set by action.yml from its inputs and the runner):
#   TAUSIK_VERSION       the release tag, e.g. v1.2.0 (required)
#   TAUSIK_RELEASE_URL   where the release's files are (default: the GitHub
#                        release of TAUSIK_VERSION); file:// works
#   TAUSIK_PUBLIC_KEY    the ssh ed25519 public key that signed SHA256SUMS
#                        (optional; when set, an unsigned or wrongly signed
#                        release is refused)
#   RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT
set -euo pipefail

die() { echo "::error title=tausik install::$*" >&2; exit 1; }

version=${TAUSIK_VERSION:-}
[ -n "$version" ] || die "no version: set the action's version input to a release tag (e.g. v1.2.0)"
case "$version" in
  *[!A-Za-z0-9._+-]*) die "version $version: not a release tag" ;;
esac
base=${TAUSIK_RELEASE_URL:-https://github.com/tausik/tausik/releases/download/$version}
base=${base%/}

case "${RUNNER_OS:-}" in
  Linux) os=linux ;;
  macOS) os=darwin ;;
  Windows) os=windows ;;
  *) die "runner OS '${RUNNER_OS:-}' has no release (want Linux, macOS or Windows)" ;;
esac
case "${RUNNER_ARCH:-}" in
  X64) arch=amd64 ;;
  ARM64) arch=arm64 ;;
  *) die "runner architecture '${RUNNER_ARCH:-}' has no release (want X64 or ARM64)" ;;
esac
ext=""
[ "$os" = windows ] && ext=.exe
asset="tausik_${version}_${os}_${arch}${ext}"

tmp=$(mktemp -d "${RUNNER_TEMP:-/tmp}/tausik-install.XXXXXX")
fetch() { curl --fail --silent --show-error --location --retry 3 --output "$tmp/$1" "$base/$1" || die "cannot download $base/$1"; }
fetch "$asset"
fetch SHA256SUMS

if [ -n "${TAUSIK_PUBLIC_KEY:-}" ]; then
  fetch SHA256SUMS.sig
  printf 'release@tausik %s\n' "$TAUSIK_PUBLIC_KEY" > "$tmp/allowed_signers"
  ssh-keygen -Y verify -f "$tmp/allowed_signers" -I release@tausik -n tausik-release \
    -s "$tmp/SHA256SUMS.sig" < "$tmp/SHA256SUMS" >/dev/null 2>&1 ||
    die "the signature of SHA256SUMS does not verify with the given public key"
fi

# The asset's line of SHA256SUMS, exactly one, and the file's digest.
want=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS")
[ "$(printf '%s\n' "$want" | grep -c .)" = 1 ] || die "SHA256SUMS has no single line for $asset"
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$tmp/$asset" | awk '{print $1}')
else
  got=$(shasum -a 256 "$tmp/$asset" | awk '{print $1}')
fi
[ "$got" = "$want" ] || die "checksum mismatch for $asset: SHA256SUMS says $want, the download is $got"

bindir="$tmp/bin"
mkdir -p "$bindir"
mv "$tmp/$asset" "$bindir/tausik$ext"
chmod +x "$bindir/tausik$ext"
"$bindir/tausik$ext" version >/dev/null || die "the installed binary does not run"
[ -z "${GITHUB_PATH:-}" ] || echo "$bindir" >> "$GITHUB_PATH"
[ -z "${GITHUB_OUTPUT:-}" ] || echo "path=$bindir/tausik$ext" >> "$GITHUB_OUTPUT"
echo "installed $asset (sha256 $got) in $bindir"
