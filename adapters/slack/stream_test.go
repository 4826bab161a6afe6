package slack

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/bot/bottest"
)

const assistantThread = "1700000001.000100"

// askInAssistantThread sends a question in the assistant thread of DM D1.
func askInAssistantThread(h *harness, eventID, question string) {
	h.event(messageEvent(eventID, "D1", "im", "U1", "1700000002.000100", assistantThread, question, ""))
}

// chunksOf decodes the chunks a streaming call sent.
func chunksOf(t *testing.T, c call) []map[string]any {
	t.Helper()
	var chunks []map[string]any
	if raw := c.Form.Get("chunks"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &chunks); err != nil {
			t.Fatalf("%s: chunks not JSON: %v", c.Method, err)
		}
	}
	return chunks
}

// TestAnAssistantThreadStreamsTheStagesThenTheCard asks in an assistant
// thread: the answer streams there as task cards for the stages the bot
// goes through — reading, the filter (verbatim), composing — and ends as
// the card, with its evidence button and feedback, in the same message;
// the filter's card links the runs behind the answer. Show evidence then
// works on the streamed message as on a posted one.
func TestAnAssistantThreadStreamsTheStagesThenTheCard(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	fs := newFakeSlack(t)
	h := newHarness(t, fs, newMemStore(), env.Bot, func(c *Config) { c.PublicURL = "https://oracle.example.com" })
	askInAssistantThread(h, "EvS1", "Dragonfly at 8 cores")
	stop := fs.waitFor("chat.stopStream", "chat.stopStream (refused)", "chat.postMessage")
	if stop.Method != "chat.stopStream" {
		t.Fatalf("the answer ended with %s, want the stream's stop", stop.Method)
	}
	start := fs.callsOf("chat.startStream")
	if len(start) != 1 || start[0].Form.Get("thread_ts") != assistantThread || start[0].Form.Get("recipient_user_id") != "U1" ||
		start[0].Form.Get("task_display_mode") != "timeline" || start[0].TS != stop.Form.Get("ts") {
		t.Fatalf("start %+v, stop ts %s", start, stop.Form.Get("ts"))
	}
	if posts := fs.callsOf("chat.postMessage"); len(posts) != 0 {
		t.Errorf("the answer was also posted: %d messages", len(posts))
	}
	// The stages, as they were appended: each starts before it is done.
	var progress []string
	for _, c := range append(append([]call{start[0]}, fs.callsOf("chat.appendStream")...), stop) {
		for _, ch := range chunksOf(t, c) {
			progress = append(progress, ch["id"].(string)+" "+ch["status"].(string))
			if ch["id"] == "filter" && ch["status"] == "in_progress" && !strings.Contains(ch["details"].(string), `engine == "dragonfly"`) {
				t.Errorf("the filter's card does not show the filter verbatim: %v", ch["details"])
			}
		}
	}
	want := "read in_progress, read complete, filter in_progress, compose in_progress, filter complete, compose complete"
	if got := strings.Join(progress, ", "); !strings.HasPrefix(got, want) {
		t.Errorf("stages streamed:\n%s\nwant them to start:\n%s", got, want)
	}
	st, _ := fs.streamOf(stop.Form.Get("ts"))
	if st.open || strings.Join(st.order, ",") != "read,filter,compose" {
		t.Errorf("stream open %v with tasks %v", st.open, st.order)
	}
	for id, status := range st.tasks {
		if status != "complete" {
			t.Errorf("task %s ended %s", id, status)
		}
	}
	// The filter's last card: the runs behind the answer, linked.
	var filterCard map[string]any
	for _, ch := range chunksOf(t, stop) {
		if ch["id"] == "filter" {
			filterCard = ch
		}
	}
	srcs, _ := filterCard["sources"].([]any)
	if len(srcs) == 0 || !strings.HasPrefix(srcs[0].(map[string]any)["url"].(string), "https://oracle.example.com/runs/run-") ||
		!strings.Contains(filterCard["output"].(string), "measured run") {
		t.Errorf("the filter's last card %v", filterCard)
	}
	// The card ends the stream: body, Show evidence, feedback.
	a := env.Ask(t, "", "Dragonfly at 8 cores")
	stop.Form.Set("thread_ts", assistantThread)
	stop.Form.Set("channel", "D1")
	checkSlackReply(t, a, stop)
	checkCardControls(t, a, stop)
	if !strings.Contains(stop.textOf(t), "Dragonfly") {
		t.Errorf("the card does not answer: %s", stop.textOf(t))
	}
	h.showEvidence(stop, "U1")
	ev := fs.waitEvidence()
	for _, c := range ev {
		if c.Form.Get("thread_ts") != assistantThread {
			t.Errorf("evidence left the assistant thread: %v", c.Form)
		}
	}
	if !strings.Contains(textOfAll(t, ev), "run-s1-") {
		t.Errorf("the evidence lacks the run IDs:\n%s", textOfAll(t, ev))
	}
}

