package slack

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
)

// These functions are the transport-neutral half of the adapter: the HTTP
// handlers and the Socket Mode loop both call them after acknowledging
// (or while acknowledging) Slack. They return at once; answering happens
// in the worker.

// onEvent handles one Events API callback.
func (a *Adapter) onEvent(ctx context.Context, ev slackevents.EventsAPIEvent) {
	cb, ok := ev.Data.(*slackevents.EventsAPICallbackEvent)
	if !ok {
		return
	}
	switch e := ev.InnerEvent.Data.(type) {
	case *slackevents.AppMentionEvent:
		a.onMention(ctx, cb.EventID, e)
	case *slackevents.MessageEvent:
		a.onMessage(ctx, cb.EventID, e)
	case *slackevents.AssistantThreadStartedEvent:
		a.onAssistantThreadStarted(ctx, cb.EventID, e)
	case *slackevents.AssistantThreadContextChangedEvent:
		a.onAssistantThreadContextChanged(ctx, cb.EventID, e)
	case *slackevents.AppContextChangedEvent:
		a.onAppContextChanged(ctx, cb.EventID, e)
	case *slackevents.AppHomeOpenedEvent:
		a.onAppHomeOpened(ctx, cb.EventID, e)
	}
}

// onMention answers an @mention in a thread under the mentioning message
// (or in the thread it was written in).
func (a *Adapter) onMention(ctx context.Context, eventID string, e *slackevents.AppMentionEvent) {
	if e.BotID != "" || e.User == "" || e.Edited != nil {
		return
	}
	d := a.deliveryOf(ctx, "event", eventID)
	if d.Skip() {
		a.log.Debug("duplicate event ignored", "event_id", eventID)
		return
	}
	parent := e.ThreadTimeStamp
	if parent == "" {
		parent = e.TimeStamp
	}
	_ = a.queueDelivery("mention", d, place{channel: e.Channel, user: e.User, thread: parent}, e.Text, func(ctx context.Context, at place) error {
		me, err := a.botUser(ctx)
		if err != nil {
			return err
		}
		if e.User == me {
			return nil
		}
		conv, ok, err := a.conversationOf(ctx, e.Channel, parent)
		if err != nil || !ok {
			conv = parent
		}
		return a.answer(ctx, place{channel: e.Channel, user: e.User, thread: parent, conversation: conv, hold: at.hold}, questionText(e.Text, me))
	})
}

// onMessage answers direct messages, and follow-ups without a mention in
// threads the bot answers in.
func (a *Adapter) onMessage(ctx context.Context, eventID string, e *slackevents.MessageEvent) {
	if e.BotID != "" || e.User == "" || (e.SubType != "" && e.SubType != "thread_broadcast" && e.SubType != "file_share") {
		return // bots (itself included), edits, deletions, joins…
	}
	dm := e.ChannelType == "im"
	inThread := e.ThreadTimeStamp != "" && e.ThreadTimeStamp != e.TimeStamp
	if !dm && !inThread {
		return // a channel message that is not a follow-up: mentions come as app_mention
	}
	d := a.deliveryOf(ctx, "event", eventID)
	if d.Skip() {
		a.log.Debug("duplicate event ignored", "event_id", eventID)
		return
	}
	what := "follow-up"
	if dm {
		what = "direct message"
	}
	_ = a.queueDelivery(what, d, place{channel: e.Channel, user: e.User, thread: e.ThreadTimeStamp}, e.Text, func(ctx context.Context, at place) error {
		me, err := a.botUser(ctx)
		if err != nil {
			return err
		}
		if e.User == me {
			return nil
		}
		if dm {
			// One conversation per DM channel; answers go in the thread
			// the message was written in, else at the top.
			a.showAnswering(ctx, e.Channel, e.ThreadTimeStamp)
			p := place{channel: e.Channel, user: e.User, thread: e.ThreadTimeStamp, conversation: e.Channel, hold: at.hold}
			if p.thread != "" {
				// An assistant thread: the answer streams there.
				return a.answerStreamed(ctx, p, questionText(e.Text, me))
			}
			return a.answer(ctx, p, questionText(e.Text, me))
		}
		if mentions(e.Text, me) {
			return nil // the app_mention event for this message answers it
		}
		conv, ok, err := a.conversationOf(ctx, e.Channel, e.ThreadTimeStamp)
		if err != nil {
			return err
		}
		if !ok {
			return nil // a thread the bot is not part of
		}
		if mentionsSomeoneElse(e.Text, me) {
			return nil // addressed to another person, not to the bot
		}
		return a.answer(ctx, place{channel: e.Channel, user: e.User, thread: e.ThreadTimeStamp, conversation: conv, unasked: true, hold: at.hold}, questionText(e.Text, me))
	})
}

// reply is the immediate answer to a slash command, shown to the asker.
type reply struct {
	ResponseType string `json:"response_type"`
	Text         string `json:"text"`
}

