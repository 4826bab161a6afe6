package slack

import (
	"context"
	"time"
)

// How long the adapter remembers an event (Slack retries for about an
// hour) and a thread it answers in (as long as the bot's thread memory).
const (
	eventTTL  = 24 * time.Hour
	threadTTL = 7 * 24 * time.Hour
)

// firstDelivery records an event ID and reports whether this is the first
// time it is seen, so a retried event (X-Slack-Retry-Num), also one
// arriving after a restart, is answered once. When the store fails the
// event is processed: a rare double answer beats a lost question.
func (a *Adapter) firstDelivery(ctx context.Context, eventID string) bool {
	if eventID == "" {
		return true
	}
	first, err := a.cfg.Store.SetIfAbsent(ctx, "slack/event/"+eventID, []byte{'1'}, eventTTL)
	if err != nil {
		a.log.Error("recording a Slack event; processing it anyway", "event_id", eventID, "err", err)
		return true
	}
	return first
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

// conversationOf returns the conversation a thread continues, and whether
// the bot answers in that thread at all.
func (a *Adapter) conversationOf(ctx context.Context, channel, ts string) (string, bool, error) {
	v, ok, err := a.cfg.Store.Get(ctx, threadKey(channel, ts))
	if err != nil || !ok {
		return "", false, err
	}
	return string(v), true, nil
}
