package analytics

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
)

// fingerprintOf is the store's fingerprint: a hash of the manifest's count
// and digest of every session, which cover every stored run's encoding.
// So it changes whenever a run is added and is known without reading any.
func fingerprintOf(sessions map[string]sessionSums) string {
	keys := make([]string, 0, len(sessions))
	for k := range sessions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%d:%s\n", k, sessions[k].Runs, sessions[k].Digest)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// fingerprint is the fingerprint of a store holding exactly these runs.
func fingerprint(runs []Run) string {
	digests := map[string]*digest256{}
	counts := map[string]int{}
	var val []byte
	for i := range runs {
		r := &runs[i]
		k := sessionKey(r.Session)
		if digests[k] == nil {
			digests[k] = &digest256{}
		}
		val = encodeRun(val[:0], r)
		digests[k].add(runDigest([]byte(runIDPrefix+r.ID), val))
		counts[k]++
	}
	sums := make(map[string]sessionSums, len(counts))
	for k, n := range counts {
		sums[k] = sessionSums{Runs: n, Digest: digests[k].String()}
	}
	return fingerprintOf(sums)
}
