package bot

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
	"github.com/memdb-oracle/memdb-oracle/knowledge"
)

// DigestKnowledge is what the digest reads from the knowledge base.
// *knowledge.Base satisfies it.
type DigestKnowledge interface {
	Claims(engine, topic string) []knowledge.Claim
	MemoryTable() knowledge.MemoryTable
}

// DigestSource composes digests from the runs and the knowledge base. Every
// number is computed from the runs (or read from a measured table) when
// Compose is called, so importing runs changes the next digest.
type DigestSource struct {
	q  Querier
	kb DigestKnowledge
}

// NewDigestSource returns a composer over the given runs and knowledge.
func NewDigestSource(q Querier, kb DigestKnowledge) *DigestSource {
	return &DigestSource{q: q, kb: kb}
}

// The conditions every headline figure uses.
const (
	digestWorkload   = `ratio == "1:10" && value_bytes == 100 && pipeline == 16`
	digestConditions = "SET:GET 1:10 (read-heavy), 100 B values, pipeline 16"
)

// digestFacts is what one composition measured, before it is written out.
type digestFacts struct {
	df, redis, redisSat, valkey, valkeySat analytics.Cell // 48 cores, session 1
	crossCores                             int            // first core count where Dragonfly beats the realistic Redis cluster
	dfSeries, redisSeries                  []analytics.Cell
	latency                                []analytics.Cell // every 48-core cell of the workload, both sessions
	garnetPeak                             analytics.Cell
	keydb8, keydbTop                       analytics.Cell
	filters                                []string
	runIDs                                 []string
}

// Compose builds the digest; last is the state of the previous posted
// digest (nil when none), which the "what changed" section compares with.
func (s *DigestSource) Compose(ctx context.Context, last *DigestState) (Digest, error) {
	var f digestFacts
	if err := s.measure(ctx, &f); err != nil {
		return Digest{}, err
	}
	state, err := s.state(ctx, &f)
	if err != nil {
		return Digest{}, err
	}
	changes := digestChanges(last, state)
	d := Digest{Changes: changes, State: state, Unchanged: last != nil && digestSame(*last, state)}
	d.Headline = s.headline(&f, changes, state.TotalRuns())
	d.Details = s.details(&f, changes)
	d.Sources = s.sources(&f)
	d.Chart = compose.ChartForDigest([]Row{
		RowFromCell(f.df), RowFromCell(f.redis), RowFromCell(f.redisSat), RowFromCell(f.valkey), RowFromCell(f.valkeySat),
	})
	return d, nil
}

// one runs a filter that must select exactly one cell.
func (s *DigestSource) one(ctx context.Context, f *digestFacts, filter string) (analytics.Cell, error) {
	cells, err := s.many(ctx, f, filter)
	if err != nil {
		return analytics.Cell{}, err
	}
	if len(cells) != 1 {
		return analytics.Cell{}, fmt.Errorf("digest: %s selects %d cells, want 1", filter, len(cells))
	}
	return cells[0], nil
}

func (s *DigestSource) many(ctx context.Context, f *digestFacts, filter string) ([]analytics.Cell, error) {
	res, err := s.q.Query(ctx, filter)
	if err != nil {
		return nil, fmt.Errorf("digest query %s: %w", filter, err)
	}
	if len(res.Cells) == 0 {
		return nil, fmt.Errorf("digest: %s selects no run", filter)
	}
	f.filters = append(f.filters, filter)
	f.runIDs = append(f.runIDs, res.RunIDs()...)
	return res.Cells, nil
}

func series48(engine, mode string) string {
	return fmt.Sprintf(`session == 1 && engine == %q && mode == %q && cores == 48 && %s`, engine, mode, digestWorkload)
}

