package slack

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Slack's assistant surface (the app's DM pane and its agent view): a new
// assistant thread gets suggested prompts — questions the measured runs
// really answer, led by those last asked in the channel the user views —
// and a question there shows a status while it is answered. Slack clears
// the status when the answer is posted. The channel a thread's user views
// (its context) is remembered, so prompts change only when it does.

// maxSuggestedPrompts is how many prompts Slack shows in a thread.
const maxSuggestedPrompts = 4

// answeringStatus is the status an assistant thread shows while answering.
const answeringStatus = "is reading the measured runs…"

// onAssistantThreadStarted offers suggested prompts in a new assistant
// thread, drawn on the channel the user is viewing when Slack says which
// (the thread's context), else on the one the app last saw them view.
func (a *Adapter) onAssistantThreadStarted(ctx context.Context, eventID string, e *slackevents.AssistantThreadStartedEvent) {
	a.onAssistantThread(ctx, eventID, "assistant thread", e.AssistantThread, func(ctx context.Context, key string) error {
		viewed := e.AssistantThread.Context.ChannelID
		if viewed == "" {
			viewed = a.recall(ctx, appContextKey(e.AssistantThread.ChannelID))
		}
		a.remember(ctx, key, viewed)
		return a.suggest(ctx, e.AssistantThread.ChannelID, e.AssistantThread.ThreadTimeStamp, viewed)
	})
}

// onAssistantThreadContextChanged remembers the channel an assistant
// thread's user now views and adjusts the thread's suggested prompts to
// it; the same channel again changes nothing.
func (a *Adapter) onAssistantThreadContextChanged(ctx context.Context, eventID string, e *slackevents.AssistantThreadContextChangedEvent) {
	a.onAssistantThread(ctx, eventID, "assistant context", e.AssistantThread, func(ctx context.Context, key string) error {
		viewed := e.AssistantThread.Context.ChannelID
		if a.recall(ctx, key) == viewed {
			return nil
		}
		a.remember(ctx, key, viewed)
		return a.suggest(ctx, e.AssistantThread.ChannelID, e.AssistantThread.ThreadTimeStamp, viewed)
	})
}

// onAssistantThread queues the work of an assistant thread's event, once
// per event; run gets the key its context is remembered under.
func (a *Adapter) onAssistantThread(ctx context.Context, eventID, what string, th slackevents.AssistantThread, run func(ctx context.Context, key string) error) {
	if th.ChannelID == "" || th.ThreadTimeStamp == "" || !a.firstDelivery(ctx, eventID) {
		return
	}
	key := threadContextKey(th.ChannelID, th.ThreadTimeStamp)
	_ = a.queue(what, place{channel: th.ChannelID, user: th.UserID, thread: th.ThreadTimeStamp}, "", func(ctx context.Context) error {
		return run(ctx, key)
	})
}

// onAppContextChanged remembers, for the user's DM with the app (Slack's
// agent view), the channel they now view: the next assistant thread there
// suggests prompts for it.
func (a *Adapter) onAppContextChanged(ctx context.Context, eventID string, e *slackevents.AppContextChangedEvent) {
	if e.Channel == "" || !a.firstDelivery(ctx, eventID) {
		return
	}
	viewed := ""
	for _, ent := range e.Context.Entities {
		if ent.Type == slackevents.AppContextEntityChannel && ent.Value != "" {
			viewed = ent.Value
			break
		}
		if ent.Type == slackevents.AppContextEntityMessageContext && ent.Message != nil && ent.Message.ChannelID != "" {
			viewed = ent.Message.ChannelID
			break
		}
	}
	p := place{channel: e.Channel, user: e.User}
	_ = a.queue("app context", p, "", func(ctx context.Context) error {
		a.remember(ctx, appContextKey(e.Channel), viewed)
		return nil
	})
}

// suggest sets an assistant thread's suggested prompts.
func (a *Adapter) suggest(ctx context.Context, dm, thread, viewed string) error {
	params := suggestedPrompts(dm, thread, a.askedIn(ctx, viewed))
	return a.out.retry(ctx, "assistant.threads.setSuggestedPrompts", dm, func(ctx context.Context) error {
		return a.api.SetAssistantThreadsSuggestedPromptsContext(ctx, params)
	})
}

