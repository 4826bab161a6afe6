# The release image GoReleaser builds (.goreleaser.yaml) around the binary
# it has already compiled; the Dockerfile at the repository's root builds
# the same image from source. Both bases are pinned by digest, as there
# (docs/operations.md, "Deploying").
FROM busybox:1.37@sha256:9db7b59979c38555a39def84a31fb98b5296952f9e3afd4f6f11f05b07adfab0 AS data
RUN mkdir /data

FROM gcr.io/distroless/static-debian12:nonroot@sha256:d093aa3e30dbadd3efe1310db061a14da60299baff8450a17fe0ccc514a16639
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
