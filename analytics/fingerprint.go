package analytics

// fingerprint is the sum of every run's measurementDigest, the first 16
// hex digits: what the derived head records for the stored runs. Where a
// run came from (file name and line) is left out, so re-importing the same
// data from another path keeps the fingerprint, and the order runs are
// read in does not matter.
func fingerprint(runs []Run) string {
	var fp digest256
	var buf []byte
	for i := range runs {
		fp.add(measurementDigest(&runs[i], &buf))
	}
	return fp.String()[:16]
}