// TestAStreamSlackRefusesFallsBackToThePost checks that the answer arrives
// whatever part of streaming Slack refuses: the start (a workspace that
// cannot stream: the ordinary post), the end (the card is posted after
// the task cards), or the card's newer blocks at the end (an older form
// ends the stream).
func TestAStreamSlackRefusesFallsBackToThePost(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(*fakeSlack)
		ending string // the call that carries the card
		body   string // the block holding the card's lead
	}{
		{"an app that cannot stream posts the card", func(f *fakeSlack) { f.streamRefusal = "not_allowed" }, "chat.postMessage", "markdown"},
		{"a Slack without the methods posts the card", func(f *fakeSlack) { f.streamRefusal = "unknown_method" }, "chat.postMessage", "markdown"},
		{"a stream that cannot be ended posts the card", func(f *fakeSlack) {
			f.failNext("chat.stopStream", failure{slackErr: "message_not_in_streaming_state"})
		}, "chat.postMessage", "markdown"},
		{"a workspace without markdown blocks ends the stream with a section", func(f *fakeSlack) { f.noMarkdown = true }, "chat.stopStream", "section"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fs := newFakeSlack(t)
			tc.setup(fs)
			h := newHarness(t, fs, newMemStore(), newFakeBot())
			askInAssistantThread(h, "EvF1", "Dragonfly at 8 cores")
			card := fs.waitFor("chat.postMessage", "chat.stopStream")
			if card.Method != tc.ending {
				t.Fatalf("the card went by %s, want %s", card.Method, tc.ending)
			}
			if card.Method == "chat.postMessage" && card.Form.Get("thread_ts") != assistantThread {
				t.Errorf("the posted card left the assistant thread: %v", card.Form)
			}
			if !strings.Contains(card.textOf(t), "Answer to: Dragonfly at 8 cores") {
				t.Errorf("the card lacks the answer: %s", card.textOf(t))
			}
			if got := cardBody(t, card); got != tc.body {
				t.Errorf("the card's body went as %s, want %s", got, tc.body)
			}
		})
	}
}

// TestAnErrorAnswerEndsTheStreamWithItsStagesFailed checks that an answer
// that is an error ends the stream (its stages marked as failed) and goes
// to the asker as errors always do.
func TestAnErrorAnswerEndsTheStreamWithItsStagesFailed(t *testing.T) {
	fs := newFakeSlack(t)
	fb := newFakeBot()
	fb.answer = func(bot.Message) bot.Answer {
		return bot.Answer{Kind: bot.KindError, Ephemeral: true, Headline: "The store could not be read."}
	}
	h := newHarness(t, fs, newMemStore(), fb)
	askInAssistantThread(h, "EvE1", "Dragonfly at 8 cores")
	stop := fs.waitFor("chat.stopStream")
	st, _ := fs.streamOf(stop.Form.Get("ts"))
	if st.open || st.tasks["read"] != "error" || stop.Form.Get("blocks") != "" {
		t.Errorf("stream open %v, tasks %v, blocks %q", st.open, st.tasks, stop.Form.Get("blocks"))
	}
	if note := fs.waitFor("chat.postEphemeral"); !strings.Contains(note.textOf(t), "could not be read") {
		t.Errorf("the asker was told %s", note.textOf(t))
	}
}

