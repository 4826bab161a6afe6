package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

// The scale benchmarks' store: the embedded session-1 runs repeated until
// it holds this many (more repetitions of the same cells, so every
// knowledge figure and answer stays valid and every cell grows).
var (
	scaleRuns  = flag.Int("scale-runs", 3_000_000, "runs in the store of BenchmarkAskAtScale and BenchmarkServeAtScale")
	scaleLoad  = flag.Duration("scale-load", 60*time.Second, "how long BenchmarkServeAtScale's 200 clients ask")
	scaleStore = flag.String("scale-store", "", "reuse this data directory as the scale store (made there when missing)")
	scaleBin   = flag.String("scale-bin", "", "run this memdb-oracle binary instead of building this tree (a baseline: an earlier release)")
)

// scaleBinary is -scale-bin, or this tree built.
func scaleBinary(b *testing.B) string {
	b.Helper()
	if *scaleBin != "" {
		return *scaleBin
	}
	bin, err := builtPath()
	if err != nil {
		b.Fatal(err)
	}
	return bin
}

// scaleQuestions are asked of the large store: one needing no data, and
// answers over cells of thousands of repetitions each.
var scaleQuestions = []string{
	"what is pipelining?",
	"dragonfly throughput at 48 cores",
	"compare redis and valkey at 16 cores",
	"how does valkey scale without pipelining?",
	"is dragonfly 25x faster than redis?",
	"p99 of redis cluster at 24 cores",
}

// scaleStoreDir returns -scale-store, importing the scale store there
// when it holds none, or else imports one into a directory removed when
// the benchmark ends (pass -scale-store to import once for several runs).
func scaleStoreDir(b *testing.B, bin string) string {
	b.Helper()
	dir := *scaleStore
	if dir == "" {
		dir = filepath.Join(b.TempDir(), "data")
	}
	if _, err := os.Stat(filepath.Join(dir, "memdb-oracle-manifest.json")); err == nil {
		return dir
	}
	csvPath := filepath.Join(b.TempDir(), "repeated.csv")
	writeRepeatedSession1(b, csvPath, *scaleRuns)
	start := time.Now()
	cmd := exec.Command(bin, "--data", dir, "import", "--session", "1", csvPath)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("import: %v\n%s", err, out)
	}
	b.Logf("imported %d runs in %s (%s of CPU, %.0f MB peak RSS)", *scaleRuns, time.Since(start).Round(time.Second),
		cpuOf(cmd.ProcessState).Round(time.Millisecond), maxRSS(cmd.ProcessState))
	if err := os.Remove(csvPath); err != nil {
		b.Fatal(err)
	}
	return dir
}

// writeRepeatedSession1 writes the embedded session-1 capture file's rows
// over and over, each copy with its own run IDs, until n rows.
func writeRepeatedSession1(b *testing.B, path string, n int) {
	b.Helper()
	raw, err := analytics.DefaultDataset()[0].Open()
	if err != nil {
		b.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := csv.NewWriter(bw)
	if err := w.Write(rows[0]); err != nil {
		b.Fatal(err)
	}
	rec := make([]string, len(rows[0]))
	for i := 0; i < n; {
		for _, r := range rows[1:] {
			if i == n {
				break
			}
			copy(rec, r)
			rec[0] = r[0] + "-x" + strconv.Itoa(i/(len(rows)-1))
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
			i++
		}
	}
	w.Flush()
	if err := errorsJoin(w.Error(), bw.Flush(), f.Close()); err != nil {
		b.Fatal(err)
	}
}

func errorsJoin(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func cpuOf(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }

// maxRSS is a finished process's peak resident set in MB.
func maxRSS(ps *os.ProcessState) float64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Maxrss) / 1024 // Linux: KB
	}
	return 0
}

