package analytics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// runEncodingV1 is the first byte of a run encoded by encodeRun. A decoder
// refuses any other first byte, so a later layout gets a new version byte
// and old values stay readable by a decoder that knows both.
const runEncodingV1 = 1

// Flags of an encoded run.
const (
	runHasHitRate = 1 << 0
	// runHasVersion: a tenth string, the engine's version, follows the nine.
	runHasVersion = 1 << 1
)

// Layout of a version-1 run, after the version and flags bytes:
//
//	9 float64, 8 bytes little-endian each, fixed offsets: ops_per_sec,
//	  ops_per_core, p50_ms, p99_ms, p999_ms, hit_rate (0 when absent),
//	  hits_per_sec, misses_per_sec, kb_per_sec
//	15 int64 as zig-zag varints: session, shards, server_threads,
//	  shard_io_threads, cores, client_threads, client_conns, pipeline,
//	  value_bytes, key_max, test_time_s, populate, rep, conn_errors,
//	  source_line
//	9 strings, each a uvarint length then the bytes: id, run_id, note,
//	  engine, mode, server_cpus, client_cpus, ratio, source_file
//	  (then the version, with runHasVersion)
const (
	runFloats    = 9
	runFixedSize = 2 + runFloats*8
	runInts      = 15
	runStrings   = 9
)

// errBadRun is wrapped by every decoding failure.
var errBadRun = errors.New("not a valid encoded run")

