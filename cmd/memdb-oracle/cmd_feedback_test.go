package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/analytics"
	"github.com/memdb-oracle/memdb-oracle/bot"
)

// TestFeedbackListAndExportReadTheVotesAdaptersStored stores votes the way
// the Slack and Discord adapters do (in their namespaces of the data
// directory's store), then lists them with the tally and exports the 👎
// first as corpus lines.
func TestFeedbackListAndExportReadTheVotesAdaptersStored(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, err := runInProcess(t, env(), "", "--data", dir, "ask", "redis at 8 cores"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	ctx := context.Background()
	st, err := analytics.Open(ctx, analytics.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, v := range []struct {
		ns      string
		user, q string
		up      bool
		minutes int
	}{{"slack", "U1", "redis at 8 cores", true, 0}, {"discord", "300", "dragonfly at 16 cores, not read-heavy", false, 1}} {
		s := bot.Shown{Card: bot.Card{ID: "id-" + v.user}, Question: v.q,
			Answer: bot.Answer{Kind: bot.KindAnswer, Interpretation: "Throughput of " + v.q, Sources: bot.Sources{Filters: []string{`cores == 8`}}}}
		if _, err := bot.NewFeedbackStore(st.KV(v.ns)).Record(ctx, bot.VoteFor(s, v.ns, v.user, v.up, at.Add(time.Duration(v.minutes)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	list, stderr, err := runInProcess(t, env(), "", "--data", dir, "feedback", "list")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(list, "👍 slack/U1") || !strings.Contains(list, "👎 discord/300") || !strings.Contains(list, "2 votes: 1 👍, 1 👎") {
		t.Errorf("feedback list:\n%s", list)
	}
	export, stderr, err := runInProcess(t, env(), "", "--data", dir, "feedback", "export")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(export), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "👎 dragonfly at 16 cores, not read-heavy ⇒ answer | Throughput of") ||
		!strings.Contains(lines[0], "filter: cores == 8") {
		t.Errorf("feedback export, 👎 first:\n%s", export)
	}
}
