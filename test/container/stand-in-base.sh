#!/usr/bin/env bash
# Builds a stand-in for the official Node 20 slim image (docker.io/library/node:20-slim), which
# machines without an image registry cannot pull, from this machine's own Node 20 and the files it
# needs, and imports it with `podman import` (docs/decisions/0301-container-image.md says why this
# and not a Debian root file system):
#
#   test/container/stand-in-base.sh IMAGE [BUILD_IMAGE]
#
# IMAGE is the runtime base: node, npm and npx in /usr/local, a POSIX shell, coreutils, tar, the
# `node` user (uid 1000) and root, nothing else. With BUILD_IMAGE, and NODE_EXTRA_CA_CERTS set, a
# second image is made: the same files plus that CA bundle, with NODE_EXTRA_CA_CERTS pointing at it,
# so that `npm ci` in the build stage trusts a TLS-inspecting proxy. Only the build stage may use
# it (pass it as BUILD_IMAGE): the bundle never reaches the runtime image.
set -euo pipefail
image="${1:?usage: stand-in-base.sh IMAGE [BUILD_IMAGE]}"
build_image="${2:-}"
podman="${PODMAN:-podman}"

node_bin="$(command -v node)"
node_major="$("$node_bin" -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" != 20 ]; then
  echo "error: the stand-in base stands in for Node 20; this machine's node is $("$node_bin" --version)" >&2
  exit 1
fi
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
# Debian's merged /usr: /bin, /lib, /lib64 and /sbin are links into /usr.
mkdir -p "$root"/usr/{bin,sbin,lib,lib64} "$root"/usr/local/{bin,lib/node_modules} "$root"/{etc,opt,tmp,root,home/node,proc,sys,dev,run,var/tmp}
for d in bin lib lib64 sbin; do ln -s "usr/$d" "$root/$d"; done
chmod 1777 "$root/tmp" "$root/var/tmp"
chmod 700 "$root/root"

# A file and, recursively, every shared library it loads, at the paths the loader looks in.
copy_with_libs() {
  local target="$1" source="$2"
  cp -L "$source" "$root$target"
  ldd "$source" | grep -oE '/[^ ]+' | while read -r lib; do
    local dest="$root/usr${lib#/usr}"
    [ -e "$dest" ] || { mkdir -p "$(dirname "$dest")"; cp -L "$lib" "$dest"; }
  done
}

copy_with_libs /usr/local/bin/node "$node_bin"
cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
copy_with_libs /usr/bin/dash "$(command -v dash)"
ln -s dash "$root/usr/bin/sh"
# tar and gzip (Debian's slim image has them too): the build stage unpacks the packed tarball.
copy_with_libs /usr/bin/tar "$(command -v tar)"
copy_with_libs /usr/bin/gzip "$(command -v gzip)"
# coreutils (the slim image's Debian has them): env for `#!/usr/bin/env node`, mkdir, chown, id, ...
for tool in $(dpkg -L coreutils | grep -E '^/(usr/)?bin/[^/]+$'); do
  copy_with_libs "/usr/bin/$(basename "$tool")" "$tool"
done

cat >"$root/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
node:x:1000:1000::/home/node:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
PASSWD
cat >"$root/etc/group" <<'GROUP'
root:x:0:
node:x:1000:
nogroup:x:65534:
GROUP
chown 1000:1000 "$root/home/node"

changes=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  --change "ENV NODE_VERSION=$("$node_bin" -p process.versions.node)" --change 'CMD ["node"]')
tar -C "$root" --numeric-owner -c . | "$podman" import --quiet "${changes[@]}" - "$image" >/dev/null
echo "stand-in base $image: node $("$node_bin" --version), npm $(npm --version)"

if [ -n "$build_image" ]; then
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -L "$NODE_EXTRA_CA_CERTS" "$root/usr/local/share/ca-certificates/build-proxy.crt"
    changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/build-proxy.crt')
    tar -C "$root" --numeric-owner -c . | "$podman" import --quiet "${changes[@]}" - "$build_image" >/dev/null
    echo "stand-in build base $build_image: the same, and the CA bundle of NODE_EXTRA_CA_CERTS"
  else
    "$podman" tag "$image" "$build_image"
  fi
fi