// TestTheFakeRefusesStreamsSlackRefuses checks the fake's rules, so the
// tests above prove something: a stream outside a thread, a task card
// without a title, an append to a stopped stream, an unknown chunk.
func TestTheFakeRefusesStreamsSlackRefuses(t *testing.T) {
	fs := newFakeSlack(t)
	post := func(method string, form url.Values) string {
		t.Helper()
		form.Set("token", testBotToken)
		resp, err := fs.srv.Client().PostForm(fs.apiURL()+method, form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct {
			OK    bool   `json:"ok"`
			Error string `json:"error"`
			TS    string `json:"ts"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		if r.OK {
			return "ok " + r.TS
		}
		return r.Error
	}
	task := `[{"type":"task_update","id":"read","title":"Reading the question","status":"in_progress"}]`
	started := post("chat.startStream", url.Values{"channel": {"D1"}, "thread_ts": {assistantThread}, "chunks": {task}})
	ts, ok := strings.CutPrefix(started, "ok ")
	if !ok {
		t.Fatalf("a valid start was refused: %s", started)
	}
	tests := []struct {
		name, method string
		form         url.Values
		want         string
	}{
		{"a stream outside a thread", "chat.startStream", url.Values{"channel": {"D1"}}, "invalid_arguments"},
		{"a channel stream without its recipient", "chat.startStream", url.Values{"channel": {"C1"}, "thread_ts": {assistantThread}}, "invalid_arguments"},
		{"a task card without a title", "chat.appendStream", url.Values{"channel": {"D1"}, "ts": {ts}, "chunks": {`[{"type":"task_update","id":"x"}]`}}, "invalid_chunks"},
		{"a task card with an unknown status", "chat.appendStream", url.Values{"channel": {"D1"}, "ts": {ts}, "chunks": {`[{"type":"task_update","id":"x","title":"X","status":"done"}]`}}, "invalid_chunks"},
		{"a source that is not a link", "chat.appendStream", url.Values{"channel": {"D1"}, "ts": {ts}, "chunks": {`[{"type":"task_update","id":"x","title":"X","sources":[{"type":"url","url":"run-1","text":"run-1"}]}]`}}, "invalid_chunks"},
		{"an unknown chunk", "chat.appendStream", url.Values{"channel": {"D1"}, "ts": {ts}, "chunks": {`[{"type":"thinking","text":"x"}]`}}, "invalid_chunks"},
		{"an append with nothing", "chat.appendStream", url.Values{"channel": {"D1"}, "ts": {ts}}, "invalid_arguments"},
		{"an append to another message", "chat.appendStream", url.Values{"channel": {"D1"}, "ts": {"1.2"}, "markdown_text": {"x"}}, "message_not_found"},
		{"a stop with blocks Slack refuses", "chat.stopStream", url.Values{"channel": {"D1"}, "ts": {ts}, "blocks": {`[{"type":"markdown","text":""}]`}}, "invalid_blocks"},
		{"a valid stop", "chat.stopStream", url.Values{"channel": {"D1"}, "ts": {ts}, "chunks": {strings.Replace(task, "in_progress", "complete", 1)}}, "ok " + ts},
		{"an append after the stop", "chat.appendStream", url.Values{"channel": {"D1"}, "ts": {ts}, "markdown_text": {"x"}}, "message_not_in_streaming_state"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := post(tc.method, tc.form); got != tc.want {
				t.Errorf("%s: %s, want %s", tc.method, got, tc.want)
			}
		})
	}
}

// TestAFailedTaskCardStopsTheProgressNotTheAnswer fails the first append:
// no more task cards are sent, and the stream still ends as the card.
func TestAFailedTaskCardStopsTheProgressNotTheAnswer(t *testing.T) {
	env := bottest.NewEnv(t, nil)
	fs := newFakeSlack(t)
	fs.failNext("chat.appendStream", failure{slackErr: "message_not_in_streaming_state"})
	h := newHarness(t, fs, newMemStore(), env.Bot)
	askInAssistantThread(h, "EvT1", "Valkey at 16 cores")
	stop := fs.waitFor("chat.stopStream", "chat.postMessage")
	if stop.Method != "chat.stopStream" || !strings.Contains(stop.textOf(t), "Valkey") {
		t.Fatalf("the answer ended with %s: %s", stop.Method, stop.textOf(t))
	}
	if n, failed := len(fs.callsOf("chat.appendStream")), len(fs.callsOf("chat.appendStream (failed)")); n != 0 || failed != 1 {
		t.Errorf("%d appends after the failed one (%d failed), want none", n, failed)
	}
}

// TestAStreamedAnswerIsJournaledLikeAPostedOne answers in an assistant
// thread with the journal on: the stream's end is the card's post, so the
// entry is finished (nothing left for a restart to post again).
func TestAStreamedAnswerIsJournaledLikeAPostedOne(t *testing.T) {
	fs := newFakeSlack(t)
	journal := bot.NewJournal(bot.JournalConfig{KV: bot.NewMemoryKV(time.Now), Holder: "test", Exclusive: true})
	h := newHarness(t, fs, newMemStore(), newFakeBot(), func(c *Config) { c.Journal = journal })
	askInAssistantThread(h, "EvJ1", "Dragonfly at 8 cores")
	stop := fs.waitFor("chat.stopStream", "chat.postMessage")
	if stop.Method != "chat.stopStream" {
		t.Fatalf("the card went by %s", stop.Method)
	}
	h.stop()
	left, err := journal.Unfinished(t.Context(), journalPrefix)
	if err != nil || len(left) != 0 {
		t.Errorf("unfinished journal entries %v (%v)", left, err)
	}
	if n := len(fs.callsOf("chat.postMessage")); n != 0 {
		t.Errorf("%d posts besides the stream", n)
	}
}
