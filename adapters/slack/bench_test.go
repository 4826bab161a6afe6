package slack

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// BenchmarkRenderClaimAnswer measures laying out a typical answer (a claim
// with its table, caveats and sources) as Block Kit.
func BenchmarkRenderClaimAnswer(b *testing.B) {
	a := claimAnswer()
	for b.Loop() {
		render(a, shown{Asker: "U1", Question: "Is Dragonfly 25x faster than Redis?"})
	}
}

// BenchmarkRenderOversizeAnswer measures splitting an answer far beyond one
// message (80 long paragraphs, a 600-row table).
func BenchmarkRenderOversizeAnswer(b *testing.B) {
	a := hugeAnswer()
	for b.Loop() {
		render(a, shown{})
	}
}

// BenchmarkSlashCommandAck measures what Slack waits for: verifying the
// signature, parsing the command and queueing the question, up to the
// "Looking into" reply (the answer itself is not part of it).
func BenchmarkSlashCommandAck(b *testing.B) {
	a, err := New(Config{
		BotToken: NewSecret(testBotToken), SigningSecret: NewSecret(testSecret),
		Handler: newFakeBot(), Store: newMemStore(), Queue: 1 << 20,
	})
	if err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	if err := a.Mount(mux); err != nil {
		b.Fatal(err)
	}
	form := url.Values{"command": {"/oracle"}, "text": {"Is Dragonfly 25x faster than Redis?"}, "channel_id": {"C1"},
		"user_id": {"U1"}, "trigger_id": {"T1"}, "response_url": {"https://hooks.slack.com/commands/T1/1/x"}}.Encode()
	hdr := signed(testSecret, time.Now(), form)
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, CommandsPath, strings.NewReader(form))
		req.Header = hdr.Clone()
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
		<-a.jobs // the worker is not running; keep the queue from filling
	}
}
