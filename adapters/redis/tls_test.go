package redis_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/adapters/redis"
	"github.com/memdb-oracle/memdb-oracle/adapters/redis/redistest"
)

// rediss:// against a real redis-server speaking only TLS, with a
// certificate from a private CA: trusted through the CA file, refused
// without it (the system's roots do not know the CA), and the mistakes an
// operator can make are named at Open.
func TestRedissConnectsThroughAPrivateCA(t *testing.T) {
	srv := redistest.StartTLS(t)
	if !strings.HasPrefix(srv.URL(), "rediss://") {
		t.Fatalf("URL %q", srv.URL())
	}

	st, err := redis.Open(t.Context(), redis.Options{URL: srv.URL(), CAFile: srv.CAFile()})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Check(t.Context()); err != nil || !st.Up() {
		t.Fatalf("rediss:// with the CA file is refused: %v", err)
	}
	kv := st.KV("tls")
	if err := kv.Set(t.Context(), "k", []byte("over TLS"), 0); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := kv.Get(t.Context(), "k"); err != nil || !ok || string(v) != "over TLS" {
		t.Fatalf("Get = %q, %v, %v", v, ok, err)
	}

	// Waiting never makes an unknown CA trusted: serve fails at start.
	// A generous timeout: on a loaded machine a handshake cut short by it
	// would read as "unreachable", not as the certificate.
	if untrusted, err := redis.Open(t.Context(), redis.Options{URL: srv.URL(), Timeout: 10 * time.Second}); !errors.Is(err, redis.ErrMisconfigured) ||
		!strings.Contains(err.Error(), "TLS certificate not trusted") || strings.Contains(err.Error(), "\n") {
		if untrusted != nil {
			untrusted.Close()
		}
		t.Fatalf("a certificate from an unknown CA: Open = %v, want one line naming the TLS certificate", err)
	}

	empty := filepath.Join(t.TempDir(), "empty.pem")
	if err := os.WriteFile(empty, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts redis.Options
		want string
	}{
		{"a CA file without certificates", redis.Options{URL: srv.URL(), CAFile: empty}, "holds no PEM certificate"},
		{"a missing CA file", redis.Options{URL: srv.URL(), CAFile: filepath.Join(t.TempDir(), "nope.pem")}, "reading the shared state CA file"},
		{"a CA file with a plain redis:// URL", redis.Options{URL: "redis://" + srv.Addr(), CAFile: srv.CAFile()}, "use rediss://"},
	} {
		if _, err := redis.Open(t.Context(), tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Open = %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}
