package slack

import (
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// TestACardsEvidenceAndFeedbackAreClicks posts an answer's card, clicks
// Show evidence twice (the evidence comes once, in the card's thread),
// and clicks 👍 then 👎 as one user and 👍 as another: the store keeps the
// last click of each, with the question and how it was read.
func TestACardsEvidenceAndFeedbackAreClicks(t *testing.T) {
	fs := newFakeSlack(t)
	store := newMemStore()
	h := newHarness(t, fs, store, newFakeBot(), func(c *Config) { c.PublicURL = "https://oracle.example.com/" })
	h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> Is Dragonfly 25x faster than Redis?"))
	card := fs.waitAnswer()[0]
	if !strings.Contains(card.Form.Get("blocks"), `"url":"https://oracle.example.com/?q=Is+Dragonfly+25x+faster+than+Redis%3F"`) {
		t.Errorf("the card does not open its question on the web: %s", card.Form.Get("blocks"))
	}
	h.showEvidence(card, "U2")
	evidence := fs.waitEvidence()
	text := textOfAll(t, evidence)
	if !strings.Contains(text, "<https://oracle.example.com/runs/") || !strings.Contains(text, "<https://oracle.example.com/runs?filter=") {
		t.Errorf("run IDs and filters are not links to the web pages:\n%s", text)
	}
	h.showEvidence(card, "U3")
	value := cardButtonValue(t, card, feedbackAction)
	id := strings.TrimPrefix(value, voteUp)
	h.clickCard(card, "U2", feedbackAction, "feedback_buttons", voteUp+id)
	h.clickCard(card, "U2", feedbackAction, "feedback_buttons", voteDown+id)
	h.clickCard(card, "U3", feedbackAction, "feedback_buttons", voteUp+id)
	// The 👎 is acknowledged to its author alone; a sentinel question then
	// shows the worker has handled every click before it.
	thanks := fs.waitFor("response_url", "chat.postEphemeral")
	if !strings.Contains(thanks.textOf(t), "noted") {
		t.Errorf("the 👎 was not acknowledged: %s", thanks.textOf(t))
	}
	h.event(mentionEvent("EvS", "C1", "U1", "1700000050.000100", "", "<@UBOT> sentinel"))
	for c := fs.waitFor("chat.postMessage"); !strings.Contains(c.textOf(t), "sentinel"); c = fs.waitFor("chat.postMessage") {
		if c.Form.Get("thread_ts") == card.TS {
			t.Errorf("a second click posted the evidence again")
		}
	}
	votes, err := bot.NewFeedbackStore(store).List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, v := range votes {
		got[v.User] = v.Up
		if v.Question != "Is Dragonfly 25x faster than Redis?" || v.AnswerID != id || v.Platform != "slack" {
			t.Errorf("vote %+v lacks its question or answer", v)
		}
	}
	if len(votes) != 2 || got["U2"] || !got["U3"] {
		t.Errorf("votes %+v: want U2's last click 👎 and U3's 👍", votes)
	}
}

// TestMeasuredRowsAreASortableDataTableOrMonospaceWhereRefused shows the
// evidence of an answer with measured rows: Slack gets a data_table whose
// figures are numeric cells; a workspace that refuses the block gets the
// same rows as a monospace table.
func TestMeasuredRowsAreASortableDataTableOrMonospaceWhereRefused(t *testing.T) {
	for _, refused := range []bool{false, true} {
		fs := newFakeSlack(t)
		fs.noTables = refused
		a := claimAnswer()
		a.Table = nil
		fb := newFakeBot()
		fb.answer = func(bot.Message) bot.Answer { return a }
		h := newHarness(t, fs, newMemStore(), fb)
		h.event(mentionEvent("Ev1", "C1", "U1", "1700000001.000100", "", "<@UBOT> Dragonfly vs Redis"))
		h.showEvidence(fs.waitAnswer()[0], "U1")
		blocks := ""
		for _, c := range fs.waitEvidence() {
			blocks += c.Form.Get("blocks")
		}
		native := strings.Contains(blocks, `"type":"data_table"`) && strings.Contains(blocks, `"type":"raw_number","value":15473658.395,"text":"15.5M"`)
		mono := strings.Contains(blocks, "```") && strings.Contains(blocks, "15.5M")
		if refused && (native || !mono) || !refused && !native {
			t.Errorf("refused=%v: native %v, monospace %v:\n%s", refused, native, mono, blocks)
		}
	}
}
