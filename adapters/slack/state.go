package slack

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// How long the adapter remembers an event (Slack retries for about an
// hour) and a thread it answers in (as long as the bot's thread memory).
const (
	eventTTL  = 24 * time.Hour
	threadTTL = 7 * 24 * time.Hour
)

// firstDelivery records an event ID and reports whether this is the first
// time it is seen, so a retried event (X-Slack-Retry-Num), also one
// arriving after a restart, is handled once. When the store fails the
// event is processed. Questions go through the journal instead
// (deliveryOf), which also completes an answer cut short; this is for
// events that post one thing (an assistant thread's prompts).
func (a *Adapter) firstDelivery(ctx context.Context, eventID string) bool {
	return a.firstTime(ctx, "event", eventID)
}

// firstTime records one delivery of kind ("event", "command", "action"; the
// latter two without a journal) and reports
// whether it is the first, here or on any replica sharing the store.
func (a *Adapter) firstTime(ctx context.Context, kind, id string) bool {
	if id == "" {
		return true
	}
	first, err := a.cfg.Store.SetIfAbsent(ctx, "slack/"+kind+"/"+id, []byte{'1'}, eventTTL)
	if err != nil {
		a.log.Error("recording a Slack delivery; processing it anyway", "kind", kind, "id", id, "err", err)
		return true
	}
	return first
}

// requestHash identifies one signed HTTP request from Slack: its
// timestamp, signature and body. Slack signs each delivery afresh, so a
// replay of the same bytes has the same hash.
func requestHash(h http.Header, body []byte) string {
	sum := sha256.New()
	sum.Write([]byte(h.Get("X-Slack-Request-Timestamp") + "\n" + h.Get("X-Slack-Signature") + "\n"))
	sum.Write(body)
	return hex.EncodeToString(sum.Sum(nil))
}

// triggerHash identifies one slash command delivered over Socket Mode (no
// signature there): Slack's trigger ID is unique per invocation.
func triggerHash(cmd slackgo.SlashCommand) string {
	if cmd.TriggerID == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("trigger\n" + cmd.TriggerID))
	return hex.EncodeToString(sum[:])
}

// threadKey is where the adapter notes a thread it answers in.
func threadKey(channel, ts string) string { return "slack/thread/" + channel + "/" + ts }

// markThread notes that the bot answers in a thread, and which
// conversation (bot.Message.Thread) follow-ups there continue.
func (a *Adapter) markThread(ctx context.Context, channel, ts, conversation string) {
	if _, err := a.cfg.Store.SetIfAbsent(ctx, threadKey(channel, ts), []byte(conversation), threadTTL); err != nil {
		a.log.Warn("noting a thread the bot answers in; follow-ups there need a mention", "channel", channel, "thread", ts, "err", err)
	}
}

// seenSources notes the filters, run IDs and knowledge entries an answer
// lists in a thread, and returns those the thread had already seen, so a
// follow-up repeats none of them. When the store fails, nothing counts as
// seen: a repeated source beats a missing one.
func (a *Adapter) seenSources(ctx context.Context, channel, thread string, s bot.Sources) map[string]bool {
	seen := map[string]bool{}
	ids := append(append(append([]string(nil), s.Filters...), s.RunIDs...), entryIDs(s.Entries)...)
	for _, id := range ids {
		sum := sha256.Sum256([]byte(id))
		first, err := a.cfg.Store.SetIfAbsent(ctx, "slack/seen/"+channel+"/"+thread+"/"+hex.EncodeToString(sum[:12]), []byte{'1'}, threadTTL)
		if err != nil {
			a.log.Warn("noting the sources a thread has seen", "channel", channel, "thread", thread, "err", err)
			return map[string]bool{}
		}
		if !first {
			seen[id] = true
		}
	}
	return seen
}

func entryIDs(es []bot.SourceEntry) []string {
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.ID
	}
	return ids
}

// conversationOf returns the conversation a thread continues, and whether
// the bot answers in that thread at all.
func (a *Adapter) conversationOf(ctx context.Context, channel, ts string) (string, bool, error) {
	v, ok, err := a.cfg.Store.Get(ctx, threadKey(channel, ts))
	if err != nil || !ok {
		return "", false, err
	}
	return string(v), true, nil
}
