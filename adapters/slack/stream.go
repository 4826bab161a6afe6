package slack

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// In an assistant thread the answer streams (chat.startStream,
// chat.appendStream, chat.stopStream): while it is worked on, a task card
// for each stage the bot really goes through — reading the question,
// running the filter over the measured runs, composing — and, when it is
// done, the card itself (body, Show evidence, feedback) ends the stream.
// A workspace that refuses streaming gets the ordinary post; a stream
// that breaks halfway is ended as well as it can be and the card is
// posted instead, so the answer always arrives.

// Task ids and titles of the streamed answer, one per bot.Stage.
var streamTasks = map[bot.Stage]string{
	bot.StageRead:    "Reading the question",
	bot.StageFilter:  "Running the filter over the measured runs",
	bot.StageCompose: "Composing the answer (medians across repetitions)",
}

// streamSources is how many run IDs the filter's task card links.
const streamSources = runIDsShown

// answerStream is one answer streaming into an assistant thread.
type answerStream struct {
	a       *Adapter
	channel string
	ts      string // the streamed message
	// failed is the first append that failed: nothing more is appended,
	// the stop still ends the stream.
	failed error
	// filters counts the filters the bot ran, for the filter's last card.
	filters int
	seen    map[bot.Stage]bool
}

// answerStreamed answers a question in an assistant thread, streaming
// its stages and then its card; where Slack refuses to stream it answers
// with the ordinary post.
func (a *Adapter) answerStreamed(ctx context.Context, p place, text string) error {
	p.question = text
	st, err := a.startStream(ctx, p)
	if err != nil {
		a.log.Info("Slack refused to stream the answer; posting it", "channel", p.channel, "err", err)
		return a.deliver(ctx, p, a.cfg.Handler.Handle(ctx, botMessage(p, text)))
	}
	ans := a.cfg.Handler.Handle(bot.WithProgress(ctx, func(s bot.Step) { st.step(ctx, s) }), botMessage(p, text))
	return a.deliverStreamed(ctx, p, ans, st)
}

