# The emulator and its conformance kit as a container image, for apps that are not Node apps:
#
#   docker build -t presentation-emulator .
#   docker run -p 127.0.0.1:4010:4010 presentation-emulator
#
# How to use it: docs/guides/containers.md. Why it is built this way (the base, the layout, what it
# leaves out): docs/decisions/0301-container-image.md. Podman builds it too; add `--format docker`,
# since podman's default OCI format has no HEALTHCHECK.

# The Node 20 image both stages start from: the official slim one, or any registry's mirror of it.
ARG NODE_IMAGE=docker.io/library/node:20-slim
# The build stage's base, the same unless given: for example one that trusts a TLS-inspecting proxy,
# which `npm ci` needs behind one. Nothing of it reaches the image.
ARG BUILD_IMAGE=${NODE_IMAGE}

# Build: install exactly what the lockfile pins, build and pack the package (npm pack runs the
# build, `prepare`), then install the packed tarball with its one dependency (zod, at the version the
# lockfile pins) in /opt/presentation-emulator, as an app installs it.
FROM ${BUILD_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm pack --silent \
 && mkdir -p /opt/presentation-emulator \
 && tar -xzf presentation-emulator-*.tgz -C /opt/presentation-emulator --strip-components=1 \
 && cp package-lock.json /opt/presentation-emulator/ \
 && cd /opt/presentation-emulator \
 && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm package-lock.json

# Run: the base, the installed package, and a /data folder the emulator's user owns (for --state).
FROM ${NODE_IMAGE}
# The package's version, held to package.json by test/container/image.test.ts.
ARG VERSION=0.1.0
# Where the sources are: pass --build-arg SOURCE=<your clone's URL> (the package names no repository yet).
ARG SOURCE=""
LABEL org.opencontainers.image.title="presentation-emulator" \
      org.opencontainers.image.description="A local, stateful, deterministic emulator of the Presentation Service API, and its conformance kit" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.source="${SOURCE}"
COPY --from=build /opt/presentation-emulator /opt/presentation-emulator
COPY container/entrypoint.sh container/healthcheck.mjs /opt/presentation-emulator/container/
RUN ln -s /opt/presentation-emulator/bin/presentation-emulator.js /usr/local/bin/presentation-emulator \
 && ln -s /opt/presentation-emulator/bin/presentation-conformance.js /usr/local/bin/presentation-conformance \
 && mkdir /data \
 && chown 1000:1000 /data
# The settings a container needs, as environment variables rather than arguments, so that
# `docker run IMAGE --seed 2` keeps them: listen on every interface of the container, and name
# pages (editorUrl, publishedUrl) by the address the host's browser opens. Give -e to change one.
ENV PRESENTATION_EMULATOR_HOST=0.0.0.0 \
    PRESENTATION_EMULATOR_PORT=4010 \
    PRESENTATION_EMULATOR_PUBLIC_URL=http://localhost:4010
# The `node` user of the official images, by number (so that a runtime can tell it is not root).
USER 1000:1000
WORKDIR /data
EXPOSE 4010
# node, not curl (the slim image has none), against GET /_emulator/health, with the admin token when
# PRESENTATION_EMULATOR_ADMIN_TOKEN is set.
HEALTHCHECK --interval=10s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "/opt/presentation-emulator/container/healthcheck.mjs"]
# `docker run IMAGE [flags]` runs the emulator with those flags; `docker run IMAGE COMMAND...` runs
# that command (presentation-conformance, node, sh).
ENTRYPOINT ["/opt/presentation-emulator/container/entrypoint.sh"]
CMD ["presentation-emulator"]
