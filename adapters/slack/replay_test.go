package slack

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

func TestAReplayedSlashCommandIsAnsweredOnce(t *testing.T) {
	fs := newFakeSlack(t)
	store := newMemStore()
	fb := newFakeBot()
	h := newHarness(t, fs, store, fb)
	form := url.Values{
		"command": {"/oracle"}, "text": {"Dragonfly at 8 cores"}, "channel_id": {"C1"}, "user_id": {"U1"},
		"team_id": {"T1"}, "trigger_id": {"T1"}, "response_url": {fs.responseURL("T1")},
	}.Encode()
	hdr := signed(testSecret, time.Now(), form)
	for range 2 { // the same signed request twice, as a replay within Slack's five minutes
		if resp := h.send(CommandsPath, "application/x-www-form-urlencoded", form, hdr); resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	// A second replica on the same store gets the same bytes too.
	other := newHarness(t, fs, store, fb)
	other.send(CommandsPath, "application/x-www-form-urlencoded", form, hdr)
	h.command("C1", "U1", "sentinel", "T2") // a fresh command: answered
	fs.waitAnswer()
	fs.waitAnswer()
	var texts []string
	for _, m := range fb.messages() {
		texts = append(texts, m.Text)
	}
	if strings.Join(texts, "|") != "Dragonfly at 8 cores|sentinel" {
		t.Fatalf("bot asked %q; the replay must be answered once", texts)
	}
	if !strings.Contains(h.logs.String()+other.logs.String(), "replayed slash command ignored") {
		t.Error("the replay was not logged")
	}
}

func TestAPanicWhileAnsweringTellsTheAskerTheReferenceAndTheWorkerGoesOn(t *testing.T) {
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), panickingRender{newFakeBot()})
	h.event(mentionEvent("EvBoom", "C1", "U1", "1700000001.000100", "", "<@UBOT> explode please"))
	eph := fs.waitFor("chat.postEphemeral")
	if eph.Form.Get("user") != "U1" || !strings.Contains(eph.textOf(t), "Something went wrong while answering, ref ") {
		t.Fatalf("the asker was not told: %v", eph.Form)
	}
	ref := between(eph.textOf(t), "ref ", ".")
	if ref == "" || !strings.Contains(h.logs.String(), "ref="+ref) || !strings.Contains(h.logs.String(), "panic while answering") {
		t.Fatalf("ref %q not in the log:\n%s", ref, h.logs.String())
	}
	h.event(mentionEvent("EvNext", "C1", "U1", "1700000002.000100", "", "<@UBOT> Dragonfly at 8 cores"))
	if top := fs.waitFor("chat.postMessage"); top.Form.Get("channel") != "C1" {
		t.Fatalf("the next question in the lane was not answered: %v", top.Form)
	}
}

// panickingRender panics for questions containing "explode", as a bug in
// the answering path would.
type panickingRender struct{ *fakeBot }

func (p panickingRender) Handle(ctx context.Context, m bot.Message) bot.Answer {
	if strings.Contains(m.Text, "explode") {
		panic("renderer bug")
	}
	return p.fakeBot.Handle(ctx, m)
}

func between(s, from, to string) string {
	_, rest, ok := strings.Cut(s, from)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, to)
	return v
}
