# The service image. Models ship in model-store/ (trained by the project, committed); no network
# access is needed at run time.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
# devDependencies stay out; tfjs-node is optional and skipped if its native download fails; .npmrc skips
# onnxruntime-node's CUDA download (its CPU binaries are in the npm package)
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json app.ts server.ts options.ts ./
COPY bin ./bin
COPY lib ./lib
COPY plugins ./plugins
COPY schemas ./schemas
COPY dashboard ./dashboard
COPY model-store ./model-store
# /data for the store; the cache folder for the text workers' code, bundled at start-up (lib/runtime/worker-build.ts)
RUN mkdir -p /data node_modules/.cache/open-text-image-api && chown node:node /data node_modules/.cache/open-text-image-api
USER node
# glibc's mmap threshold pinned: less fragmentation from the start-up's weight buffers (lib/config.ts ALLOCATOR_ENV)
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data MALLOC_MMAP_THRESHOLD_=131072
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s CMD node -e "fetch('http://127.0.0.1:3000/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--import", "tsx", "server.ts"]
