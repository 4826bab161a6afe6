package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// questionOption is the slash command's one option.
const questionOption = "question"

// slashCommand describes /name question:<text>; an empty question or
// "help" gives help.
func slashCommand(name string) *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{
		Name:        name,
		Type:        discordgo.ChatApplicationCommand,
		Description: "Ask about Redis, Valkey, Dragonfly, KeyDB and Garnet, answered from measured benchmark runs",
		Options: []*discordgo.ApplicationCommandOption{{
			Type:        discordgo.ApplicationCommandOptionString,
			Name:        questionOption,
			Description: "Your question; leave it empty or write help to see what you can ask",
			Required:    false,
			MaxLength:   1000,
			// Questions that really work, suggested as the question is typed.
			Autocomplete: true,
		}},
	}
}

// onInteraction answers the slash command: it acknowledges at once with a
// deferred response (Discord allows 3 seconds), then edits the answer in.
// In a channel it starts a thread from the answer so follow-ups keep
// context; in a thread or a DM it answers there with that conversation's
// memory. Help is shown only to the asker.
func (a *Adapter) onInteraction(ctx context.Context, i *discordgo.Interaction) {
	defer a.recoverEvent("INTERACTION_CREATE", a.tellInteraction(i))
	switch i.Type {
	case discordgo.InteractionMessageComponent:
		a.onComponent(ctx, i)
		return
	case discordgo.InteractionApplicationCommandAutocomplete:
		a.onAutocomplete(ctx, i)
		return
	case discordgo.InteractionApplicationCommand:
	default:
		return
	}
	data := i.ApplicationCommandData()
	if data.Name != a.cfg.Command {
		return
	}
	if !a.firstDelivery(ctx, "interaction", i.ID) {
		a.log.Debug("discord: interaction already handled (replayed delivery)", "id", i.ID)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.AnswerTimeout)
	defer cancel()

	question := ""
	for _, o := range data.Options {
		if o.Name == questionOption && o.Type == discordgo.ApplicationCommandOptionString {
			question = strings.TrimSpace(o.StringValue())
		}
	}
	help := question == "" || strings.EqualFold(question, "help")
	var flags discordgo.MessageFlags
	if help {
		flags = discordgo.MessageFlagsEphemeral
	}
	err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: flags, AllowedMentions: noMentions()},
	}, rest(ctx))
	if err != nil {
		a.log.Error("discord: acknowledging the command failed", "command", a.cfg.Command, "err", err)
		return
	}

	q := bot.Message{Platform: "discord", Channel: i.ChannelID, User: interactionUser(i), Text: question}
	if help {
		q.Text = "help"
		a.respond(ctx, i, q, a.handle(ctx, q), "", true)
		return
	}
	startThread := false
	var info channelInfo
	if i.GuildID != "" {
		var err error
		if info, err = a.channel(ctx, i.ChannelID); err != nil {
			a.log.Warn("discord: looking up the channel failed; treating it as a channel", "channel", i.ChannelID, "err", err)
		}
	}
	switch {
	case i.GuildID == "":
		q.Thread = i.ChannelID // a DM: one conversation per DM channel
	case info.thread:
		q.Channel, q.Thread = info.parent, i.ChannelID
	default:
		// The answer becomes the thread's first message, and a thread
		// started from a message shares its id: key the memory by it.
		orig, err := a.s.InteractionResponse(i, rest(ctx))
		if err != nil {
			a.log.Warn("discord: reading the deferred response failed; answering without a thread", "err", err)
			break
		}
		q.Thread, startThread = orig.ID, true
	}
	ans := a.handle(ctx, q)
	if ans.Ephemeral && ans.Kind != bot.KindClarify { // a clarify's choices are picked in its thread
		// Only the asker should see it: drop the public "thinking…"
		// message and reply privately.
		if err := a.s.InteractionResponseDelete(i, rest(ctx)); err != nil {
			a.log.Warn("discord: deleting the deferred response failed", "err", err)
		}
		a.followUp(ctx, i, renderAnswer(ans, false), true)
		return
	}
	name := ""
	if startThread {
		name = threadName(question)
	}
	a.respond(ctx, i, q, ans, name, false)
}

