package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// benchQuestions are what the API benchmarks ask, in turn: a lookup, a
// comparison, a claim, a scaling question, a refusal and a definition.
var benchQuestions = []string{
	"Dragonfly at 8 cores",
	"Which engine is fastest at 48 cores?",
	"Is Dragonfly 25x faster than Redis?",
	"How does Valkey scale with cores?",
	"Redis at pipeline 64",
	"what is pipelining?",
}

func benchBodies(tb testing.TB) [][]byte {
	var out [][]byte
	for _, q := range benchQuestions {
		b, err := json.Marshal(AskRequest{Question: q})
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// benchHandler is the real bot on the embedded data behind the API's full
// handler chain (routes, metrics, root), limits off.
func benchHandler(b *testing.B, cacheSize int) http.Handler {
	env := bottest.NewEnv(b, func(c *bot.Config) { c.AnswerCacheSize = cacheSize })
	m := NewMetrics()
	mux := http.NewServeMux()
	NewAPI(m.Instrument(env.Bot), Options{Metrics: m}).Register(mux)
	return Root(mux, m, nil)
}

// BenchmarkAPIAsk is one POST /api/ask through the whole handler chain, in
// process: B/op is what a request allocates. "composed" turns the answer
// cache off; "cached" is the default bot, where repeated questions are
// served from it.
func BenchmarkAPIAsk(b *testing.B) {
	bodies := benchBodies(b)
	for _, bc := range []struct {
		name  string
		cache int
	}{{"composed", -1}, {"cached", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			h := benchHandler(b, bc.cache)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/api/ask", bytes.NewReader(bodies[i%len(bodies)]))
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
				i++
			}
		})
	}
}

// BenchmarkAPIAskLoopback200 serves the API on a loopback listener and
// sends b.N requests from 200 concurrent clients (keep-alive, limits off).
// It reports requests per second of wall time, requests per CPU-second of
// the whole process (server and clients share it) and the p99 latency.
func BenchmarkAPIAskLoopback200(b *testing.B) {
	const clients = 200
	bodies := benchBodies(b)
	srv := httptest.NewServer(benchHandler(b, 0))
	b.Cleanup(srv.Close)
	tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients}
	b.Cleanup(tr.CloseIdleConnections)
	client := &http.Client{Transport: tr, Timeout: time.Minute}

	var next atomic.Int64
	lat := make([][]time.Duration, clients)
	cpu0 := cpuTime(b)
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for c := range clients {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				t0 := time.Now()
				resp, err := client.Post(srv.URL+"/api/ask", "application/json", bytes.NewReader(bodies[i%int64(len(bodies))]))
				if err != nil {
					errs <- err
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					errs <- fmt.Errorf("status %d", resp.StatusCode)
					return
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		})
	}
	wg.Wait()
	wall, cpu := time.Since(start), cpuTime(b)-cpu0
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	b.ReportMetric(float64(b.N)/wall.Seconds(), "req/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "req/cpu-s")
	}
	if len(all) > 0 {
		slices.Sort(all)
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
