# The Pet Store sandbox as a container image, built from the same npm scripts
# as the package test (test/package): `npm ci`, then `npm pack` (whose prepack
# builds the bundle), then the tarball installed with `npm install --omit=dev`.
# npm pack writes only into a folder that exists: /tmp.

# Build stage: dev dependencies, the build, the tarball.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp && mv /tmp/petstore-sandbox-*.tgz /tmp/petstore-sandbox.tgz
# The optional peers a server uses (Prism's modes, PostgreSQL, the MCP server, OpenTelemetry's tracing), at the lock file's versions.
RUN node scripts/server-peers.mjs > /tmp/server-peers.txt

# Run stage: the package as a user installs it, nothing else.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PETSTORE_HOST=0.0.0.0 \
    PETSTORE_PORT=4010 \
    PETSTORE_DATA=/data/db.json \
    PETSTORE_LOG_FORMAT=json
WORKDIR /app
COPY --from=build /tmp/petstore-sandbox.tgz /tmp/petstore-sandbox.tgz
COPY --from=build /tmp/server-peers.txt /tmp/server-peers.txt
RUN npm install --omit=dev --no-audit --no-fund /tmp/petstore-sandbox.tgz $(cat /tmp/server-peers.txt) \
    && rm /tmp/petstore-sandbox.tgz /tmp/server-peers.txt \
    && npm cache clean --force \
    && mkdir -p /data \
    && chown node:node /data
# The image's own unprivileged user (uid 1000): the data volume is the only place it writes.
USER node
VOLUME /data
EXPOSE 4010
# Ready: storage answers and the sandbox is not draining (503 after SIGTERM). Six retries cover a slow start
# (dockerfilelint cannot read --start-period).
HEALTHCHECK --interval=10s --timeout=3s --retries=6 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PETSTORE_PORT || 4010) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/node_modules/petstore-sandbox/dist/src/bin.js"]
