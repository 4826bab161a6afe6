package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

var choiceButton = regexp.MustCompile(`<button form="ask" type="submit" name="chip" value="([^"]+)"`)

// clarifyChoiceCases ask an ambiguous question: the answer's buttons are
// its readings, not help's examples; pressing the second (its value
// posted as the chip, in the same conversation) or typing "2" there
// answers the second reading.
func clarifyChoiceCases(t *testing.T, env *bottest.Env) {
	for _, how := range []string{"button", "2"} {
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
