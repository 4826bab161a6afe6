package discord

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// These tests run discordgo's REST code inside a synctest bubble with an
// in-memory transport, so its sleeps use the bubble's fake clock: the
// delays are asserted exactly and the tests take no real time.

func TestA429IsRetriedAfterTheStatedDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fd := newFakeDiscord(t)
		a, err := New(Config{Token: "test-token", AppID: "800", HTTPClient: &http.Client{Transport: inMemory{fd}}},
			newMemoryHandler(nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		fd.failNext(1, isMessagePost("100"), http.StatusTooManyRequests,
			`{"message":"You are being rate limited.","retry_after":1.5,"global":false}`,
			http.Header{"Retry-After": {"2"}, "X-Ratelimit-Scope": {"user"}})

		if err := a.postAnswer(t.Context(), nil, "100", bot.Message{}, bot.Answer{Kind: bot.KindAnswer, Headline: "15.5M ops/s"}, "", nil); err != nil {
			t.Fatalf("postAnswer: %v", err)
		}
		reqs := fd.requests()
		if len(reqs) != 2 || reqs[0].Status != http.StatusTooManyRequests || reqs[1].Status != http.StatusOK {
			t.Fatalf("requests:\n%s\nwant a 429 then a success", fd.summary())
		}
		if gap := reqs[1].At.Sub(reqs[0].At); gap != 1500*time.Millisecond {
			t.Errorf("retried after %v, want the stated 1.5s", gap)
		}
	})
}

func TestAnExhaustedBucketWaitsForItsReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fd := newFakeDiscord(t)
		a, err := New(Config{Token: "test-token", HTTPClient: &http.Client{Transport: inMemory{fd}}}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		// A success that says the bucket is empty for 3 seconds.
		fd.failNext(1, isMessagePost("100"), 0, "", http.Header{
			"X-Ratelimit-Limit": {"5"}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset-After": {"3"},
			"X-Ratelimit-Bucket": {"abc"}})
		if _, err := a.PostTop(t.Context(), "100", "first"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.PostTop(t.Context(), "100", "second"); err != nil {
			t.Fatal(err)
		}
		reqs := fd.requests()
		if len(reqs) != 2 {
			t.Fatalf("requests:\n%s", fd.summary())
		}
		if gap := reqs[1].At.Sub(reqs[0].At); gap != 3*time.Second {
			t.Errorf("second request after %v, want the bucket's 3s reset", gap)
		}
	})
}