// suggestedPrompts are the questions last asked in the channel the user
// views (at most two), then the examples that really work, as prompts.
func suggestedPrompts(channel, thread string, asked []string) slackgo.AssistantThreadsSetSuggestedPromptsParameters {
	params := slackgo.AssistantThreadsSetSuggestedPromptsParameters{Title: "Questions the measured runs answer",
		ChannelID: channel, ThreadTS: thread}
	var qs []string
	if len(asked) > 0 {
		params.Title = "Asked lately in the channel you are viewing, and more"
		qs = asked[:min(len(asked), maxSuggestedPrompts/2)]
	}
	for _, q := range bot.Examples() {
		if !slices.Contains(qs, q) {
			qs = append(qs, q)
		}
	}
	for _, q := range qs[:min(len(qs), maxSuggestedPrompts)] {
		params.Prompts = append(params.Prompts, slackgo.AssistantThreadsPrompt{Title: truncate(q, maxButtonLabel), Message: q})
	}
	return params
}

// The channel contexts the adapter remembers, and the questions asked in
// a channel, are kept this long.
const contextTTL = 30 * 24 * time.Hour

// recentAsked is how many of a channel's last questions are kept.
const recentAsked = 3

func threadContextKey(dm, thread string) string { return "slack/context/" + dm + "/" + thread }
func appContextKey(dm string) string            { return "slack/context/" + dm }
func askedKey(channel string) string            { return "slack/asked/" + channel }

// overwriter is a Store that can replace a value (every bot.KV can); the
// remembered contexts and questions need it and are skipped without it.
type overwriter interface {
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
}

// remember keeps a value under key; a failure costs only the suggestion.
func (a *Adapter) remember(ctx context.Context, key, value string) {
	w, ok := a.cfg.Store.(overwriter)
	if !ok {
		return
	}
	if err := w.Set(ctx, key, []byte(value), contextTTL); err != nil {
		a.log.Warn("remembering an assistant thread's context", "key", key, "err", err)
	}
}

// recall reads what remember kept ("" when nothing).
func (a *Adapter) recall(ctx context.Context, key string) string {
	v, ok, err := a.cfg.Store.Get(ctx, key)
	if err != nil {
		a.log.Warn("reading an assistant thread's context", "key", key, "err", err)
	}
	if !ok {
		return ""
	}
	return string(v)
}

// noteAsked keeps a question answered in a channel among its last few, for
// the suggested prompts of those who view it. Only channels are noted,
// never direct messages.
func (a *Adapter) noteAsked(ctx context.Context, channel, question string) {
	if question == "" || !(strings.HasPrefix(channel, "C") || strings.HasPrefix(channel, "G")) {
		return
	}
	asked := slices.DeleteFunc(a.askedIn(ctx, channel), func(q string) bool { return q == question })
	asked = append([]string{question}, asked[:min(len(asked), recentAsked-1)]...)
	raw, err := json.Marshal(asked)
	if err != nil {
		return
	}
	a.remember(ctx, askedKey(channel), string(raw))
}

// askedIn is a channel's last questions, the latest first.
func (a *Adapter) askedIn(ctx context.Context, channel string) []string {
	if channel == "" {
		return nil
	}
	raw := a.recall(ctx, askedKey(channel))
	if raw == "" {
		return nil
	}
	var asked []string
	if err := json.Unmarshal([]byte(raw), &asked); err != nil {
		a.log.Warn("the questions kept for a channel are damaged; suggesting the examples", "channel", channel, "err", err)
		return nil
	}
	return asked
}

// showAnswering sets the assistant thread's status while a DM question
// is answered; a workspace without the assistant surface refuses it,
// which costs nothing.
func (a *Adapter) showAnswering(ctx context.Context, channel, thread string) {
	if thread == "" {
		return
	}
	err := a.api.SetAssistantThreadsStatusContext(ctx, slackgo.AssistantThreadsSetStatusParameters{
		ChannelID: channel, ThreadTS: thread, Status: answeringStatus})
	if err != nil {
		a.log.Debug("assistant status not shown", "channel", channel, "err", err)
	}
}
