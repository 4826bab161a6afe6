package analytics

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// fingerprint hashes every run's measured content in ID order. Where a run
// came from (file name and line) is left out, so re-importing the same data
// from another path keeps the fingerprint.
func fingerprint(runs []Run) string {
	h := sha256.New()
	for _, r := range runs {
		r.SourceFile, r.SourceLine = "", 0
		b, _ := json.Marshal(r) // a Run always marshals
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
