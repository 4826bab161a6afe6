package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

var _ bot.Poster = (*Adapter)(nil)

// Platform names the platform for bot.Poster.
func (a *Adapter) Platform() string { return "discord" }

// PostTop posts markdown as a top-level message in channel (split across
// messages beyond 2,000 characters) and returns the first message's id,
// which PostReply answers under. It needs only the token, not the gateway.
func (a *Adapter) PostTop(ctx context.Context, channel, markdown string) (string, error) {
	var first string
	for _, piece := range splitText(strings.TrimSpace(markdown), maxContent) {
		msg, err := a.s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{
			Content: piece, AllowedMentions: noMentions(),
		}, rest(ctx))
		if err != nil {
			return "", fmt.Errorf("discord: posting to channel %s: %w", channel, err)
		}
		if first == "" {
			first = msg.ID
		}
	}
	if first == "" {
		return "", errors.New("discord: nothing to post")
	}
	return first, nil
}

// PostReply posts markdown in the thread of the message ref (as PostTop
// returned it), starting the thread if it does not exist yet. Without
// permission to start threads it replies to the message in the channel.
// Calling it again for the same ref reuses the thread.
func (a *Adapter) PostReply(ctx context.Context, channel, ref, markdown string) error {
	target, reference := ref, (*discordgo.MessageReference)(nil)
	_, err := a.s.MessageThreadStart(channel, ref, digestThreadName(markdown), threadArchiveMinutes, rest(ctx))
	_, code := restCode(err)
	switch {
	case err == nil, code == discordgo.ErrCodeThreadAlreadyCreatedForThisMessage:
		// A thread started from a message shares its id.
	case missingPermission(err), code == discordgo.ErrCodeCannotExecuteActionOnThisChannelType:
		a.log.Info("discord: cannot start a thread for the digest; replying in the channel", "channel", channel, "err", err)
		no := false
		target, reference = channel, &discordgo.MessageReference{MessageID: ref, ChannelID: channel, FailIfNotExists: &no}
	default:
		return fmt.Errorf("discord: starting the digest thread in channel %s: %w", channel, err)
	}
	for _, piece := range splitText(strings.TrimSpace(markdown), maxContent) {
		_, err := a.s.ChannelMessageSendComplex(target, &discordgo.MessageSend{
			Content: piece, AllowedMentions: noMentions(), Reference: reference,
		}, rest(ctx))
		if err != nil {
			return fmt.Errorf("discord: posting the digest details in %s: %w", target, err)
		}
		reference = nil
	}
	return nil
}

// digestThreadName names the digest thread after the details' first line.
func digestThreadName(markdown string) string {
	for _, line := range strings.Split(markdown, "\n") {
		if name := threadName(line); name != "memdb-oracle" {
			return name
		}
	}
	return "Findings digest"
}
