package discord

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// An answer is one message, its card (bot.NewCard): an embed with the
// few lines that answer (the verdict's colour, the chart inline), and
// buttons — the clarify's choices, Show evidence (the rest posted in the
// thread once, when asked), Open on the web (with a public URL), 👍 / 👎.

// Custom ids of the card's buttons; the card's id follows.
const (
	evidencePrefix = "oracle:evidence:"
	votePrefix     = "oracle:vote:"
)

// renderCard lays out an answer's card as one message; footer, when set,
// is the thread's one notice, in small print under the answer.
func renderCard(a bot.Answer, card bot.Card, chart bool, footer, web, question string) outMessage {
	title, color := kindStyle(a.Kind)
	color = verdictColor(card.Verdict, color)
	var lines []string
	if card.Lead != "" {
		lines = append(lines, "**"+escapeMarkdown(card.Lead)+"**")
	}
	for _, l := range card.Lines {
		lines = append(lines, escapeMarkdown(l))
	}
	embed := &discordgo.MessageEmbed{Type: discordgo.EmbedTypeRich, Title: title, Color: color,
		Description: truncate(strings.Join(lines, "\n"), maxDescription)}
	if footer != "" {
		// A footer shows no Markdown: the notice goes without its code marks.
		embed.Footer = &discordgo.MessageEmbedFooter{Text: truncate(strings.ReplaceAll(footer, "`", ""), maxFooter)}
	}
	if chart {
		embed.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + chartFile}
	}
	m := outMessage{Embeds: []*discordgo.MessageEmbed{embed}, Components: choiceButtons(card.Choices)}
	var controls []discordgo.MessageComponent
	if card.Evidence {
		controls = append(controls, discordgo.Button{Label: "Show evidence", Style: discordgo.PrimaryButton, CustomID: evidencePrefix + card.ID})
	}
	if link := webLink(web, question, a); link != "" {
		controls = append(controls, discordgo.Button{Label: "Open on the web", Style: discordgo.LinkButton, URL: link})
	}
	if card.Rated {
		controls = append(controls,
			// discordgo always sends the label, and Discord refuses an empty one.
			discordgo.Button{Label: "Useful", Emoji: &discordgo.ComponentEmoji{Name: "👍"}, Style: discordgo.SecondaryButton, CustomID: votePrefix + "up:" + card.ID},
			discordgo.Button{Label: "Wrong", Emoji: &discordgo.ComponentEmoji{Name: "👎"}, Style: discordgo.SecondaryButton, CustomID: votePrefix + "down:" + card.ID})
	}
	if len(controls) > 0 {
		m.Components = append(m.Components, discordgo.ActionsRow{Components: controls})
	}
	return m
}

// renderCardV2 lays out the card in Discord's components v2: a container
// in the verdict's colour holding the title and lines (a text display),
// the chart (a media gallery of the attached image) and, in small print,
// the thread's one notice; then the choices and the controls. notice, when
// set, is a text display above the container.
func renderCardV2(a bot.Answer, card bot.Card, chart *chartImage, footer, notice, web, question string) outMessage {
	classic := renderCard(a, card, chart != nil, footer, web, question)
	e := classic.Embeds[0]
	color := e.Color
	inner := []discordgo.MessageComponent{discordgo.TextDisplay{Content: "### " + e.Title + "\n" + e.Description}}
	if chart != nil {
		alt := chart.alt
		inner = append(inner, discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{
			Media: discordgo.UnfurledMediaItem{URL: "attachment://" + chartFile}, Description: &alt}}})
	}
	if e.Footer != nil {
		inner = append(inner, discordgo.TextDisplay{Content: "-# " + e.Footer.Text})
	}
	var top []discordgo.MessageComponent
	if notice != "" {
		top = append(top, discordgo.TextDisplay{Content: notice})
	}
	top = append(top, discordgo.Container{AccentColor: &color, Components: inner})
	return outMessage{Components: append(top, classic.Components...), Flags: discordgo.MessageFlagsIsComponentsV2}
}

// withNotice adds a notice to a message: above a components-v2 card as a
// text display, else to its content.
func withNotice(m outMessage, notice string) outMessage {
	if notice == "" {
		return m
	}
	if m.Flags&discordgo.MessageFlagsIsComponentsV2 != 0 {
		m.Components = append([]discordgo.MessageComponent{discordgo.TextDisplay{Content: notice}}, m.Components...)
		return m
	}
	m.Content = joinContent(m.Content, notice)
	return m
}

// verdictColor is the embed colour of a verdict: green yes, red no, grey
// about the same, amber partly; the kind's colour otherwise.
func verdictColor(verdict string, kind int) int {
	switch verdict {
	case "yes":
		return 0x38A169
	case "no":
		return 0xC53030
	case "about the same":
		return 0x718096
	case "partly":
		return 0xD69E2E
	}
	return kind
}

// escapeMarkdown keeps a card line's own characters from turning into
// Discord formatting.
func escapeMarkdown(s string) string {
	return strings.NewReplacer("*", "\\*", "_", "\\_", "`", "\\`", "~", "\\~", "|", "\\|").Replace(s)
}

// webLink is the address of the question on the web page, or "" without a
// public URL.
func webLink(base, question string, a bot.Answer) string {
	base = strings.TrimRight(base, "/")
	switch {
	case base == "":
		return ""
	case question != "":
		return base + "/?q=" + url.QueryEscape(question)
	case len(a.Sources.Filters) > 0:
		return base + "/runs?filter=" + url.QueryEscape(a.Sources.Filters[0])
	}
	return ""
}

