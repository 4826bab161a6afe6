package slack

import (
	"context"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Slack's assistant surface (the app's DM pane and its agent view): a new
// assistant thread gets suggested prompts — questions the measured runs
// really answer — and a question there shows a status while it is
// answered. Slack clears the status when the answer is posted.

// maxSuggestedPrompts is how many prompts Slack shows in a thread.
const maxSuggestedPrompts = 4

// answeringStatus is the status an assistant thread shows while answering.
const answeringStatus = "is reading the measured runs…"

// onAssistantThreadStarted offers suggested prompts in a new assistant
// thread.
func (a *Adapter) onAssistantThreadStarted(ctx context.Context, eventID string, e *slackevents.AssistantThreadStartedEvent) {
	th := e.AssistantThread
	if th.ChannelID == "" || th.ThreadTimeStamp == "" || !a.firstDelivery(ctx, eventID) {
		return
	}
	p := place{channel: th.ChannelID, user: th.UserID, thread: th.ThreadTimeStamp}
	_ = a.queue("assistant thread", p, "", func(ctx context.Context) error {
		return a.out.retry(ctx, "assistant.threads.setSuggestedPrompts", th.ChannelID, func(ctx context.Context) error {
			return a.api.SetAssistantThreadsSuggestedPromptsContext(ctx, suggestedPrompts(th.ChannelID, th.ThreadTimeStamp))
		})
	})
}

// suggestedPrompts are the first examples that really work, as prompts.
func suggestedPrompts(channel, thread string) slackgo.AssistantThreadsSetSuggestedPromptsParameters {
	params := slackgo.AssistantThreadsSetSuggestedPromptsParameters{Title: "Questions the measured runs answer",
		ChannelID: channel, ThreadTS: thread}
	for _, q := range bot.Examples() {
		if len(params.Prompts) == maxSuggestedPrompts {
			break
		}
		params.Prompts = append(params.Prompts, slackgo.AssistantThreadsPrompt{Title: truncate(q, maxButtonLabel), Message: q})
	}
	return params
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
