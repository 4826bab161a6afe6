package discord

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

// choiceEvent is an INTERACTION_CREATE for a click on a button with
// customID under message in channel (guild 700).
func choiceEvent(id, token, channel, message, customID string) map[string]any {
	return map[string]any{"id": id, "application_id": "800", "type": 3, "token": token, "version": 1,
		"channel_id": channel, "guild_id": "700", "member": map[string]any{"user": human},
		"message": map[string]any{"id": message, "channel_id": channel, "content": "", "type": 0},
		"data":    map[string]any{"custom_id": customID, "component_type": 2}}
}

// buttonsOf are the buttons of a message request: custom_id → label.
func buttonsOf(r *request) map[string]string {
	out := map[string]string{}
	rows, _ := r.JSON["components"].([]any)
	for _, row := range rows {
		kids, _ := row.(map[string]any)["components"].([]any)
		for _, k := range kids {
			b, _ := k.(map[string]any)
			id, _ := b["custom_id"].(string)
			label, _ := b["label"].(string)
			out[id] = label
		}
	}
	return out
}

// TestAClarifyOffersItsChoicesAndAClickOrANumberAsksOne drives the real
// bot through the fake Discord (no message-content intent): an ambiguous
// mention opens a thread whose first message offers the readings as
// buttons (not help's examples); clicking the second, or mentioning the
// bot with "2" or "the second one" there, answers the second reading in
// that thread.
func TestAClarifyOffersItsChoicesAndAClickOrANumberAsksOne(t *testing.T) {
	for _, how := range []string{"click", "2", "the second one"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			env := bottest.NewEnv(t, nil)
			h := startWith(t, env.Bot, nil)
			fd := h.fd
			fd.dispatch("MESSAGE_CREATE", messageEvent("1001", "100", "700", human, "<@900> dragonfly at 16 cores, not read-heavy", "900"))
			clarify := fd.waitFor(t, "the clarify in the thread", isMessagePost("1001"))
			buttons := buttonsOf(clarify)
			second := ""
			for id, label := range buttons {
				if !strings.HasPrefix(id, askPrefix) && !strings.HasPrefix(id, pickPrefix) {
					delete(buttons, id) // the card's own controls
					continue
				}
				if strings.HasPrefix(label, "2. ") {
					second = id
				}
				if strings.Contains(label, "25x") {
					t.Errorf("a clarify button offers help's example %q", label)
				}
			}
			if len(buttons) != 3 || !strings.Contains(buttons[second], "multi-gets") {
				t.Fatalf("clarify buttons %v, want three readings, the second the multi-gets", buttons)
			}
			switch how {
			case "click":
				fd.dispatch("INTERACTION_CREATE", choiceEvent("5001", "tok-1", "1001", "1001", second))
				cb := fd.waitFor(t, "the click acknowledged", is(http.MethodPost, "/interactions/5001/tok-1/callback"))
				if cb.JSON["type"] != float64(6) {
					t.Errorf("callback type %v, want 6 (deferred update)", cb.JSON["type"])
				}
			default:
				fd.dispatch("MESSAGE_CREATE", messageEvent("1002", "1001", "700", human, "<@900> "+how, "900"))
			}
			fd.waitFor(t, "the chosen reading answered in the thread", func(r *request) bool {
				return isMessagePost("1001")(r) && strings.Contains(descriptions(t, r), "Dragonfly: throughput") &&
					strings.Contains(descriptions(t, r), "MGET")
			})
		})
	}
}

// TestAMentionThenTwoAmbiguousQuestionsGetThreeAnswers sends a bare
// mention (help), then two different ambiguous questions within a minute,
// under the default rate limits: each is answered — help in place, each
// clarify in its own thread.
func TestAMentionThenTwoAmbiguousQuestionsGetThreeAnswers(t *testing.T) {
	t.Parallel()
	env := bottest.NewEnv(t, func(c *bot.Config) { c.Limiter = bot.NewLimiter(bot.DefaultLimits(), nil, nil) })
	h := startWith(t, env.Bot, nil)
	fd := h.fd
	fd.dispatch("MESSAGE_CREATE", messageEvent("1001", "100", "700", human, "<@900>", "900"))
	fd.waitFor(t, "help in place", isMessagePost("100"))
	fd.dispatch("MESSAGE_CREATE", messageEvent("1002", "100", "700", human, "<@900> dragonfly at 16 cores, not read-heavy", "900"))
	first := fd.waitFor(t, "the first clarify", isMessagePost("1002"))
	fd.dispatch("MESSAGE_CREATE", messageEvent("1003", "100", "700", human, "<@900> garnet, not read-heavy", "900"))
	second := fd.waitFor(t, "the second clarify", isMessagePost("1003"))
	for _, r := range []*request{first, second} {
		if n := countPrefix(buttonsOf(r), askPrefix); n != 3 {
			t.Errorf("a clarify without its three choices: %v", buttonsOf(r))
		}
	}
}