// respond edits the deferred response into the answer's first message and
// sends the rest: into a thread started from the answer when thread names
// one (the channel case), else as follow-ups.
func (a *Adapter) respond(ctx context.Context, i *discordgo.Interaction, q bot.Message, ans bot.Answer, thread string, ephemeral bool) {
	chart := a.renderChart(ans)
	if ephemeral {
		chart = nil
	}
	msgs := a.cardMessages(ctx, q, ans, chart, "", false)
	orig, err := a.editOriginal(ctx, i, msgs[0], chart)
	if err != nil {
		a.log.Error("discord: editing the answer in failed", "command", a.cfg.Command, "err", err)
		return
	}
	more := msgs[1:]
	if thread == "" {
		a.followUp(ctx, i, more, ephemeral)
		return
	}
	th, err := a.s.MessageThreadStart(i.ChannelID, orig.ID, thread, threadArchiveMinutes, rest(ctx))
	threadID := ""
	_, code := restCode(err)
	switch {
	case err == nil:
		threadID = th.ID
	case code == discordgo.ErrCodeThreadAlreadyCreatedForThisMessage:
		threadID = orig.ID
	case missingPermission(err):
		if a.notices.first("command-threads/" + i.ChannelID) {
			notice := outMessage{Content: fmt.Sprintf(noticeNoCommandThread, a.cfg.Command)}
			a.followUp(ctx, i, []outMessage{notice}, true)
		}
	default:
		a.log.Warn("discord: starting a thread from the answer failed", "channel", i.ChannelID, "err", err)
	}
	if threadID == "" {
		a.followUp(ctx, i, more, false)
		return
	}
	a.channels.put(threadID, channelInfo{thread: true, parent: i.ChannelID, owner: a.selfID()})
	for n, m := range more {
		if _, err := a.send(ctx, threadID, m, nil, nil); err != nil {
			a.log.Error("discord: posting the rest of the answer in its thread failed", "thread", threadID,
				"part", n+2, "err", err)
			return
		}
	}
}

// editOriginal edits the deferred response into m, with the chart attached
// when there is one (or, when the chart is refused, without it).
func (a *Adapter) editOriginal(ctx context.Context, i *discordgo.Interaction, m outMessage, chart *chartImage) (*discordgo.Message, error) {
	msg, err := a.edit(ctx, i, m, chart)
	if err == nil || chart == nil || !fileRefused(err) {
		return msg, err
	}
	a.log.Warn("discord: the chart was refused; answering without it", "channel", i.ChannelID, "err", err)
	m = withoutChart(m)
	if a.notices.first("chart/" + i.ChannelID) {
		m.Content = joinContent(m.Content, noticeNoChart)
	}
	return a.edit(ctx, i, m, nil)
}

func (a *Adapter) edit(ctx context.Context, i *discordgo.Interaction, m outMessage, chart *chartImage) (*discordgo.Message, error) {
	components := m.Components
	if components == nil {
		components = []discordgo.MessageComponent{}
	}
	data := &discordgo.WebhookEdit{Content: &m.Content, Embeds: &m.Embeds, Components: &components, AllowedMentions: noMentions()}
	if chart == nil {
		return a.s.InteractionResponseEdit(i, data, rest(ctx))
	}
	contentType, body, err := chart.multipart(data)
	if err != nil {
		return nil, fmt.Errorf("encoding the answer: %w", err)
	}
	endpoint := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	resp, err := a.s.RequestRaw(http.MethodPatch, endpoint, contentType, body, endpoint, 0, rest(ctx))
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(resp, &msg); err != nil {
		return nil, fmt.Errorf("decoding the edited answer: %w", err)
	}
	return &msg, nil
}

// followUp sends messages as follow-ups to the command, privately when
// ephemeral.
func (a *Adapter) followUp(ctx context.Context, i *discordgo.Interaction, msgs []outMessage, ephemeral bool) {
	var flags discordgo.MessageFlags
	if ephemeral {
		flags = discordgo.MessageFlagsEphemeral
	}
	for n, m := range msgs {
		_, err := a.s.FollowupMessageCreate(i, true, &discordgo.WebhookParams{
			Content: m.Content, Embeds: m.Embeds, Components: m.Components, AllowedMentions: noMentions(), Flags: flags,
		}, rest(ctx))
		if err != nil {
			a.log.Error("discord: sending a follow-up failed", "part", n+1, "err", err)
			return
		}
	}
}

func interactionUser(i *discordgo.Interaction) string {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User.ID
	}
	if i.User != nil {
		return i.User.ID
	}
	return ""
}

// maxAutocompleteChoices is how many suggestions Discord shows.
const maxAutocompleteChoices = 25

// onAutocomplete suggests questions that really work for what has been
// typed into the command's question.
func (a *Adapter) onAutocomplete(ctx context.Context, i *discordgo.Interaction) {
	data := i.ApplicationCommandData()
	if data.Name != a.cfg.Command {
		return
	}
	typed := ""
	for _, o := range data.Options {
		if o.Name == questionOption && o.Type == discordgo.ApplicationCommandOptionString {
			typed = o.StringValue()
		}
	}
	choices := []*discordgo.ApplicationCommandOptionChoice{}
	for _, q := range bot.Suggestions(typed, maxAutocompleteChoices) {
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: q, Value: q})
	}
	err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices, AllowedMentions: noMentions()}}, rest(ctx))
	if err != nil {
		a.log.Warn("discord: answering autocomplete failed", "err", err)
	}
}
