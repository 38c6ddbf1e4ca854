#!/bin/sh
# The image's entrypoint (Dockerfile). With no arguments, or arguments that start with a dash
# (`docker run IMAGE --seed 2`), it runs the emulator with them; otherwise it runs the command given
# (`docker run IMAGE presentation-conformance --base-url ...`), as the official Node image's does for
# node. `exec`, so the emulator is the container's first process and gets SIGTERM itself.
set -e
if [ "$#" -eq 0 ] || [ "${1#-}" != "$1" ]; then
  set -- presentation-emulator "$@"
fi
exec "$@"