func (s *DigestSource) measure(ctx context.Context, f *digestFacts) error {
	targets := []struct {
		cell         *analytics.Cell
		engine, mode string
	}{
		{&f.df, "dragonfly", "single"},
		{&f.redis, "redis", "cluster"},
		{&f.redisSat, "redis", "cluster-sat"},
		{&f.valkey, "valkey", "cluster"},
		{&f.valkeySat, "valkey", "cluster-sat"},
	}
	for _, t := range targets {
		c, err := s.one(ctx, f, series48(t.engine, t.mode))
		if err != nil {
			return err
		}
		*t.cell = c
	}
	var err error
	if f.dfSeries, err = s.many(ctx, f, `session == 1 && engine == "dragonfly" && mode == "single" && `+digestWorkload); err != nil {
		return err
	}
	if f.redisSeries, err = s.many(ctx, f, `session == 1 && engine == "redis" && mode == "cluster" && `+digestWorkload); err != nil {
		return err
	}
	f.crossCores = digestCrossover(f.dfSeries, f.redisSeries)
	if f.latency, err = s.many(ctx, f, `cores == 48 && `+digestWorkload); err != nil {
		return err
	}
	garnet, err := s.many(ctx, f, `engine == "garnet" && `+digestWorkload)
	if err != nil {
		return err
	}
	f.garnetPeak = slices.MaxFunc(garnet, func(a, b analytics.Cell) int { return cmp.Compare(a.OpsPerSec, b.OpsPerSec) })
	keydb, err := s.many(ctx, f, `engine == "keydb" && `+digestWorkload)
	if err != nil {
		return err
	}
	f.keydbTop = slices.MaxFunc(keydb, func(a, b analytics.Cell) int { return cmp.Compare(a.Cores, b.Cores) })
	f.keydb8 = f.keydbTop
	for _, c := range keydb { // the largest core count below the top one
		if c.Cores < f.keydbTop.Cores && (f.keydb8.Cores == f.keydbTop.Cores || c.Cores > f.keydb8.Cores) {
			f.keydb8 = c
		}
	}
	return nil
}

// digestCrossover returns the first core count at which a beats b and stays ahead
// at every larger core count both measured, or 0.
func digestCrossover(a, b []analytics.Cell) int {
	bv := map[int]float64{}
	for _, c := range b {
		bv[c.Cores] = c.OpsPerSec
	}
	first := 0
	for _, c := range a { // ascending cores
		other, ok := bv[c.Cores]
		if !ok {
			continue
		}
		switch {
		case c.OpsPerSec > other && first == 0:
			first = c.Cores
		case c.OpsPerSec <= other:
			first = 0
		}
	}
	return first
}

// state is what this digest will be compared against next time.
func (s *DigestSource) state(ctx context.Context, f *digestFacts) (DigestState, error) {
	all, err := s.q.Query(ctx, "true")
	if err != nil {
		return DigestState{}, fmt.Errorf("digest: listing runs: %w", err)
	}
	st := DigestState{Figures: map[string]Figure{}, Claims: map[string]ClaimState{}}
	counts := map[RunTag]int{}
	h := sha256.New()
	for _, c := range all.Cells {
		counts[RunTag{Session: c.Session, Engine: c.Engine}] += c.Reps
		fmt.Fprintf(h, "%v|%v|%v|%v|%v|%v\n", c.CellKey, c.Reps, c.OpsPerSec, c.P50Ms, c.P99Ms, c.P999Ms)
	}
	st.Fingerprint = hex.EncodeToString(h.Sum(nil))[:16]
	st.RunCounts = []RunCount{}
	for _, tag := range sortedTags(counts) {
		st.RunCounts = append(st.RunCounts, RunCount{RunTag: tag, Runs: counts[tag]})
	}

	ops := func(key, label string, c analytics.Cell) {
		st.Figures[key] = Figure{Label: label, Value: c.OpsPerSec, Display: compose.FormatOps(c.OpsPerSec)}
	}
	ops("dragonfly-48c", "Dragonfly at 48 cores", f.df)
	ops("redis-cluster-48c", "Redis Cluster (realistic) at 48 cores", f.redis)
	ops("redis-ceiling-48c", "Redis Cluster (fully driven ceiling) at 48 cores", f.redisSat)
	ops("valkey-cluster-48c", "Valkey Cluster (realistic) at 48 cores", f.valkey)
	ops("valkey-ceiling-48c", "Valkey Cluster (fully driven ceiling) at 48 cores", f.valkeySat)
	ops("garnet-floor", fmt.Sprintf("Garnet's floor (%d cores)", f.garnetPeak.Cores), f.garnetPeak)
	ops("keydb-top", fmt.Sprintf("KeyDB at %d cores", f.keydbTop.Cores), f.keydbTop)
	r := f.df.OpsPerSec / f.redis.OpsPerSec
	st.Figures["dragonfly-vs-redis-cluster"] = Figure{Label: "Dragonfly ÷ realistic Redis Cluster at 48 cores", Value: r, Display: compose.FormatRatio(r)}
	st.Figures["crossover-cores"] = Figure{Label: "The core count where Dragonfly passes the realistic Redis Cluster", Value: float64(f.crossCores), Display: digestCrossText(f.crossCores)}

	for _, c := range s.kb.Claims("", "") {
		st.Claims[c.ID] = ClaimState{Title: c.Title, Measured: c.Measured, Verdict: c.Verdict}
	}
	return st, nil
}

