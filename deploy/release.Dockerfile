# The release image GoReleaser builds (.goreleaser.yaml) around the binary
# it has already compiled; the Dockerfile at the repository's root builds
# the same image from source.
FROM busybox:1.37 AS data
RUN mkdir /data

FROM gcr.io/distroless/static-debian12:nonroot
COPY memdb-oracle /usr/local/bin/memdb-oracle
# The data directory belongs to the distroless nonroot user (65532), so a
# fresh volume mounted there is writable.
COPY --from=data --chown=65532:65532 /data /data
ENV MEMDB_ORACLE_DATA=/data \
	MEMDB_ORACLE_HTTP_ADDR=0.0.0.0:8080
VOLUME ["/data"]
EXPOSE 8080
USER nonroot:nonroot
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
	CMD ["/usr/local/bin/memdb-oracle", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/memdb-oracle"]
CMD ["serve"]
