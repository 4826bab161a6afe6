package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// An answer is posted through the journal (bot.Journal): before its first
// step — starting its thread, or its first message — the job is recorded
// under the message's id, each step is marked with Discord's id once
// done, and a process that dies between two steps leaves the job for the
// next run (this process restarted, or the replica that takes the gateway
// over) to complete, posting only what is missing. The same entry
// de-duplicates a replayed MESSAGE_CREATE.

// journalPrefix starts the key of every answer in the journal.
const journalPrefix = "discord/job/"

// resumeJobs completes, now and then every journal Stale until ctx ends,
// the answers a stopped run left half-posted.
func (a *Adapter) resumeJobs(ctx context.Context) {
	if a.journal != nil {
		a.journal.ResumeEvery(ctx, journalPrefix, deliveryTTL, a.poster(nil))
	}
}

// complete posts what a claimed job is missing.
func (a *Adapter) complete(ctx context.Context, h *bot.Hold, job *bot.PostJob) {
	if err := h.Post(ctx, job, a.poster(nil)); err != nil {
		a.log.Error("discord: completing a half-posted answer", "entry", h.Key(), "err", err)
		return
	}
	a.log.Info("discord: completed a half-posted answer", "channel", job.Channel, "entry", h.Key())
}

// deliveryOf records one delivery of a message in the journal and says
// what to do with it (bot.Journal.Deliver); without a journal it only
// de-duplicates.
func (a *Adapter) deliveryOf(ctx context.Context, kind, id string) bot.Delivery {
	if a.journal == nil || id == "" {
		return bot.Delivery{Answer: a.firstDelivery(ctx, kind, id)}
	}
	return a.journal.Deliver(ctx, journalPrefix+kind+"/"+id, deliveryTTL)
}

// A job's steps: starting the answer's thread, and posting a message.
const (
	postThread  = "thread"
	postMessage = "message"
)

// threadStart is a thread post's body: the thread started from a message.
type threadStart struct {
	Channel string `json:"channel"`
	Message string `json:"message"`
	Name    string `json:"name"`
}

// journalMessage is a message post's body, as the journal keeps it.
type journalMessage struct {
	Channel    string                    `json:"channel"`
	Content    string                    `json:"content,omitempty"`
	Embeds     []*discordgo.MessageEmbed `json:"embeds,omitempty"`
	Components []json.RawMessage         `json:"components,omitempty"`
	Flags      discordgo.MessageFlags    `json:"flags,omitempty"`
	// Chart is drawn (again, after a restart) and attached.
	Chart *bot.Chart `json:"chart,omitempty"`
	// Reply makes the message a reply to the question.
	Reply *discordgo.MessageReference `json:"reply,omitempty"`
}

func journalMessageOf(channel string, m outMessage, chart *bot.Chart, ref *discordgo.MessageReference) (json.RawMessage, error) {
	jm := journalMessage{Channel: channel, Content: m.Content, Embeds: m.Embeds, Flags: m.Flags, Chart: chart, Reply: ref}
	for _, c := range m.Components {
		raw, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("recording the message: %w", err)
		}
		jm.Components = append(jm.Components, raw)
	}
	b, err := json.Marshal(jm)
	if err != nil {
		return nil, fmt.Errorf("recording the message: %w", err)
	}
	return b, nil
}

func (jm journalMessage) message() (outMessage, error) {
	m := outMessage{Content: jm.Content, Embeds: jm.Embeds, Flags: jm.Flags}
	for _, raw := range jm.Components {
		c, err := discordgo.MessageComponentFromJSON(raw)
		if err != nil {
			return m, fmt.Errorf("reading the journal's message: %w", err)
		}
		m.Components = append(m.Components, c)
	}
	return m, nil
}

// errThread says the answer's thread could not be started: the answer
// goes in the channel instead.
type errThread struct{ err error }

func (e errThread) Error() string { return "starting the answer's thread: " + e.err.Error() }
func (e errThread) Unwrap() error { return e.err }

// poster posts a job's steps. chart is the first message's chart as the
// live answer drew it; nil draws it from the job's description (after a
// restart).
func (a *Adapter) poster(chart *chartImage) bot.PostFunc {
	return func(ctx context.Context, job *bot.PostJob, i int) (string, error) {
		p := job.Posts[i]
		switch p.Kind {
		case postThread:
			var ts threadStart
			if err := json.Unmarshal(p.Body, &ts); err != nil {
				return "", fmt.Errorf("reading the journal's thread: %w", err)
			}
			th, err := a.s.MessageThreadStart(ts.Channel, ts.Message, ts.Name, threadArchiveMinutes, rest(ctx))
			if _, code := restCode(err); err != nil && code != discordgo.ErrCodeThreadAlreadyCreatedForThisMessage {
				return "", errThread{err}
			}
			if err == nil {
				return th.ID, nil
			}
			return ts.Message, nil // a thread started from a message shares its id
		case postMessage:
			var jm journalMessage
			if err := json.Unmarshal(p.Body, &jm); err != nil {
				return "", fmt.Errorf("reading the journal's message: %w", err)
			}
			m, err := jm.message()
			if err != nil {
				return "", err
			}
			img := chart
			if jm.Chart != nil && img == nil {
				img = a.drawChart(*jm.Chart)
			}
			var msg *discordgo.Message
			switch {
			case jm.Chart != nil && img == nil:
				msg, err = a.send(ctx, jm.Channel, withoutChart(m), nil, jm.Reply)
			case jm.Chart != nil:
				msg, err = a.sendFirst(ctx, jm.Channel, m, img, jm.Reply)
			default:
				msg, err = a.send(ctx, jm.Channel, m, nil, jm.Reply)
			}
			if err != nil {
				return "", err
			}
			return msg.ID, nil
		}
		return "", fmt.Errorf("discord: a journal post of unknown kind %q", p.Kind)
	}
}

// isThreadError reports whether err is the answer's thread failing to start.
func isThreadError(err error) bool {
	_, ok := errors.AsType[errThread](err)
	return ok
}
