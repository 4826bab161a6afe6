package discord

import (
	"net/http"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// chatterHandler answers "thanks" and "lol" as chatter (the planner's
// chatter intent), anything else with echoAnswer.
func chatterHandler() *memoryHandler {
	return newMemoryHandler(func(m bot.Message, e []string) bot.Answer {
		switch strings.ToLower(m.Text) {
		case "thanks", "lol":
			return bot.Answer{Kind: bot.KindChatter, Headline: "Happy to help."}
		}
		return echoAnswer(m, e)
	})
}

func TestChatterInTheBotsThreadGetsNoReply(t *testing.T) {
	for _, text := range []string{"thanks", "lol", "<@300> what do you think?"} {
		t.Run(text, func(t *testing.T) {
			a, fd := restOnly(t, chatterHandler(), nil)
			fd.addChannel("41", 11, "100", "900") // a thread the bot started
			var mentions []string
			if strings.HasPrefix(text, "<@300>") {
				mentions = []string{"300"}
			}
			a.onMessage(t.Context(), event(t, messageEvent("2001", "41", "700", human, text, mentions...)))
			a.onMessage(t.Context(), event(t, messageEvent("2002", "41", "700", human, "<@900> sentinel", "900")))
			posts := 0
			for _, r := range fd.requests() {
				if isMessagePost("41")(r) {
					posts++
					if !strings.Contains(descriptions(t, r), "sentinel") && !strings.Contains(allEmbedText(t, []*request{r}), "sentinel") {
						t.Errorf("chatter %q got a reply: %s", text, descriptions(t, r))
					}
				}
			}
			if posts == 0 {
				t.Fatal("the sentinel question got no answer")
			}
		})
	}
}

func TestWithoutMessageContentTheFirstAnswerSaysFollowUpsNeedAMention(t *testing.T) {
	a, fd := restOnly(t, newMemoryHandler(echoAnswer), nil)
	a.onMessage(t.Context(), event(t, messageEvent("1001", "100", "700", human, "<@900> how fast is Redis?", "900")))
	first := fd.waitFor(t, "the answer in its thread", isMessagePost("1001"))
	footer := func(r *request) string {
		e := embedsOf(t, r)
		if len(e) == 0 {
			return ""
		}
		ft, _ := e[0]["footer"].(map[string]any)
		s, _ := ft["text"].(string)
		return s
	}
	if c := contentOf(first); c != "" || footer(first) != strings.ReplaceAll(noticeFollowUps, "`", "") {
		t.Errorf("the thread's first answer says %q above it and %q in its footer, want the follow-up notice in the footer only", c, footer(first))
	}
	a.onMessage(t.Context(), event(t, messageEvent("1002", "1001", "700", human, "<@900> and valkey?", "900")))
	second := fd.waitFor(t, "the follow-up answer", isMessagePost("1001"))
	if c := contentOf(second); c != "" || footer(second) != "" {
		t.Errorf("a follow-up repeats the notice: %q %q", c, footer(second))
	}
}

func TestRateLimitedMentionsOpenNoThreadAndAnswerOncePerBurst(t *testing.T) {
	h := newMemoryHandler(func(m bot.Message, _ []string) bot.Answer {
		return bot.Answer{Kind: bot.KindRateLimited, Ephemeral: true, Headline: "You have asked several questions in quick succession. Please wait a moment and ask again."}
	})
	a, fd := restOnly(t, h, nil)
	for i := range 8 {
		id := string(rune('1'+i)) + "000"
		a.onMessage(t.Context(), event(t, messageEvent(id, "100", "700", human, "<@900> again?", "900")))
	}
	threads, notices := 0, 0
	for _, r := range fd.requests() {
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/threads"):
			threads++
		case isMessagePost("100")(r):
			notices++
		}
	}
	if threads != 0 || notices != 1 {
		t.Fatalf("8 rate-limited mentions opened %d threads and got %d notices; want 0 and 1", threads, notices)
	}
}