// encodeRun appends the binary encoding of r to dst.
func encodeRun(dst []byte, r *Run) []byte {
	var flags byte
	hit := 0.0
	if r.HitRate != nil {
		flags |= runHasHitRate
		hit = *r.HitRate
	}
	if r.Version != "" {
		flags |= runHasVersion
	}
	dst = append(dst, runEncodingV1, flags)
	for _, f := range [runFloats]float64{r.OpsPerSec, r.OpsPerCore, r.P50Ms, r.P99Ms, r.P999Ms,
		hit, r.HitsPerSec, r.MissesPerSec, r.KBPerSec} {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	for _, n := range [runInts]int{r.Session, r.Shards, r.ServerThreads, r.ShardIOThreads, r.Cores,
		r.ClientThreads, r.ClientConns, r.Pipeline, r.ValueBytes, r.KeyMax, r.TestTimeS, r.Populate,
		r.Rep, r.ConnErrors, r.SourceLine} {
		dst = binary.AppendVarint(dst, int64(n))
	}
	for _, s := range [runStrings]string{r.ID, r.RunID, r.Note, r.Engine, r.Mode, r.ServerCPUs,
		r.ClientCPUs, r.Ratio, r.SourceFile} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	if r.Version != "" {
		dst = binary.AppendUvarint(dst, uint64(len(r.Version)))
		dst = append(dst, r.Version...)
	}
	return dst
}

// decodeRun decodes a value written by encodeRun. It never panics on bad
// input: a value of another version, a truncated value or one with bytes
// left over is an error wrapping errBadRun.
func decodeRun(v []byte) (Run, error) { return decodeRunWith(v, nil) }

// interner serves many decodes: it shares the text of repeated fields
// (engine, note, CPU lists, source file …) between the runs decoded with
// it, and hands out hit rates from blocks instead of one allocation each.
type interner struct {
	texts map[string]string
	hits  []float64
}

// internedTexts bounds what an interner keeps: a scan's repeated texts
// (notes, run IDs repeated by repetition) come close together, in cell
// order, and at 65,536 the table was 9 MB of the import's derived pass.
const internedTexts = 1 << 12

func newInterner() *interner { return &interner{texts: map[string]string{}} }

func (in *interner) text(b []byte) string {
	if s, ok := in.texts[string(b)]; ok { // no allocation for the lookup
		return s
	}
	s := string(b)
	if len(in.texts) < internedTexts {
		in.texts[s] = s
	}
	return s
}

func (in *interner) hit(h float64) *float64 {
	if len(in.hits) == cap(in.hits) {
		in.hits = make([]float64, 0, 4096)
	}
	in.hits = append(in.hits, h)
	return &in.hits[len(in.hits)-1]
}

// decodeRunWith is decodeRun sharing repeated text through in (nil: none).
func decodeRunWith(v []byte, in *interner) (Run, error) {
	var r Run
	if len(v) < runFixedSize {
		return r, fmt.Errorf("%w: %d bytes", errBadRun, len(v))
	}
	if v[0] != runEncodingV1 {
		return r, fmt.Errorf("%w: encoding version %d", errBadRun, v[0])
	}
	flags := v[1]
	if flags&^(runHasHitRate|runHasVersion) != 0 {
		return r, fmt.Errorf("%w: unknown flags %#x", errBadRun, flags)
	}
	var fl [runFloats]float64
	for i := range fl {
		fl[i] = math.Float64frombits(binary.LittleEndian.Uint64(v[2+i*8:]))
	}
	r.OpsPerSec, r.OpsPerCore, r.P50Ms, r.P99Ms, r.P999Ms = fl[0], fl[1], fl[2], fl[3], fl[4]
	switch {
	case flags&runHasHitRate != 0 && in != nil:
		r.HitRate = in.hit(fl[5])
	case flags&runHasHitRate != 0:
		h := fl[5]
		r.HitRate = &h
	case fl[5] != 0:
		return r, fmt.Errorf("%w: a hit rate without its flag", errBadRun)
	}
	r.HitsPerSec, r.MissesPerSec, r.KBPerSec = fl[6], fl[7], fl[8]

	rest := v[runFixedSize:]
	ints := [runInts]*int{&r.Session, &r.Shards, &r.ServerThreads, &r.ShardIOThreads, &r.Cores,
		&r.ClientThreads, &r.ClientConns, &r.Pipeline, &r.ValueBytes, &r.KeyMax, &r.TestTimeS, &r.Populate,
		&r.Rep, &r.ConnErrors, &r.SourceLine}
	for _, p := range ints {
		n, k := binary.Varint(rest)
		if k <= 0 || n < math.MinInt || n > math.MaxInt {
			return r, fmt.Errorf("%w: a bad number", errBadRun)
		}
		*p = int(n)
		rest = rest[k:]
	}
	strs := []*string{&r.ID, &r.RunID, &r.Note, &r.Engine, &r.Mode, &r.ServerCPUs,
		&r.ClientCPUs, &r.Ratio, &r.SourceFile}
	if flags&runHasVersion != 0 {
		strs = append(strs, &r.Version)
	}
	for i, p := range strs {
		n, k := binary.Uvarint(rest)
		if k <= 0 || n > uint64(len(rest)-k) {
			return r, fmt.Errorf("%w: a bad text field", errBadRun)
		}
		if b := rest[k : k+int(n)]; in != nil && i > 0 { // every field but the ID repeats
			*p = in.text(b)
		} else {
			*p = string(b)
		}
		rest = rest[k+int(n):]
	}
	if len(rest) != 0 {
		return r, fmt.Errorf("%w: %d bytes left over", errBadRun, len(rest))
	}
	return r, nil
}

// runMetrics are what a cell's medians are made of: the value of the
// run's entry under cellRunPrefix, small enough to stay in Badger's tree,
// so the derived data is rebuilt from the tree alone.
type runMetrics struct {
	OpsPerSec, OpsPerCore, P50Ms, P99Ms, P999Ms, KBPerSec float64
	HitRate                                               *float64
}

const metricsSize = 1 + 7*8

func metricsOf(r *Run) runMetrics {
	return runMetrics{OpsPerSec: r.OpsPerSec, OpsPerCore: r.OpsPerCore, P50Ms: r.P50Ms, P99Ms: r.P99Ms,
		P999Ms: r.P999Ms, KBPerSec: r.KBPerSec, HitRate: r.HitRate}
}

// encodeMetrics appends a flags byte (bit 0: a hit rate) and seven
// float64 little-endian: ops/s, ops/core, p50, p99, p99.9, KB/s, hit rate.
func encodeMetrics(dst []byte, m runMetrics) []byte {
	var flags byte
	hit := 0.0
	if m.HitRate != nil {
		flags, hit = runHasHitRate, *m.HitRate
	}
	dst = append(dst, flags)
	for _, f := range [7]float64{m.OpsPerSec, m.OpsPerCore, m.P50Ms, m.P99Ms, m.P999Ms, m.KBPerSec, hit} {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(f))
	}
	return dst
}

func decodeMetrics(v []byte) (runMetrics, error) {
	if len(v) != metricsSize || v[0]&^runHasHitRate != 0 {
		return runMetrics{}, fmt.Errorf("%w: bad metrics (%d bytes)", errBadRun, len(v))
	}
	return readMetrics(v), nil
}

// readMetrics reads the metrics at the start of v (at least metricsSize
// bytes, flags checked by the caller).
func readMetrics(v []byte) runMetrics {
	var m runMetrics
	var f [7]float64
	for i := range f {
		f[i] = math.Float64frombits(binary.LittleEndian.Uint64(v[1+i*8:]))
	}
	m.OpsPerSec, m.OpsPerCore, m.P50Ms, m.P99Ms, m.P999Ms, m.KBPerSec = f[0], f[1], f[2], f[3], f[4], f[5]
	if v[0]&runHasHitRate != 0 {
		h := f[6]
		m.HitRate = &h
	}
	return m
}
