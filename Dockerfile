# memdb-oracle: a static binary on a distroless base, run as non-root.
#   docker build --build-arg VERSION=$(git describe --tags --always) -t memdb-oracle .
#   docker run -p 8080:8080 -v memdb-oracle:/data memdb-oracle
# Two replicas with Valkey: deploy/compose.yaml.
#
# The base images are pinned by digest, so every build starts from the
# same bytes (docs/operations.md, "Deploying", says how to refresh them:
#   docker buildx imagetools inspect golang:1.26-bookworm   # → Digest: sha256:…
# and the same for the distroless image). They stay build arguments for a
# mirror; keep a digest on whatever you pass.
# .dockerignore keeps deploy/.env (secrets), .git and data out of the context.
ARG GO_IMAGE=golang:1.26-bookworm@sha256:9fdc884aacc3bec89b20ffc69f4bb369c78210e3e4f600387b5128b12c199f81
ARG BASE_IMAGE=gcr.io/distroless/static-debian12:nonroot@sha256:d093aa3e30dbadd3efe1310db061a14da60299baff8450a17fe0ccc514a16639

FROM ${GO_IMAGE} AS build
ARG VERSION=dev
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The version is set at link time: the build context has no .git, so Go's
# own VCS stamp is absent (memdb-oracle version prints it).
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.releaseVersion=${VERSION}" -o /out/memdb-oracle ./cmd/memdb-oracle \
	&& mkdir -p /out/data

FROM ${BASE_IMAGE}
COPY --from=build /out/memdb-oracle /usr/local/bin/memdb-oracle
# The data directory (Badger store, one per replica) belongs to the
# distroless nonroot user (65532).
COPY --from=build --chown=65532:65532 /out/data /data
ENV MEMDB_ORACLE_DATA=/data \
	MEMDB_ORACLE_HTTP_ADDR=0.0.0.0:8080
VOLUME ["/data"]
EXPOSE 8080
USER nonroot:nonroot
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
	CMD ["/usr/local/bin/memdb-oracle", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/memdb-oracle"]
CMD ["serve"]
