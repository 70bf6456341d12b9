# Starlane's servers as a container image (docs/DEPLOY.md): the masterserver, slot-, game- and
# netgame server, one per container, chosen by the command (default: a gameserver).
#
#   docker build -t starlane-server .
#   docker run --rm -p 6581:6581/tcp -p 6522:6522/udp -p 8080:8080/tcp starlane-server
#
# Every option can also come from the environment: STARLANE_<OPTION> (STARLANE_MAX_PLAYERS=32).
# test/integration/imageRecipe.test.ts follows the runtime stage's COPY and RUN lines to prove the
# image holds what the servers need; keep its instructions to the ones that test understands.

ARG NODE_VERSION=22

# Build: every dependency (the build tools are devDependencies), then the bundles in out/.
FROM node:${NODE_VERSION}-slim AS build
WORKDIR /src
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx electron-vite build

# Runtime: the production dependencies and the server bundle with the chunks it imports, nothing else.
FROM node:${NODE_VERSION}-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force && mkdir -p /data && chown node:node /data
COPY --from=build /src/out/main/server.js out/main/server.js
COPY --from=build /src/out/main/chunks/ out/main/chunks/
# Every kind gets its status page on 8080 (the health check reads it); the command line can move it.
ENV STARLANE_HTTP_PORT=8080
USER node
# gameserver tcp/udp, slotserver tcp/udp, netgame tcp/udp, masterserver tcp, status page.
EXPOSE 6581/tcp 6522/udp 6582/tcp 6523/udp 6583/tcp 6524/udp 6502/tcp 8080/tcp
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.STARLANE_HTTP_PORT||8080)+'/status.json').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The flags npm run server gives node: a 1 MB young generation keeps a server's memory flat under floods.
ENTRYPOINT ["node", "--max-semi-space-size=1", "out/main/server.js"]
CMD ["gameserver"]
