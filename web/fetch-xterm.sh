#!/usr/bin/env bash
# Fetches xterm.js and its fit addon again from npm at the pinned versions,
# checks each package's sha256 against the one recorded here, and puts the
# files the page loads (with each package's licence) under static/vendor/.
# Run it from anywhere; it needs npm and sha256sum. To move to another
# version, change the version and its hash together, run it, and commit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# name version sha256-of-the-npm-tarball
pins=(
  "@xterm/xterm 6.0.0 908e66e04af6c8dc6b00dd3b54de088e2e81e5ed866284fd6c2fb3c2d1c7a3f6"
  "@xterm/addon-fit 0.11.0 26003b4517a132b64e4ff228fd88a5fda3fff5e606c76093f6dcff772e9ecec0"
)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for pin in "${pins[@]}"; do
  read -r name version sum <<<"$pin"
  (cd "$work" && npm pack --silent "$name@$version" >/dev/null)
  tgz="$work/$(echo "${name#@}" | tr / -)-$version.tgz"
  got=$(sha256sum "$tgz" | cut -d' ' -f1)
  if [ "$got" != "$sum" ]; then
    echo "fetch-xterm: $name@$version has sha256 $got, not the pinned $sum" >&2
    exit 1
  fi
  dir="$work/${name#@xterm/}"
  mkdir -p "$dir"
  tar xzf "$tgz" -C "$dir"
done
dest="$here/static/vendor"
rm -rf "$dest/xterm" "$dest/addon-fit"
mkdir -p "$dest/xterm" "$dest/addon-fit"
cp "$work/xterm/package/lib/xterm.js" "$work/xterm/package/css/xterm.css" "$work/xterm/package/LICENSE" "$dest/xterm/"
cp "$work/addon-fit/package/lib/addon-fit.js" "$work/addon-fit/package/LICENSE" "$dest/addon-fit/"
# the page loads the UMD builds; their source maps point at files not served
sed -i '/^\/\/# sourceMappingURL=/d' "$dest/xterm/xterm.js" "$dest/addon-fit/addon-fit.js"
(cd "$dest" && sha256sum xterm/* addon-fit/* >SHA256SUMS)
# the binary carries xterm.js gzipped (a quarter of its size); the web
# package reads xterm.js.gz as xterm.js, so SHA256SUMS lists the script
gzip -9 -n "$dest/xterm/xterm.js"
echo "fetch-xterm: $dest holds @xterm/xterm 6.0.0 and @xterm/addon-fit 0.11.0 (SHA256SUMS lists the files)"