// startStream opens the streamed message in p's thread with the first
// stage in progress.
func (a *Adapter) startStream(ctx context.Context, p place) (*answerStream, error) {
	st := &answerStream{a: a, channel: p.channel, seen: map[bot.Stage]bool{bot.StageRead: true}}
	opts := []slackgo.MsgOption{
		slackgo.MsgOptionTS(p.thread),
		slackgo.MsgOptionTaskDisplayMode(slackgo.TaskDisplayModeTimeline),
		slackgo.MsgOptionChunks(task(bot.StageRead, slackgo.TaskCardStatusInProgress)),
	}
	if p.user != "" {
		opts = append(opts, slackgo.MsgOptionRecipientUserID(p.user))
	}
	unlock := a.out.lanes.lock(p.channel)
	defer unlock()
	err := a.out.retry(ctx, "chat.startStream", p.channel, func(ctx context.Context) error {
		var err error
		_, st.ts, err = a.api.StartStreamContext(ctx, p.channel, opts...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// task is a task card of a stage with a status.
func task(s bot.Stage, status slackgo.TaskCardStatus) slackgo.TaskUpdateChunk {
	t := slackgo.NewTaskUpdateChunk(string(s), streamTasks[s])
	t.Status = status
	return t
}

// step appends a stage's change to the stream: a card in progress when a
// stage starts, complete (or error) with what it did when it is done.
func (st *answerStream) step(ctx context.Context, s bot.Step) {
	t := task(s.Stage, slackgo.TaskCardStatusInProgress)
	switch {
	case !s.Done && st.seen[s.Stage]:
		return // already shown in progress (reading, from the start)
	case !s.Done:
		t.Details = s.Filter
	case s.Failed:
		t.Status = slackgo.TaskCardStatusError
	case s.Cached:
		t.Status = slackgo.TaskCardStatusComplete
		t.Output = "Asked before: the answer composed then, over the same measured runs."
	default:
		t.Status = slackgo.TaskCardStatusComplete
		t.Output = s.Reading
	}
	if s.Stage == bot.StageFilter && s.Done {
		st.filters = s.Filters
		t.Output = counted(s.Filters, "filter", "filters") + " ran."
	}
	st.seen[s.Stage] = true
	st.append(ctx, t)
}

// streamAppendTimeout bounds one append: the bot waits for it, and its
// answer's deadline must not go on a slow task card.
const streamAppendTimeout = 2 * time.Second

// append sends chunks to the stream, once: a failed or slow append is
// logged and ends appending (the task cards are the answer's frame, not
// its content).
func (st *answerStream) append(ctx context.Context, chunks ...slackgo.StreamChunk) {
	if st.failed != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, streamAppendTimeout)
	defer cancel()
	if _, _, err := st.a.api.AppendStreamContext(ctx, st.channel, st.ts, slackgo.MsgOptionChunks(chunks...)); err != nil {
		st.failed = fmt.Errorf("chat.appendStream: %w", err)
		st.a.log.Warn("the streamed answer's progress stopped; the answer still follows", "channel", st.channel, "err", err)
	}
}

// final is the last update of every stage shown: complete, or error for
// an answer that is an error, and the filter's card with the runs behind
// the answer as its sources (links with a public URL).
func (st *answerStream) final(ans bot.Answer) []slackgo.StreamChunk {
	status := slackgo.TaskCardStatusComplete
	if ans.Kind == bot.KindError || ans.Kind == bot.KindRateLimited {
		status = slackgo.TaskCardStatusError
	}
	var out []slackgo.StreamChunk
	for _, s := range []bot.Stage{bot.StageRead, bot.StageFilter, bot.StageCompose} {
		if !st.seen[s] {
			continue
		}
		t := task(s, status)
		if s == bot.StageFilter {
			t.Output, t.Sources = st.filterOutcome(ans.Sources.RunIDs)
		}
		out = append(out, t)
	}
	return out
}

// filterOutcome says what the filters found and links the first runs.
func (st *answerStream) filterOutcome(runIDs []string) (string, []slackgo.TaskCardSource) {
	out := counted(st.filters, "filter", "filters") + " ran; the answer rests on " + counted(len(runIDs), "measured run", "measured runs")
	web := strings.TrimRight(st.a.cfg.PublicURL, "/")
	if web == "" || len(runIDs) == 0 {
		return out + ". Their run IDs are under Show evidence.", nil
	}
	var sources []slackgo.TaskCardSource
	for _, id := range runIDs[:min(len(runIDs), streamSources)] {
		sources = append(sources, slackgo.NewTaskCardSource(web+"/runs/"+id, id))
	}
	if more := len(runIDs) - len(sources); more > 0 {
		out += fmt.Sprintf(" (the first %d linked; all under Show evidence)", len(sources))
	}
	return out + ".", sources
}

// stop ends the stream with the stages' last updates and, when m is not
// nil, the card as the message's blocks: each older form of the card in
// turn when Slack refuses its newer blocks. It returns the form that went.
func (st *answerStream) stop(ctx context.Context, ans bot.Answer, m *message) (message, error) {
	chunks := slackgo.MsgOptionChunks(st.final(ans)...)
	if m == nil {
		return message{}, st.a.out.retry(ctx, "chat.stopStream", st.channel, func(ctx context.Context) error {
			_, _, err := st.a.api.StopStreamContext(ctx, st.channel, st.ts, chunks)
			return err
		})
	}
	forms := append([]message{*m}, m.Older...)
	var err error
	for _, f := range forms {
		err = st.a.out.retry(ctx, "chat.stopStream", st.channel, func(ctx context.Context) error {
			_, _, err := st.a.api.StopStreamContext(ctx, st.channel, st.ts, chunks, slackgo.MsgOptionBlocks(f.Blocks...))
			return err
		})
		if err == nil {
			return f, nil
		}
		if !slackRefused(err, "invalid_blocks") {
			break
		}
		st.a.log.Info("Slack refused the card's newer blocks at the stream's end; ending it with fewer", "channel", st.channel, "err", err)
	}
	return message{}, err
}

// counted writes a count with its noun.
func counted(n int, one, many string) string { return strconv.Itoa(n) + " " + plural(n, one, many) }
