package slack

import (
	"context"
	"encoding/json"
	"fmt"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// An answer is posted through the journal (bot.Journal): before its first
// post the job (where it goes, its card, its chart) is recorded under the
// delivery's key, each post is marked with its timestamp once Slack has
// it, and a process that dies between two posts leaves the job for the
// next run — this process after a restart, or another replica — to
// complete, posting only what is missing. The same key de-duplicates the
// delivery: a Slack retry of an event already answered is ignored, one
// of an event whose answer was cut short completes it, and one of an
// event whose receiver died before answering is answered.

// journalPrefix starts the key of every delivery in the journal.
const journalPrefix = "slack/job/"

// Kinds of a job's posts.
const (
	postCard  = "card"
	postChart = "chart"
)

// deliveryOf records one delivery of kind ("event", "command", "action")
// in the journal and says what to do with it (bot.Journal.Deliver).
func (a *Adapter) deliveryOf(ctx context.Context, kind, id string) bot.Delivery {
	if a.journal == nil || id == "" {
		return bot.Delivery{Answer: a.firstTime(ctx, kind, id)}
	}
	return a.journal.Deliver(ctx, journalPrefix+kind+"/"+id, eventTTL)
}

// queueDelivery queues what a delivery needs: the answer (run, given the
// journal entry to post through), or the completion of its half-posted
// answer, or nothing. The entry is settled when the job ends; a question
// the queue has no room for is forgotten, so a retry may bring it again.
func (a *Adapter) queueDelivery(what string, d bot.Delivery, at place, question string, run func(ctx context.Context, at place) error) error {
	at.hold = d.Hold
	var work func(context.Context) error
	switch {
	case d.Resume != nil:
		work = func(ctx context.Context) error { return a.complete(ctx, d.Hold, d.Resume) }
	case d.Answer:
		work = func(ctx context.Context) error {
			defer d.Hold.Settle(ctx)
			return run(ctx, at)
		}
	default:
		return nil
	}
	err := a.enqueue(job{lane: at.channel, what: what, user: at.user, question: question, at: at, run: work})
	if err != nil {
		d.Hold.Forget(context.Background())
	}
	return err
}

// resumeJobs completes, now and then every journal Stale until ctx ends,
// the answers a stopped run left half-posted.
func (a *Adapter) resumeJobs(ctx context.Context) {
	if a.journal == nil {
		return
	}
	a.journal.ResumeEvery(ctx, journalPrefix, eventTTL, func(ctx context.Context, job *bot.PostJob, i int) (string, error) {
		unlock := a.out.lanes.lock(job.Channel)
		defer unlock()
		return a.postJob(ctx, job, i)
	})
}

// complete posts what a claimed job is missing.
func (a *Adapter) complete(ctx context.Context, h *bot.Hold, job *bot.PostJob) error {
	unlock := a.out.lanes.lock(job.Channel)
	defer unlock()
	if err := h.Post(ctx, job, a.postJob); err != nil {
		return fmt.Errorf("completing a half-posted answer: %w", err)
	}
	a.log.Info("completed a half-posted answer", "channel", job.Channel, "entry", h.Key())
	return nil
}

// answerJob is the job an answer's card (and its chart, drawn after the
// card unless the card shows it) posts.
func answerJob(p place, m message, chart *bot.Chart) (*bot.PostJob, error) {
	card, err := json.Marshal(journalMessageOf(m))
	if err != nil {
		return nil, fmt.Errorf("recording the card: %w", err)
	}
	job := &bot.PostJob{Channel: p.channel, Thread: p.thread, Conversation: p.conversation,
		Posts: []bot.JobPost{{Kind: postCard, Body: card}}}
	if chart != nil {
		body, err := json.Marshal(chart)
		if err != nil {
			return nil, fmt.Errorf("recording the chart: %w", err)
		}
		job.Posts = append(job.Posts, bot.JobPost{Kind: postChart, Body: body})
	}
	return job, nil
}

// postJob posts job.Posts[i]: the card (without its chart block where
// Slack refuses the block, the chart then following as an image), or the
// chart into the card's thread. A chart that fails costs only the picture.
func (a *Adapter) postJob(ctx context.Context, job *bot.PostJob, i int) (string, error) {
	p := job.Posts[i]
	switch p.Kind {
	case postCard:
		var jm journalMessage
		if err := json.Unmarshal(p.Body, &jm); err != nil {
			return "", fmt.Errorf("reading the journal's card: %w", err)
		}
		ts, posted, err := a.postCard(ctx, job.Channel, job.Thread, jm.message())
		if err != nil {
			return "", err
		}
		a.cardPosted(ctx, job, i, ts, posted)
		return ts, nil
	case postChart:
		var c bot.Chart
		if err := json.Unmarshal(p.Body, &c); err != nil {
			return "", fmt.Errorf("reading the journal's chart: %w", err)
		}
		if a.cfg.Charts != nil {
			a.postChart(ctx, job.Channel, threadOf(job, job.Posts[0].Ref), c)
		}
		return "", nil
	}
	return "", fmt.Errorf("a journal post of unknown kind %q", p.Kind)
}

// cardPosted notes a job's card posted as ts (the form posted, which may
// be an older one): the thread the bot answers in, and the chart as done
// when the card shows it.
func (a *Adapter) cardPosted(ctx context.Context, job *bot.PostJob, i int, ts string, posted message) {
	a.markThread(ctx, job.Channel, threadOf(job, ts), job.Conversation)
	for k := i + 1; hasChartBlock(posted) && k < len(job.Posts); k++ {
		if job.Posts[k].Kind == postChart {
			job.Posts[k].Done, job.Posts[k].Ref = true, "in the card"
		}
	}
}

// threadOf is the thread an answer lives in: the one asked in, else the
// card's own.
func threadOf(job *bot.PostJob, cardTS string) string {
	if job.Thread != "" {
		return job.Thread
	}
	return cardTS
}

// journalMessage is a message as the journal keeps it: the blocks as
// Slack receives them, read back by slack-go's block decoder.
type journalMessage struct {
	Text   string           `json:"text"`
	Blocks slackgo.Blocks   `json:"blocks"`
	Plain  []journalMessage `json:"plain,omitempty"`
	Older  []journalMessage `json:"older,omitempty"`
}

func journalMessageOf(m message) journalMessage {
	jm := journalMessage{Text: m.Text, Blocks: slackgo.Blocks{BlockSet: m.Blocks}}
	for _, p := range m.Plain {
		jm.Plain = append(jm.Plain, journalMessageOf(p))
	}
	for _, o := range m.Older {
		jm.Older = append(jm.Older, journalMessageOf(o))
	}
	return jm
}

func (jm journalMessage) message() message {
	m := message{Text: jm.Text, Blocks: jm.Blocks.BlockSet}
	for _, p := range jm.Plain {
		m.Plain = append(m.Plain, p.message())
	}
	for _, o := range jm.Older {
		m.Older = append(m.Older, o.message())
	}
	return m
}