// TestARepeatedNoticeIsSentOncePerBurst asks for help twice in a row, then
// something else that is also a notice: the same notice to the same words
// is a repeat, sent once; different words get their own.
func TestARepeatedNoticeIsSentOncePerBurst(t *testing.T) {
	t.Parallel()
	mh := newMemoryHandler(func(m bot.Message, _ []string) bot.Answer {
		return bot.Answer{Kind: bot.KindHelp, Ephemeral: true, Headline: "Ask me about " + m.Text}
	})
	a, fd := restOnly(t, mh, nil)
	for i, text := range []string{"<@900> help", "<@900> help", "<@900> what can you do"} {
		a.onMessage(t.Context(), &discordgo.Message{ID: fmt.Sprint(1001 + i), ChannelID: "100", GuildID: "700", Content: text,
			Author: &discordgo.User{ID: "300", Username: "ana"}, Mentions: []*discordgo.User{{ID: "900"}}})
	}
	counts := map[string]int{}
	for _, r := range fd.requests() {
		if isMessagePost("100")(r) {
			for _, q := range []string{"Ask me about help", "Ask me about what can you do"} {
				if strings.Contains(descriptions(t, r), q) {
					counts[q]++
				}
			}
		}
	}
	if counts["Ask me about help"] != 1 || counts["Ask me about what can you do"] != 1 {
		t.Errorf("notices sent %v, want each once", counts)
	}
}

func countPrefix(m map[string]string, prefix string) int {
	n := 0
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			n++
		}
	}
	return n
}

// TestTheCommandSuggestsQuestionsAsTheyAreTyped registers /oracle with
// autocomplete on its question, then types "how does val": Discord gets
// up to 25 suggestions that really work, Valkey's among them.
func TestTheCommandSuggestsQuestionsAsTheyAreTyped(t *testing.T) {
	t.Parallel()
	h := startBot(t, newMemoryHandler(nil), nil)
	fd := h.fd
	reg := fd.requests()
	var cmd *request
	for _, r := range reg {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/commands") {
			cmd = r
		}
	}
	opts, _ := cmd.JSON["options"].([]any)
	if len(opts) != 1 || opts[0].(map[string]any)["autocomplete"] != true {
		t.Fatalf("the question option has no autocomplete: %v", cmd.JSON)
	}
	ev := commandEvent("6001", "tok-ac", "100", "700", ptr("how does val"))
	ev["type"] = 4
	fd.dispatch("INTERACTION_CREATE", ev)
	cb := fd.waitFor(t, "the suggestions", is(http.MethodPost, "/interactions/6001/tok-ac/callback"))
	data, _ := cb.JSON["data"].(map[string]any)
	choices, _ := data["choices"].([]any)
	if cb.JSON["type"] != float64(8) || len(choices) == 0 || len(choices) > 25 {
		t.Fatalf("autocomplete answer %v", cb.JSON)
	}
	found := false
	for _, c := range choices {
		m := c.(map[string]any)
		if n, _ := m["name"].(string); len(n) > 100 || n == "" {
			t.Errorf("a choice name of %d characters", len(n))
		}
		found = found || m["value"] == "How does Valkey scale?"
	}
	if !found {
		t.Errorf("no Valkey question among %v", choices)
	}
	if len(h.h.messages()) != 0 {
		t.Error("typing asked the bot a question")
	}
}

// TestAClarifyThroughTheCommandIsPublicWithItsChoices asks an ambiguous
// question through /oracle with the real bot: the deferred response is
// edited into the clarify with its three choices (not deleted for a
// private note), and a thread is started from it for the pick.
func TestAClarifyThroughTheCommandIsPublicWithItsChoices(t *testing.T) {
	t.Parallel()
	env := bottest.NewEnv(t, nil)
	a, fd := restOnly(t, env.Bot, nil)
	a.onInteraction(t.Context(), interaction(t, fd, "7001", "tok-c", "100", "700", ptr("dragonfly at 16 cores, not read-heavy")))
	var edit *request
	for _, r := range fd.requests() {
		if r.Method == http.MethodPatch && strings.HasSuffix(r.Path, "/@original") {
			edit = r
		}
		if r.Method == http.MethodDelete {
			t.Errorf("the clarify was made private: %s %s", r.Method, r.Path)
		}
	}
	if edit == nil || countPrefix(buttonsOf(edit), askPrefix) != 3 {
		t.Fatalf("the command's clarify does not offer its three choices:\n%s", fd.summary())
	}
}