// evidenceMessages are the messages Show evidence posts: the whole
// answer's evidence (everything the card leaves out, and its sources).
func evidenceMessages(a bot.Answer, web string) []outMessage {
	_, color := kindStyle(a.Kind)
	var footer string
	if len(a.Rows) > 0 || len(a.Nearest) > 0 || a.Table != nil {
		footer = "memdb-oracle · numbers are medians across repetitions of measured runs"
	}
	fields := answerFields(a)
	if web != "" {
		fields = linkedSources(fields, a.Sources, web)
	}
	return packMessages(packEmbeds("Evidence", color, descriptionParts(a), fields, footer))
}

// linkedSources replaces the filter and run fields by links to the web
// pages of each filter and run.
func linkedSources(fs []field, s bot.Sources, web string) []field {
	web = strings.TrimRight(web, "/")
	out := fs[:0:0]
	for _, f := range fs {
		switch {
		case (f.name == "Filter" || f.name == "Filters") && len(s.Filters) > 0:
			var lines []string
			for _, flt := range s.Filters {
				lines = append(lines, "["+escapeLinkText(strings.ReplaceAll(flt, "`", "'"))+"]("+web+"/runs?filter="+url.QueryEscape(flt)+")")
			}
			f.value = strings.Join(lines, "\n")
		case strings.HasPrefix(f.name, "Runs (") && len(s.RunIDs) > 0:
			var lines []string
			for i, id := range s.RunIDs {
				if i == maxRunIDs {
					lines = append(lines, "and "+strconv.Itoa(len(s.RunIDs)-maxRunIDs)+" more")
					break
				}
				lines = append(lines, "["+id+"]("+web+"/runs/"+url.PathEscape(id)+")")
			}
			f.value = strings.Join(lines, "\n")
		}
		out = append(out, f)
	}
	return out
}

// cardStore is the adapter's memory of posted cards: Deliveries when it is
// a whole KV (Badger, or the shared store), else this process's recent
// cards.
func cardStore(d Deliveries) bot.CardKV {
	if kv, ok := d.(bot.CardKV); ok {
		return kv
	}
	recent, _ := lru.New[string, []byte](recentDeliveriesSize)
	return recentCards{recent}
}

// recentCards keeps the most recent cards of one process.
type recentCards struct{ c *lru.Cache[string, []byte] }

func (r recentCards) Get(_ context.Context, key string) ([]byte, bool, error) {
	v, ok := r.c.Get(key)
	return v, ok, nil
}

func (r recentCards) SetIfAbsent(_ context.Context, key string, value []byte, _ time.Duration) (bool, error) {
	ok, _ := r.c.ContainsOrAdd(key, value)
	return !ok, nil
}

// onCardButton handles Show evidence and 👍/👎 clicks; it reports whether
// the click was one of them.
func (a *Adapter) onCardButton(ctx context.Context, i *discordgo.Interaction, customID string) bool {
	switch {
	case strings.HasPrefix(customID, evidencePrefix):
		a.showEvidence(ctx, i, strings.TrimPrefix(customID, evidencePrefix))
		return true
	case strings.HasPrefix(customID, votePrefix):
		rest := strings.TrimPrefix(customID, votePrefix)
		id, up := strings.CutPrefix(rest, "up:")
		if !up {
			id = strings.TrimPrefix(rest, "down:")
		}
		a.recordVote(ctx, i, id, up)
		return true
	}
	return false
}

// showEvidence posts the evidence of card id where the card is, once per
// card message.
func (a *Adapter) showEvidence(ctx context.Context, i *discordgo.Interaction, id string) {
	if err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate,
		Data: &discordgo.InteractionResponseData{AllowedMentions: noMentions()}}, rest(ctx)); err != nil {
		a.log.Error("discord: acknowledging Show evidence failed", "err", err)
		return
	}
	s, ok, err := a.cards.Recall(ctx, id)
	if err != nil || !ok {
		a.followUp(ctx, i, []outMessage{{Content: "That answer's evidence is no longer kept; ask the question again to see it."}}, true)
		return
	}
	posted := i.ChannelID
	if i.Message != nil {
		posted += "/" + i.Message.ID
	}
	if first, err := a.cards.FirstEvidence(ctx, posted); err == nil && !first {
		return // already in the thread
	}
	// A card in a channel that opened a thread (a slash command's answer)
	// gets its evidence in that thread, which shares the card's id.
	target := i.ChannelID
	if i.Message != nil {
		if info, ok := a.channels.get(i.Message.ID); ok && info.thread {
			target = i.Message.ID
		} else if i.Message.Thread != nil && i.Message.Thread.ID != "" {
			target = i.Message.Thread.ID
		}
	}
	for n, m := range evidenceMessages(s.Answer, a.cfg.PublicURL) {
		if _, err := a.send(ctx, target, m, nil, nil); err != nil {
			a.log.Error("discord: posting the evidence failed", "channel", target, "part", n+1, "err", err)
			return
		}
	}
}

// recordVote stores a 👍/👎 click and tells the voter, privately.
func (a *Adapter) recordVote(ctx context.Context, i *discordgo.Interaction, id string, up bool) {
	text := "Thanks — noted. Click the other one to change your vote."
	if a.feedback == nil {
		text = "Thanks. (This deployment keeps no feedback.)"
	} else {
		s, ok, err := a.cards.Recall(ctx, id)
		if err != nil || !ok {
			s = bot.Shown{Card: bot.Card{ID: id}}
		}
		if _, err := a.feedback.Record(ctx, bot.VoteFor(s, "discord", interactionUser(i), up, time.Now())); err != nil {
			a.log.Error("discord: storing feedback failed", "err", err)
			text = "Sorry — your vote could not be stored; please try again."
		}
	}
	err := a.s.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions()}}, rest(ctx))
	if err != nil {
		a.log.Error("discord: answering a vote failed", "err", err)
	}
}
