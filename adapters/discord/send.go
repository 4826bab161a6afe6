package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// noMentions lets nothing in a message ping anyone: not @everyone, not a
// role, not a user, not the author replied to. Every message the bot sends
// carries it, so text from data or from a question cannot ping.
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

// chartImage is a rendered chart ready to attach.
type chartImage struct {
	png []byte
	alt string
}

// attachment describes an uploaded file in the JSON payload; Description is
// the image's alt text.
type attachment struct {
	ID          int    `json:"id"`
	Filename    string `json:"filename"`
	Description string `json:"description,omitempty"`
}

// renderChart draws the answer's chart, or returns nil when there is none
// or drawing fails (the text answer goes out regardless).
func (a *Adapter) renderChart(ans bot.Answer) *chartImage {
	if a.charts == nil || ans.Chart == nil {
		return nil
	}
	return a.drawChart(*ans.Chart)
}

// drawChart draws a chart, or returns nil when drawing fails.
func (a *Adapter) drawChart(c bot.Chart) *chartImage {
	if a.charts == nil {
		return nil
	}
	png, err := a.charts.Render(c)
	if err != nil {
		a.log.Warn("discord: drawing the chart failed; answering without it", "chart", c.Title, "err", err)
		return nil
	}
	alt := c.AltText
	if alt == "" {
		alt = c.Title
	}
	return &chartImage{png: png, alt: truncate(alt, maxAltText)}
}

// multipart builds a request body carrying payload as JSON and the chart as
// files[0], described (alt text) in the payload's attachments.
func (c *chartImage) multipart(payload any) (contentType string, body []byte, err error) {
	raw, err := json.Marshal(payload)
	if err != nil {
		return "", nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return "", nil, err
	}
	att, err := json.Marshal([]attachment{{ID: 0, Filename: chartFile, Description: c.alt}})
	if err != nil {
		return "", nil, err
	}
	fields["attachments"] = att
	return discordgo.MultipartBodyWithJSON(fields, []*discordgo.File{
		{Name: chartFile, ContentType: "image/png", Reader: bytes.NewReader(c.png)},
	})
}

// withoutChart returns m with the first embed no longer pointing at the
// chart attachment (m itself is left unchanged).
func withoutChart(m outMessage) outMessage {
	out := outMessage{Content: m.Content, Embeds: append([]*discordgo.MessageEmbed(nil), m.Embeds...), Flags: m.Flags}
	for _, c := range m.Components {
		if p, ok := c.(*discordgo.Container); ok { // read back from the journal
			c = *p
		}
		if box, ok := c.(discordgo.Container); ok {
			var kept []discordgo.MessageComponent
			for _, k := range box.Components {
				_, gallery := k.(discordgo.MediaGallery)
				_, read := k.(*discordgo.MediaGallery)
				if !gallery && !read {
					kept = append(kept, k)
				}
			}
			box.Components = kept
			c = box
		}
		out.Components = append(out.Components, c)
	}
	if len(out.Embeds) > 0 && out.Embeds[0].Image != nil {
		e := *out.Embeds[0]
		e.Image = nil
		out.Embeds[0] = &e
	}
	return out
}

func joinContent(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "\n" + b
}

// reply makes a message answer the question in place (without pinging its
// author, and still posting if the question was deleted meanwhile).
func reply(m *discordgo.Message) *discordgo.MessageReference {
	no := false
	return &discordgo.MessageReference{MessageID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, FailIfNotExists: &no}
}

// postAnswer posts an answer to a channel or thread: the notice (if any)
// and the chart (if any) on the first message, ref (if any) making the
// first message a reply. The posts go through the question's journal
// entry h (nil: unrecorded).
func (a *Adapter) postAnswer(ctx context.Context, h *bot.Hold, channel string, q bot.Message, ans bot.Answer, notice string, ref *discordgo.MessageReference) error {
	job := &bot.PostJob{Channel: channel, Conversation: q.Thread}
	chart, err := a.answerPosts(ctx, job, channel, q, ans, notice, ref)
	if err != nil {
		return err
	}
	return h.Post(ctx, job, a.poster(chart))
}

