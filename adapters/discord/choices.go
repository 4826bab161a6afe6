package discord

import (
	"context"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// Discord's component limits
// (https://discord.com/developers/docs/components/reference).
const (
	maxButtonsPerRow = 5
	maxButtonLabel   = 80
	maxCustomID      = 100
)

// Custom ids of the bot's buttons. A choice button carries its question
// when it fits (askPrefix), else its number (pickPrefix), which the
// thread's memory turns back into the question.
const (
	askPrefix  = "oracle:ask:"
	pickPrefix = "oracle:pick:"
)

// choiceButtons offers a clarify's readings as numbered buttons; a click
// asks that reading in the thread, as typing its number does.
func choiceButtons(choices []string) []discordgo.MessageComponent {
	var row []discordgo.MessageComponent
	for i, q := range choices {
		if len(row) == maxButtonsPerRow {
			break
		}
		n := strconv.Itoa(i + 1)
		id := askPrefix + q
		if len(id) > maxCustomID {
			id = pickPrefix + n
		}
		row = append(row, discordgo.Button{Label: truncate(n+". "+q, maxButtonLabel),
			Style: discordgo.SecondaryButton, CustomID: id})
	}
	if len(row) == 0 {
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

// buttonQuestion is what a click on one of the bot's buttons asks, or
// false for a button that is not a question.
func buttonQuestion(customID string) (string, bool) {
	if q, ok := strings.CutPrefix(customID, askPrefix); ok && strings.TrimSpace(q) != "" {
		return q, true
	}
	if n, ok := strings.CutPrefix(customID, pickPrefix); ok && n != "" {
		return n, true
	}
	return "", false
}

// onComponent answers a click on a choice button: it acknowledges the
// click without changing the message, then answers the choice where the
// button is (its thread, its DM, or — for a clarify posted in a channel —
// the memory of the question it answered), as a message would be.
func (a *Adapter) onComponent(ctx context.Context, i *discordgo.Interaction) {
	id := i.MessageComponentData().CustomID
	q, ok := buttonQuestion(id)
	if !ok && !strings.HasPrefix(id, "oracle:") {
		return
	}
	if !a.firstDelivery(ctx, "interaction", i.ID) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.AnswerTimeout)
	defer cancel()
	if !ok {
		a.onCardButton(ctx, i, id)
		return
	}
	if err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate,
		Data: &discordgo.InteractionResponseData{AllowedMentions: noMentions()}}, rest(ctx)); err != nil {
		a.log.Error("discord: acknowledging a button failed", "err", err)
		return
	}
	msg := bot.Message{Platform: "discord", Channel: i.ChannelID, User: interactionUser(i), Text: q}
	switch {
	case i.GuildID == "":
		msg.Thread = i.ChannelID
	default:
		info, err := a.channel(ctx, i.ChannelID)
		if err != nil {
			a.log.Warn("discord: looking up the button's channel failed; treating it as a channel", "channel", i.ChannelID, "err", err)
		}
		switch {
		case info.thread:
			msg.Channel, msg.Thread = info.parent, i.ChannelID
		case i.Message != nil && i.Message.MessageReference != nil:
			msg.Thread = i.Message.MessageReference.MessageID
		case i.Message != nil:
			msg.Thread = i.Message.ID
		}
	}
	ans := a.ask(ctx, i.ChannelID, msg)
	if err := a.postAnswer(ctx, nil, i.ChannelID, msg, ans, "", nil); err != nil {
		a.reportPostFailure(i.ChannelID, err)
	}
}