// onCommand handles the slash command and returns the immediate reply
// Slack shows the asker (nil for none). Help and an empty command are
// answered privately; a question is answered in the channel.
//
// replay identifies this delivery of the command (a hash of the signed
// request, or of the Socket Mode trigger): a replay of it, on this replica
// or another sharing the store, is acknowledged without answering again.
func (a *Adapter) onCommand(ctx context.Context, cmd slackgo.SlashCommand, replay string) *reply {
	d := a.deliveryOf(ctx, "command", replay)
	if d.Skip() {
		a.log.Info("replayed slash command ignored", "channel", cmd.ChannelID, "user", cmd.UserID)
		return nil
	}
	text := strings.TrimSpace(unescape(cmd.Text))
	p := place{channel: cmd.ChannelID, user: cmd.UserID, responseURL: cmd.ResponseURL, conversation: "cmd-" + cmd.TriggerID}
	if text == "" || strings.EqualFold(text, "help") {
		err := a.queueDelivery("help", d, p, "help", func(ctx context.Context, p place) error {
			ans := a.cfg.Handler.Handle(ctx, botMessage(p, "help"))
			ans.Ephemeral = true
			return a.deliver(ctx, p, ans)
		})
		if err != nil {
			return busyReply()
		}
		return nil
	}
	p.show = shown{Asker: cmd.UserID, Question: text}
	if err := a.queueDelivery("slash command", d, p, text, func(ctx context.Context, p place) error {
		return a.answer(ctx, p, text)
	}); err != nil {
		return busyReply()
	}
	return &reply{ResponseType: slackgo.ResponseTypeEphemeral, Text: "Looking into: " + escape(text)}
}

// onInteraction handles a click on an example question in help: the
// question is asked as if typed in the slash command.
//
// A click is answered once: its trigger ID and action timestamp are
// recorded like an event's ID, so a replayed or redelivered click (to this
// replica or another) is ignored.
func (a *Adapter) onInteraction(ctx context.Context, cb slackgo.InteractionCallback) {
	if cb.Type != slackgo.InteractionTypeBlockActions {
		return
	}
	for _, act := range cb.ActionCallback.BlockActions {
		if a.onCardAction(cb, act) {
			return
		}
		if !strings.HasPrefix(act.ActionID, askAction) || strings.TrimSpace(act.Value) == "" {
			continue
		}
		d := a.deliveryOf(ctx, "action", clickID(cb, act))
		if d.Skip() {
			a.log.Info("replayed button click ignored", "user", cb.User.ID)
			return
		}
		q := strings.TrimSpace(act.Value)
		channel := cb.Channel.ID
		if channel == "" {
			channel = cb.Container.ChannelID
		}
		if channel == "" && cb.View.Type == slackgo.VTHomeTab {
			channel = cb.View.PrivateMetadata // the Home tab: answered in the user's DM with the app
		}
		if channel == "" {
			a.log.Warn("a button click with no channel to answer in", "user", cb.User.ID, "action", act.ActionID)
			return
		}
		// A button in a thread answers in that thread, with its memory.
		thread := cb.Container.ThreadTs
		if thread == "" {
			thread = cb.Message.ThreadTimestamp
		}
		p := place{channel: channel, user: cb.User.ID, responseURL: cb.ResponseURL, thread: thread,
			conversation: "btn-" + cb.TriggerID, show: shown{Asker: cb.User.ID, Question: q}}
		if err := a.queueDelivery("button", d, p, q, func(ctx context.Context, p place) error {
			if p.thread != "" {
				if conv, ok, err := a.conversationOf(ctx, p.channel, p.thread); err == nil && ok {
					p.conversation = conv
				}
			}
			return a.answer(ctx, p, q)
		}); err != nil && cb.ResponseURL != "" {
			a.log.Warn("button question not queued", "err", err)
		}
		return
	}
}

// queue wraps enqueue with the job's description and where a failure is
// told to the asker.
func (a *Adapter) queue(what string, at place, question string, run func(context.Context) error) error {
	return a.enqueue(job{lane: at.channel, what: what, user: at.user, question: question, at: at, run: run})
}

func busyReply() *reply {
	return &reply{ResponseType: slackgo.ResponseTypeEphemeral, Text: "Too many questions are waiting right now; please ask again in a minute."}
}

// Compiled on first use: a process that never needs it does not pay for it at start.
var userMention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<@([UW][A-Z0-9]+)(\|[^>]*)?>`) })

// mentionsSomeoneElse reports whether text mentions a user other than me:
// in a thread, such a message talks to that person.
func mentionsSomeoneElse(text, me string) bool {
	for _, m := range userMention().FindAllStringSubmatch(text, -1) {
		if m[1] != me {
			return true
		}
	}
	return false
}

// mentions reports whether text mentions the user.
func mentions(text, user string) bool {
	for _, m := range userMention().FindAllStringSubmatch(text, -1) {
		if m[1] == user {
			return true
		}
	}
	return false
}

// questionText is the question in a message: the bot's mention removed,
// Slack's escaping undone.
func questionText(text, me string) string {
	text = userMention().ReplaceAllStringFunc(text, func(m string) string {
		if userMention().FindStringSubmatch(m)[1] == me {
			return ""
		}
		return m
	})
	return strings.Join(strings.Fields(unescape(text)), " ")
}

// clickID identifies one click: Slack's trigger ID is unique per
// interaction, its action timestamp per action.
func clickID(cb slackgo.InteractionCallback, act *slackgo.BlockAction) string {
	if cb.TriggerID == "" && act.ActionTs == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("click\n" + cb.TriggerID + "\n" + act.ActionTs))
	return hex.EncodeToString(sum[:])
}
