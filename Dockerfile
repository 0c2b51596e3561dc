# mock-nvr: the Counting Lines Read API from fixtures, on 0.0.0.0:8080.
#   docker build -t mock-nvr .
#   docker run --rm -p 8080:8080 mock-nvr
ARG NODE_VERSION=24

# --- build: every dependency, then TypeScript to dist/ and the CLI bundle ---
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off: the build needs only tsc, esbuild and Rollup (their binaries come as packages), no install script.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# --- runtime: production dependencies, dist/, the bundled fixtures, the dashboard
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    MOCK_NVR_HOST=0.0.0.0 \
    MOCK_NVR_PORT=8080
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY fixtures ./fixtures
COPY dashboard ./dashboard
USER node
EXPOSE 8080
# Node's own client, as slim images have no curl; it follows MOCK_NVR_PORT and the TLS variables.
HEALTHCHECK --interval=5s --timeout=5s --start-period=10s --retries=3 CMD ["node", "dist/healthcheck.js"]
# Exec form: node is PID 1 and receives docker stop's SIGTERM, then closes gracefully.
ENTRYPOINT ["node", "dist/cli.js"]