func digestCrossText(cores int) string {
	if cores == 0 {
		return "never, at the measured core counts"
	}
	return strconv.Itoa(cores) + " cores"
}

func digestReps(c analytics.Cell) string {
	if c.Reps == 1 {
		return "single run"
	}
	return fmt.Sprintf("median of %d runs", c.Reps)
}

// headline is the short top-level message: what changed, then four
// findings, each one number with its conditions.
func (s *DigestSource) headline(f *digestFacts, changes []string, runs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "*memdb-oracle digest* — measured findings from %d benchmark runs (medians across repetitions; details in the thread)\n", runs)
	switch {
	case len(changes) == 1:
		fmt.Fprintf(&b, "• What changed: %s\n", changes[0])
	case len(changes) > 1:
		fmt.Fprintf(&b, "• What changed: %s (and %d more changes in the thread)\n", changes[0], len(changes)-1)
	}
	fmt.Fprintf(&b, "• 48 cores, %s, session 1: Dragonfly (single process) %s — %s a realistic Redis Cluster (%s), %s of its fully driven ceiling (%s, single run).\n",
		digestConditions, compose.FormatOps(f.df.OpsPerSec), compose.FormatRatio(f.df.OpsPerSec/f.redis.OpsPerSec), compose.FormatOps(f.redis.OpsPerSec),
		compose.FormatRatio(f.df.OpsPerSec/f.redisSat.OpsPerSec), compose.FormatOps(f.redisSat.OpsPerSec))
	if f.crossCores > 0 {
		fmt.Fprintf(&b, "• Dragonfly passes the realistic Redis Cluster from %d cores on (same workload, session 1).\n", f.crossCores)
	}
	fmt.Fprintf(&b, "• Session 2 (a different client machine, compare with care): Garnet at least %s at %d cores (client-limited floor); KeyDB tops out at %s at %d cores — it refuses more than %d server threads.\n",
		compose.FormatOps(f.garnetPeak.OpsPerSec), f.garnetPeak.Cores, compose.FormatOps(f.keydbTop.OpsPerSec), f.keydbTop.Cores, f.keydbTop.Cores)
	if line := digestMemoryLine(s.kb.MemoryTable()); line != "" {
		fmt.Fprintf(&b, "• %s\n", line)
	}
	return strings.TrimRight(b.String(), "\n")
}

func digestMemoryLine(t knowledge.MemoryTable) string {
	if len(t.Rows) == 0 {
		return ""
	}
	var parts []string
	for _, r := range t.Rows {
		parts = append(parts, fmt.Sprintf("%s %s", analytics.EngineName(r.Engine), strconv.FormatFloat(r.BytesPerKey, 'f', -1, 64)))
	}
	return fmt.Sprintf("Memory, %s keys × %d B values: %s bytes per key (measured).", digestThousands(t.Keys), t.ValueBytes, strings.Join(parts, ", "))
}

func digestThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// sources lists what the digest's numbers rest on.
func (s *DigestSource) sources(f *digestFacts) Sources {
	src := Sources{Filters: slices.Clone(f.filters), RunIDs: slices.Compact(slices.Sorted(slices.Values(f.runIDs)))}
	if mem := s.kb.MemoryTable(); mem.ID != "" {
		src.Entries = append(src.Entries, SourceEntry{ID: mem.ID, Title: mem.Title, URL: firstSourceURL(mem.Sources)})
	}
	for _, c := range s.kb.Claims("", "") {
		src.Entries = append(src.Entries, SourceEntry{ID: c.ID, Title: c.Title, URL: firstSourceURL(c.Sources)})
	}
	return src
}

func firstSourceURL(ss []knowledge.Source) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0].URL
}
