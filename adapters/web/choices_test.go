package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

var choiceButton = regexp.MustCompile(`<button form="ask" type="submit" name="chip" value="([^"]+)"`)

// clarifyChoiceCases ask an ambiguous question: the answer's buttons are
// its readings, not help's examples; pressing the second (its value
// posted as the chip, in the same conversation), typing "2" or "the second
// one" there answers the second reading.
func clarifyChoiceCases(t *testing.T, env *bottest.Env) {
	for _, how := range []string{"button", "2", "the second one"} {
		t.Run(how, func(t *testing.T) {
			mux := siteFor(t, env, Options{})
			resp, body := postForm(t, mux, url.Values{"q": {"dragonfly at 16 cores, not read-heavy"}}, false)
			mustStatus(t, resp, http.StatusOK)
			var choices []string
			for _, m := range choiceButton.FindAllStringSubmatch(body, -1) {
				choices = append(choices, m[1])
			}
			if len(choices) != 3 || !strings.Contains(choices[1], "multi-gets") {
				t.Fatalf("clarify buttons %q, want the three readings and no help example", choices)
			}
			conv := hiddenConversation.FindStringSubmatch(body)
			if conv == nil {
				t.Fatal("the clarify page carries no conversation")
			}
			form := url.Values{"c": {conv[1]}, "h": {"dragonfly at 16 cores, not read-heavy"}}
			if how == "button" {
				form.Set("chip", choices[1])
			} else {
				form.Set("q", how)
			}
			resp, body = postForm(t, mux, form, true)
			mustStatus(t, resp, http.StatusOK)
			mustContain(t, body, "Dragonfly: throughput", "MGET")
		})
	}
}

var feedbackForm = regexp.MustCompile(`<form class="feedback" method="post" action="([^"]+)">\s*<input type="hidden" name="a" value="([0-9a-f]{12})"><input type="hidden" name="q" value="([^"]*)"><input type="hidden" name="c" value="([^"]+)">`)

// feedbackCases ask a question on a site that keeps feedback: the answer
// carries 👍/👎; clicking 👍 then 👎 keeps the last click for that
// conversation. A site without a feedback store shows no buttons.
func feedbackCases(t *testing.T, env *bottest.Env) {
	if _, body := postForm(t, siteFor(t, env, Options{}), url.Values{"q": {"redis at 8 cores"}}, false); strings.Contains(body, `class="feedback"`) {
		t.Error("feedback buttons without a store to keep them")
	}
	store := bot.NewFeedbackStore(bottest.NewMemKV(time.Now))
	mux := siteFor(t, env, Options{Feedback: store})
	_, body := postForm(t, mux, url.Values{"q": {"redis at 8 cores"}}, false)
	m := feedbackForm.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the answer has no feedback form: %.2000s", body)
	}
	for _, v := range []string{"up", "down"} {
		r := httptest.NewRequest(http.MethodPost, m[1], strings.NewReader(url.Values{"a": {m[2]}, "q": {m[3]}, "c": {m[4]}, "v": {v}}.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if resp, _ := do(t, mux, r); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("vote %s: status %d", v, resp.StatusCode)
		}
	}
	votes, err := store.List(t.Context())
	if err != nil || len(votes) != 1 || votes[0].Up || votes[0].Question != "redis at 8 cores" || votes[0].Platform != "web" {
		t.Fatalf("votes %+v (%v): want the conversation's last click, 👎", votes, err)
	}
	r := httptest.NewRequest(http.MethodPost, m[1], strings.NewReader(url.Values{"a": {m[2]}, "c": {m[4]}, "v": {"maybe"}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, _ := do(t, mux, r); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a vote neither up nor down: status %d", resp.StatusCode)
	}
}
