package bot_test

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
	"github.com/memdb-oracle/memdb-oracle/bot/compose"
)

// TestClaimCheckAnswersTheNewClaimsVerdictFirst asks the four questions
// users asked about the entries added with structured claims: line 1 is
// the computed verdict (or "not comparable" / "never measured") with the
// figures or the reason, and the claim follows, labelled, with its source.
func TestClaimCheckAnswersTheNewClaimsVerdictFirst(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	for _, tc := range []struct {
		name, question, claim string
		line1                 []string // in the reply's first line
		body                  []string // in the whole answer
	}{
		{"a billion requests a second is a cluster total, not comparable",
			"is valkey 9 really doing a billion requests per second?", "claim:valkey-9-billion-rps",
			[]string{"**Not comparable**", "2,000-node", "Valkey 9 was never run here", "Nearest measured:", "40.2M ops/s (single run)"},
			[]string{"Valkey project's statement (vendor)", "https://valkey.io/blog/1-billion-rps", "run-s1-20260901-083406-valkey-cluster-sat-48c-p16-1-10-d100-rep1"}},
		{"Dragonfly's 4.5× over Valkey holds only in direction against the realistic cluster",
			"dragonfly says 4.5x valkey on gcp — true?", "claim:dragonfly-vs-valkey-gcp",
			[]string{"**Partly**", "Claimed 4.5×", "3.4×", "Valkey Cluster (realistic) 4.5M ops/s — partly", "0.39×", "— no"},
			[]string{"Dragonfly's statement (vendor)", "https://dragonflydb.io/blog/dragonfly-vs-valkey-benchmark-on-google-cloud", "Valkey 8.0.2", "8.1.9"}},
		{"Redis 8.8's gains are refused as never measured",
			"is redis 8.8 68% faster?", "claim:redis-8-8",
			[]string{"**Never measured**", "Redis 8.8 was never run here", "8.2.8", "Nearest measured:", "4.6M ops/s"},
			[]string{"Redis Ltd.'s statement (vendor)", "https://redis.io/blog/announcing-redis-8-8/", "68%"}},
		{"KeyDB's status is stated once and changes no number",
			"is keydb abandoned?", "engine-status:keydb",
			[]string{"**Context only**", "development appears to have stopped", "6.3.4"},
			[]string{"https://github.com/Snapchat/KeyDB/issues/923", "changes none of these numbers", "636K ops/s"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := env.Ask(t, "", tc.question)
			if a.Kind != bot.KindClaim || a.Claim == nil || a.Claim.ID != tc.claim {
				t.Fatalf("kind %s, claim %+v; want the claim answer for %s", a.Kind, a.Claim, tc.claim)
			}
			reply := compose.ReplyMarkdown(bot.Split(a).Reply, "in the thread")
			first, _, _ := strings.Cut(reply, "\n")
			for _, w := range tc.line1 {
				if !strings.Contains(first, w) {
					t.Errorf("line 1 lacks %q: %s", w, first)
				}
			}
			md := bot.Markdown(a)
			for _, w := range tc.body {
				if !strings.Contains(md, w) {
					t.Errorf("answer lacks %q:\n%s", w, md)
				}
			}
		})
	}
}

// TestTheKeyDBEntryMentionsItsStatusOnce checks the engine entry carries
// the status note once, beside its unchanged figures.
func TestTheKeyDBEntryMentionsItsStatusOnce(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	md := bot.Markdown(env.Ask(t, "", "Tell me about KeyDB"))
	if n := strings.Count(md, "development appears to have stopped"); n != 1 {
		t.Errorf("the KeyDB entry says its status %d times, want once:\n%s", n, md)
	}
	if !strings.Contains(md, "636K ops/s") {
		t.Errorf("the KeyDB entry lost its measured headline:\n%s", md)
	}
}