// answerPosts adds an answer's messages to job, as postAnswer describes
// them, and returns the chart it drew for the first.
func (a *Adapter) answerPosts(ctx context.Context, job *bot.PostJob, channel string, q bot.Message, ans bot.Answer, notice string, ref *discordgo.MessageReference) (*chartImage, error) {
	chart := a.renderChart(ans)
	msgs := a.cardMessages(ctx, q, ans, chart, notice, true)
	if notice != noticeFollowUps && msgs[0].Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		msgs[0].Content = joinContent(notice, msgs[0].Content)
	}
	for i, m := range msgs {
		var spec *bot.Chart
		reply := ref
		if i == 0 && chart != nil {
			spec = ans.Chart
		}
		if i > 0 {
			reply = nil
		}
		body, err := journalMessageOf(channel, m, spec, reply)
		if err != nil {
			return nil, err
		}
		job.Posts = append(job.Posts, bot.JobPost{Kind: postMessage, Body: body})
	}
	return chart, nil
}

// cardMessages are what an answer posts before anyone clicks: its card
// (kept for Show evidence and votes), or, for a notice to the asker
// (help, errors), the whole notice. The follow-ups notice goes in the
// card's footer.
//
// With v2 the card is laid out in components v2; without (an edited
// slash-command response, which keeps its first form) in an embed.
func (a *Adapter) cardMessages(ctx context.Context, q bot.Message, ans bot.Answer, chart *chartImage, notice string, v2 bool) []outMessage {
	if private(ans) && ans.Kind != bot.KindChatter {
		return renderAnswer(ans, chart != nil)
	}
	card := bot.NewCard(ans)
	if err := a.cards.Remember(ctx, bot.Shown{Card: card, Answer: ans, Question: q.Text, Platform: "discord", Channel: q.Channel, Thread: q.Thread}); err != nil {
		a.log.Warn("discord: keeping the card's evidence failed", "err", err)
	}
	footer, above := "", notice
	if notice == noticeFollowUps {
		footer, above = notice, ""
	}
	if v2 {
		return []outMessage{renderCardV2(ans, card, chart, footer, above, a.cfg.PublicURL, q.Text)}
	}
	return []outMessage{renderCard(ans, card, chart != nil, footer, a.cfg.PublicURL, q.Text)}
}

// sendFirst sends the first message of an answer with its chart; when the
// chart is refused (no Attach Files permission, too large) it sends the
// answer without it and says so once per channel.
func (a *Adapter) sendFirst(ctx context.Context, channel string, m outMessage, chart *chartImage, ref *discordgo.MessageReference) (*discordgo.Message, error) {
	msg, err := a.send(ctx, channel, m, chart, ref)
	if err == nil || chart == nil || !fileRefused(err) {
		return msg, err
	}
	a.log.Warn("discord: the chart was refused; posting the answer without it", "channel", channel, "err", err)
	m = withoutChart(m)
	if a.notices.first("chart/" + channel) {
		m = withNotice(m, noticeNoChart)
	}
	return a.send(ctx, channel, m, nil, ref)
}

// send posts one message, through discordgo's rate limiter and its retry
// on 429.
func (a *Adapter) send(ctx context.Context, channel string, m outMessage, chart *chartImage, ref *discordgo.MessageReference) (*discordgo.Message, error) {
	data := &discordgo.MessageSend{
		Content:         m.Content,
		Embeds:          m.Embeds,
		Components:      m.Components,
		AllowedMentions: noMentions(),
		Reference:       ref,
		Flags:           m.Flags,
	}
	if chart == nil {
		return a.s.ChannelMessageSendComplex(channel, data, rest(ctx))
	}
	contentType, body, err := chart.multipart(data)
	if err != nil {
		return nil, fmt.Errorf("encoding the message: %w", err)
	}
	endpoint := discordgo.EndpointChannelMessages(channel)
	resp, err := a.s.RequestRaw(http.MethodPost, endpoint, contentType, body, endpoint, 0, rest(ctx))
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(resp, &msg); err != nil {
		return nil, fmt.Errorf("decoding the posted message: %w", err)
	}
	return &msg, nil
}