// BenchmarkAskAtScale asks "what is pipelining?" (and the other scale
// questions with -v) as a whole process of the embedded 478-run store and
// of a store of -scale-runs runs, in turn, and reports the medians of each
// one's CPU time, the median and spread of the paired CPU ratios (large ÷
// embedded: 1.0 is "costs the same"), the large store's peak RSS, and the
// largest value it holds (no value may grow with the runs).
func BenchmarkAskAtScale(b *testing.B) {
	bin := scaleBinary(b)
	large := scaleStoreDir(b, bin)
	small := filepath.Join(b.TempDir(), "embedded")
	ask := func(dir, q string) (*os.ProcessState, []byte) {
		cmd := exec.Command(bin, "--data", dir, "ask", q)
		cmd.Env = []string{"HOME=" + dir}
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("ask %q: %v\n%s", q, err, out)
		}
		return cmd.ProcessState, out
	}
	for _, q := range scaleQuestions {
		ask(small, q) // first use; figures saved
		ask(large, q)
	}
	// A child's peak RSS counts this process's at the fork (Linux keeps
	// the larger): the store is walked after the asks, and the embedded
	// store's figure shows the floor.
	var smallCPU, largeCPU, ratios, smallRSS, largeRSS []float64
	for b.Loop() {
		s, _ := ask(small, scaleQuestions[0])
		l, _ := ask(large, scaleQuestions[0])
		sc, lc := cpuOf(s).Seconds()*1000, cpuOf(l).Seconds()*1000
		smallCPU, largeCPU = append(smallCPU, sc), append(largeCPU, lc)
		ratios = append(ratios, lc/max(sc, 0.001))
		smallRSS, largeRSS = append(smallRSS, maxRSS(s)), append(largeRSS, maxRSS(l))
	}
	st, err := analytics.Open(b.Context(), analytics.Options{Dir: large, ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	key, size, err := st.LargestValue(b.Context())
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("largest stored value: %q, %d bytes", key, size)

	b.ReportMetric(median(smallCPU), "embedded-cpu-ms")
	b.ReportMetric(median(largeCPU), "large-cpu-ms")
	b.ReportMetric(median(ratios), "cpu-ratio")
	b.ReportMetric(slices.Min(ratios), "cpu-ratio-min")
	b.ReportMetric(slices.Max(ratios), "cpu-ratio-max")
	b.ReportMetric(median(smallRSS), "embedded-rss-MB")
	b.ReportMetric(median(largeRSS), "large-rss-MB")
	b.ReportMetric(float64(size)/1024, "largest-value-KB")
}

func median(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// BenchmarkServeAtScale runs serve (HTTP only) over the store of
// -scale-runs runs and reports its resident set once every scale question
// was answered (idle), then 200 keep-alive clients ask the scale questions
// for -scale-load and it reports the resident set again, the largest
// /api/ask answer, and the answers per second. Targets: ≤ 32 KB an answer,
// ≤ 200 MB idle, ≤ 300 MB after the load.
func BenchmarkServeAtScale(b *testing.B) {
	bin := scaleBinary(b)
	data := scaleStoreDir(b, bin)
	addr := freeLoopbackAddr(b)
	cmd := exec.Command(bin, "--data", data, "serve", "--http-addr", addr)
	cmd.Env = []string{"HOME=" + filepath.Dir(data), "MEMDB_ORACLE_HTTP_RATE_PER_MINUTE=0", "MEMDB_ORACLE_HTTP_RATE_DAILY=0"}
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} { // to try the runtime's settings
		if v, ok := os.LookupEnv(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	base := "http://" + addr
	waitHealthy(b, base, &logs)
	tr := &http.Transport{MaxIdleConns: 200, MaxIdleConnsPerHost: 200}
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	largest := 0
	for _, q := range scaleQuestions {
		n, err := apiAsk(client, base, q)
		if err != nil {
			b.Fatalf("%v\n%s", err, logs.String())
		}
		largest = max(largest, n)
	}
	idle := rssMB(b, cmd.Process.Pid)
	for b.Loop() {
		deadline := time.Now().Add(*scaleLoad)
		var mu sync.Mutex
		answers := 0
		var wg sync.WaitGroup
		errs := make(chan error, 200)
		for c := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := c; time.Now().Before(deadline); i++ {
					n, err := apiAsk(client, base, scaleQuestions[i%len(scaleQuestions)])
					if err != nil {
						errs <- err
						return
					}
					mu.Lock()
					answers++
					largest = max(largest, n)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatalf("%v\n%s", err, logs.String())
		}
		b.ReportMetric(float64(answers)/scaleLoad.Seconds(), "answers/s")
	}
	b.ReportMetric(idle, "idle-rss-MB")
	b.ReportMetric(rssMB(b, cmd.Process.Pid), "loaded-rss-MB")
	b.ReportMetric(float64(largest)/1024, "largest-answer-KB")
}

// apiAsk posts one question and returns the answer's size in bytes.
func apiAsk(c *http.Client, base, q string) (int, error) {
	body, err := json.Marshal(map[string]string{"question": q})
	if err != nil {
		return 0, err
	}
	resp, err := c.Post(base+"/api/ask", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("POST /api/ask %q: %s", q, resp.Status)
	}
	return int(n), nil
}

func freeLoopbackAddr(b *testing.B) string {
	b.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		b.Fatal(err)
	}
	return addr
}

func waitHealthy(b *testing.B, base string, logs *bytes.Buffer) {
	b.Helper()
	for range 600 {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.Fatalf("serve never became healthy:\n%s", logs.String())
}

// rssMB is a running process's resident set in MB (Linux; 0 elsewhere).
func rssMB(b *testing.B, pid int) float64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Logf("no resident set: %v", err)
		return 0
	}
	for line := range strings.Lines(string(raw)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	return 0
}
