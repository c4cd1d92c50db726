# One image for every role (ROLES=api,projections,workers by default).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-fund --no-audit
COPY --from=build /app/dist ./dist
COPY main ./main
COPY platform ./platform
COPY server ./server
COPY projections ./projections
COPY workers ./workers
COPY shared ./shared
COPY scripts ./scripts
COPY tsconfig.json ./
# Uploaded media on the local disk (MEDIA_DIR): a volume mounted here keeps the node user as its owner.
RUN mkdir -p /app/.data/media && chown -R node:node /app/.data
EXPOSE 3000
USER node
CMD ["npx", "tsx", "main/main.ts"]
