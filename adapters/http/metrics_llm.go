package http

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/memdb-oracle/memdb-oracle/planner"
)

// modelMetrics are the series about the optional language model: calls by
// provider and outcome, and their latency.
type modelMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
}

func newModelMetrics() modelMetrics {
	return modelMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "memdb_oracle_llm_requests_total",
			Help: "Language model calls by provider and outcome: ok, timeout, http_error (unreachable, HTTP error, unreadable body), rejected (reply outside the plan schema).",
		}, []string{"provider", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "memdb_oracle_llm_request_duration_seconds",
			Help:    "Time a language model call took, whatever its outcome, by provider.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 4, 8, 15},
		}, []string{"provider"}),
	}
}

func (mm modelMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{mm.requests, mm.latency}
}

// CompletionObserver returns the planner's observer for one provider's
// calls. Every outcome's series exists from then on, at zero until it
// happens, so a dashboard sees a dead model as a rising timeout or
// http_error count next to a flat ok.
func (m *Metrics) CompletionObserver(provider string) planner.CompletionObserver {
	if provider == "" {
		provider = "unknown"
	}
	for _, o := range planner.CompletionOutcomes() {
		m.model.requests.WithLabelValues(provider, o)
	}
	return completionObserver{m: m.model, provider: provider}
}

type completionObserver struct {
	m        modelMetrics
	provider string
}

func (o completionObserver) ObserveCompletion(outcome string, took time.Duration) {
	o.m.requests.WithLabelValues(o.provider, outcome).Inc()
	o.m.latency.WithLabelValues(o.provider).Observe(took.Seconds())
}
