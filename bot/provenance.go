package bot

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// RunSource is where a run's values were read: the capture file and line,
// that line's fields under the file's header (when the file is one of the
// embedded ones), and the published file it copies.
type RunSource struct {
	File string
	Line int
	// Header and Fields are the file's header and the run's line, column by
	// column; empty when the run came from a file imported by hand.
	Header []string
	Fields []string
	// Upstream is the published copy of the file; LineExact says the
	// embedded copy is byte-identical, so Line is also its line there.
	Upstream  string
	LineExact bool
}

// upstreamOf returns the published capture file an embedded one copies, at
// the commit analytics/dataset/PROVENANCE.md records, and whether the copy
// is byte-identical (the session-2 copy has three private rows removed, so
// its line numbers may differ upstream).
func upstreamOf(file string) (url string, exact bool) {
	const repo = "https://github.com/sunnysahijwani/dragonfly-redis-valkey-benchmark/blob/"
	switch file {
	case "runs-aws.csv":
		return repo + "767c99e334f16083db0a3c8cdf1e2303242c0937/results/runs-aws.csv", true
	case "runs-session2-aws.csv":
		return repo + "2e29eeaed027c547b65435aadb9d945775f21015/results/runs-session2-aws.csv", false
	}
	return "", false
}

// sourceOf locates the run's line in the embedded capture file it came from.
func sourceOf(r analytics.Run) RunSource {
	src := RunSource{File: r.SourceFile, Line: r.SourceLine}
	src.Upstream, src.LineExact = upstreamOf(r.SourceFile)
	for _, f := range analytics.DefaultDataset() {
		if f.Name() != r.SourceFile || f.Session != r.Session {
			continue
		}
		data, err := f.Open()
		if err != nil {
			return src
		}
		src.Header, src.Fields = csvLine(data, r.SourceLine)
	}
	return src
}

// csvLine returns the header and the record starting on the given 1-based
// line; nil when there is none.
func csvLine(data []byte, line int) (header, fields []string) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) || (err != nil && rec == nil) {
			return nil, nil
		}
		if header == nil {
			header = rec
			continue
		}
		if l, _ := cr.FieldPos(0); l == line {
			return header, rec
		}
	}
}
