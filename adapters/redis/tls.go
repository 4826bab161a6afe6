package redis

import (
	"crypto/x509"
	"fmt"
	"os"
)

// loadCAs reads the PEM certificate authorities a rediss:// connection
// trusts. A file without one certificate is an error, not an empty pool
// that would refuse every server with a puzzling handshake failure.
func loadCAs(path string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the shared state CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("the shared state CA file %s holds no PEM certificate", path)
	}
	return pool, nil
}
