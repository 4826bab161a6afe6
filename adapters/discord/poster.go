package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

var (
	_ bot.Poster      = (*Adapter)(nil)
	_ bot.ChartPoster = (*Adapter)(nil)
)

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
	target, reference, err := a.digestThread(ctx, channel, ref, digestThreadName(markdown))
	if err != nil {
		return err
	}
	// Discord shows pipe tables as raw pipes: they go as aligned tables in
	// code blocks, or one line per row when too wide for a phone.
	for _, piece := range splitText(strings.TrimSpace(withNarrowTables(markdown)), maxContent) {
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

// PostChart posts a chart PNG into the thread of the message ref, as one
// message: the image attached as chart.png (with altText as its
// description) and shown by an embed titled title, mentions disabled.
// Where PostReply had to reply in the channel, so does the chart.
func (a *Adapter) PostChart(ctx context.Context, channel, ref string, png []byte, altText, title string) error {
	if len(png) == 0 {
		return errors.New("discord: no chart image to post")
	}
	if altText == "" {
		altText = title
	}
	target, reference, err := a.digestThread(ctx, channel, ref, threadName(title))
	if err != nil {
		return err
	}
	m := outMessage{Embeds: []*discordgo.MessageEmbed{{
		Title: truncate(title, maxTitle),
		Image: &discordgo.MessageEmbedImage{URL: "attachment://" + chartFile},
	}}}
	img := &chartImage{png: png, alt: truncate(altText, maxAltText)}
	if _, err := a.send(ctx, target, m, img, reference); err != nil {
		return fmt.Errorf("discord: posting the digest chart in %s: %w", target, err)
	}
	return nil
}

// digestThread finds where a digest's follow-ups go: the thread started
// from the message ref (started now, named name, unless it exists), or —
// without permission to start threads — the channel itself, as a reply to
// ref.
func (a *Adapter) digestThread(ctx context.Context, channel, ref, name string) (string, *discordgo.MessageReference, error) {
	_, err := a.s.MessageThreadStart(channel, ref, name, threadArchiveMinutes, rest(ctx))
	_, code := restCode(err)
	switch {
	case err == nil, code == discordgo.ErrCodeThreadAlreadyCreatedForThisMessage:
		return ref, nil, nil // a thread started from a message shares its id
	case missingPermission(err), code == discordgo.ErrCodeCannotExecuteActionOnThisChannelType:
		a.log.Info("discord: cannot start a thread for the digest; replying in the channel", "channel", channel, "err", err)
		no := false
		return channel, &discordgo.MessageReference{MessageID: ref, ChannelID: channel, FailIfNotExists: &no}, nil
	default:
		return "", nil, fmt.Errorf("discord: starting the digest thread in channel %s: %w", channel, err)
	}
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
