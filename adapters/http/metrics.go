package http

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Metrics are the Prometheus series about answering, in their own registry
// (never the global one): questions by kind and platform, answer latency,
// refusals, rate-limited questions and errors, language model calls
// (metrics_llm.go), plus Go runtime and process collectors.
type Metrics struct {
	reg         *prometheus.Registry
	questions   *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	refusals    *prometheus.CounterVec
	rateLimited *prometheus.CounterVec
	errors      *prometheus.CounterVec
	requests    *prometheus.CounterVec
	keyFailures prometheus.Counter
	model       modelMetrics
	// feedback counts the votes of every store watched (WatchFeedback),
	// registered once.
	feedback *feedbackCollector
}

// NewMetrics returns a fresh registry with every series registered.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		questions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memdb_oracle_questions_total",
			Help: "Questions answered, by answer kind and platform.",
		}, []string{"kind", "platform"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "memdb_oracle_answer_duration_seconds",
			Help:    "Time from receiving a question to having its answer, by platform.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"platform"}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memdb_oracle_refusals_total",
			Help: "Questions declined: never measured (no_data) or out of scope, by kind and platform.",
		}, []string{"kind", "platform"}),
		rateLimited: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memdb_oracle_rate_limited_total",
			Help: "Questions refused by a rate limit, by platform.",
		}, []string{"platform"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memdb_oracle_errors_total",
			Help: "Questions that ended in an internal error, by platform.",
		}, []string{"platform"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memdb_oracle_http_requests_total",
			Help: "HTTP API requests, by route and status code.",
		}, []string{"route", "code"}),
		keyFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "memdb_oracle_http_key_failures_total",
			Help: "HTTP requests refused because they carried no valid API key.",
		}),
		model: newModelMetrics(),
	}
	m.reg.MustRegister(m.questions, m.latency, m.refusals, m.rateLimited, m.errors, m.requests, m.keyFailures,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	m.reg.MustRegister(m.model.collectors()...)
	return m
}

// Observe records one answered question.
func (m *Metrics) Observe(platform string, a bot.Answer, took time.Duration) {
	if platform == "" {
		platform = "unknown"
	}
	m.questions.WithLabelValues(string(a.Kind), platform).Inc()
	m.latency.WithLabelValues(platform).Observe(took.Seconds())
	switch a.Kind {
	case bot.KindNoData, bot.KindOutOfScope:
		m.refusals.WithLabelValues(string(a.Kind), platform).Inc()
	case bot.KindRateLimited:
		m.rateLimited.WithLabelValues(platform).Inc()
	case bot.KindError:
		m.errors.WithLabelValues(platform).Inc()
	}
}

// Instrument wraps h so that every message it answers is observed, whatever
// platform it came from.
func (m *Metrics) Instrument(h Handler) Handler {
	return instrumented{h: h, m: m}
}

type instrumented struct {
	h Handler
	m *Metrics
}

func (i instrumented) Handle(ctx context.Context, msg bot.Message) bot.Answer {
	start := time.Now()
	a := i.h.Handle(ctx, msg)
	i.m.Observe(msg.Platform, a, time.Since(start))
	return a
}

func (i instrumented) HandleEncoded(ctx context.Context, msg bot.Message) (bot.Answer, []byte, error) {
	start := time.Now()
	a, raw, err := handleEncoded(ctx, i.h, msg)
	i.m.Observe(msg.Platform, a, time.Since(start))
	return a, raw, err
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the registry the series live in, for adapters that add their
// own series next to these.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// WatchSharedState adds the shared state store's series: whether it is
// reachable (memdb_oracle_shared_state_up, 1 or 0) and how many operations
// local state served instead (memdb_oracle_shared_state_fallbacks_total).
func (m *Metrics) WatchSharedState(up func() bool, fallbacks func() uint64) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "memdb_oracle_shared_state_up",
			Help: "1 while the shared Redis/Valkey state store answers, 0 while this replica uses local state.",
		}, func() float64 {
			if up() {
				return 1
			}
			return 0
		}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "memdb_oracle_shared_state_fallbacks_total",
			Help: "Shared-state operations served by this replica's local state because the store was unreachable.",
		}, func() float64 { return float64(fallbacks()) }),
	)
}

// WatchRejected adds memdb_oracle_rejected_requests_total{reason}: requests
// an adapter refused before reading them (a bad Slack signature), counted
// by the adapter.
func (m *Metrics) WatchRejected(reason string, count func() uint64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name:        "memdb_oracle_rejected_requests_total",
		Help:        "Requests refused before they were read, by reason.",
		ConstLabels: prometheus.Labels{"reason": reason},
	}, func() float64 { return float64(count()) }))
}

// WatchImportFeed adds memdb_oracle_shared_imports_refused_total: the
// import records found on the shared store without this deployment's
// signature, each counted once and never applied.
func (m *Metrics) WatchImportFeed(refused func() uint64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "memdb_oracle_shared_imports_refused_total",
		Help: "Import records on the shared state store refused because their signature is missing or wrong.",
	}, func() float64 { return float64(refused()) }))
}

// WatchDisk adds memdb_oracle_disk_degraded: 1 while the data directory is
// short of disk space, so bot state (threads, counters) is kept in memory.
func (m *Metrics) WatchDisk(degraded func() bool) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "memdb_oracle_disk_degraded",
		Help: "1 while the data directory's disk is nearly full and thread memory and counters are kept in memory only.",
	}, func() float64 {
		if degraded() {
			return 1
		}
		return 0
	}))
}

// WatchScrub adds the last scrub's series (see analytics.Store.Scrub):
// memdb_oracle_scrub_last_timestamp_seconds (0 before the first),
// memdb_oracle_scrub_files_checked (tables and kept copies read) and
// memdb_oracle_scrub_damaged_files (those that failed their checksum).
func (m *Metrics) WatchScrub(last func() (finished time.Time, checked, damaged int)) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "memdb_oracle_scrub_last_timestamp_seconds",
			Help: "When the last scrub of the store (every table block and kept copy against its checksum) finished, in Unix seconds; 0 before the first.",
		}, func() float64 {
			if at, _, _ := last(); !at.IsZero() {
				return float64(at.UnixMilli()) / 1000
			}
			return 0
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "memdb_oracle_scrub_files_checked",
			Help: "Files the last scrub read against their checksums: table files and kept copies of imported files.",
		}, func() float64 { _, n, _ := last(); return float64(n) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "memdb_oracle_scrub_damaged_files",
			Help: "Files that failed their checksum in the last scrub; above 0, see /healthz and run memdb-oracle doctor --scrub.",
		}, func() float64 { _, _, n := last(); return float64(n) }),
	)
}
