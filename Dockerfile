# memdb-oracle: a static binary on a distroless base, run as non-root.
#   docker build -t memdb-oracle .
#   docker run -p 8080:8080 -v memdb-oracle:/data memdb-oracle
# Two replicas with Valkey: deploy/compose.yaml.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/memdb-oracle ./cmd/memdb-oracle \
	&& mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/memdb-oracle /usr/local/bin/memdb-oracle
# The data directory (Badger store, one per replica) belongs to the
# distroless nonroot user (65532).
COPY --from=build --chown=65532:65532 /out/data /data
ENV MEMDB_ORACLE_DATA=/data \
	MEMDB_ORACLE_HTTP_ADDR=0.0.0.0:8080
VOLUME ["/data"]
EXPOSE 8080
USER nonroot:nonroot
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
	CMD ["/usr/local/bin/memdb-oracle", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/memdb-oracle"]
CMD ["serve"]
