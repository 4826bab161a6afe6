package http

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// feedbackCollector counts the stored 👍/👎 on each scrape, by vote and
// platform, from the stores the chat adapters keep them in.
type feedbackCollector struct {
	desc   *prometheus.Desc
	mu     sync.Mutex
	stores []*bot.FeedbackStore
	log    *slog.Logger
}

// WatchFeedback adds memdb_oracle_feedback_votes{vote="up"|"down",
// platform}: the votes stored in stores (the last click of each user on
// each answer), counted when /metrics is scraped. Each platform's adapter
// adds its store; the series is registered once.
func (m *Metrics) WatchFeedback(log *slog.Logger, stores ...*bot.FeedbackStore) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if m.feedback == nil {
		m.feedback = &feedbackCollector{log: log, desc: prometheus.NewDesc("memdb_oracle_feedback_votes",
			"Feedback stored on answers (the last click per user and answer), by vote and platform.", []string{"vote", "platform"}, nil)}
		m.reg.MustRegister(m.feedback)
	}
	m.feedback.mu.Lock()
	m.feedback.stores = append(m.feedback.stores, stores...)
	m.feedback.mu.Unlock()
}

func (c *feedbackCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *feedbackCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts := map[[2]string]int{}
	c.mu.Lock()
	stores := slices.Clone(c.stores)
	c.mu.Unlock()
	for _, s := range stores {
		votes, err := s.List(ctx)
		if err != nil {
			c.log.Warn("counting feedback for /metrics", "err", err)
		}
		for _, v := range votes {
			vote := "up"
			if !v.Up {
				vote = "down"
			}
			counts[[2]string{vote, v.Platform}]++
		}
	}
	for k, n := range counts {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), k[0], k[1])
	}
}
