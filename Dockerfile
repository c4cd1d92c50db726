# One image for every role (ROLES=api,realtime,projections,workers by default: the whole site in one process;
# ROLES=realtime alone serves the sockets on PORT, for a load balancer's /socket.io/ rule).
#   docker build -t broadcast-history-community .     tested by `npm run test:image` (podman; see README)
# Node 20, as everywhere else (package.json engines, README, CI).
# package.json less its scripts: what npm ci reads, so a new npm script does not reinstall every package.
FROM node:20-bookworm-slim AS manifest
WORKDIR /app
COPY package.json ./
RUN node -e "const fs = require('node:fs'); const p = JSON.parse(fs.readFileSync('package.json', 'utf8')); delete p.scripts; fs.writeFileSync('package.json', JSON.stringify(p, null, 2))"

FROM node:20-bookworm-slim AS deps
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY --from=manifest /app/package.json ./
COPY package-lock.json ./
# --engine-strict: a dependency that asks for another Node fails the build (one Node version everywhere).
RUN npm ci --engine-strict

# The client, built into dist/client: the server serves it and inlines its theme script from there.
FROM deps AS build
COPY package.json tsconfig.json vite.config.ts ./
COPY client ./client
COPY shared ./shared
RUN npm run build

# Only the packages the site runs on (tsx among them: the server runs from its TypeScript sources).
FROM deps AS runtime-deps
RUN npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json tsconfig.json ./
COPY main ./main
COPY platform ./platform
COPY server ./server
COPY projections ./projections
COPY workers ./workers
COPY shared ./shared
COPY scripts ./scripts
COPY docker ./docker
# Uploaded media on the local disk (MEDIA_DIR): a volume mounted here keeps the node user as its owner.
RUN mkdir -p /app/.data/media && chown -R node:node /app/.data
USER node
# 3000: HTTP; 2525: the inbound role's SMTP listener (replies to discussion mail), when ROLES names inbound.
EXPOSE 3000 2525
# Ready: the stores and Redis answer and the read models are not far behind (a long replay after an upgrade can
# take longer than the start period: the container shows unhealthy until it has caught up).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself (not npm or npx: no notices, and SIGTERM reaches the site, which closes gracefully); pino logs JSON
# lines to stdout.
CMD ["node", "--import", "tsx", "main/main.ts"]
