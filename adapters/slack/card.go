package slack

import (
	"context"
	"net/url"
	"strings"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// An answer goes to the channel as one message, its card (bot.NewCard):
// a few lines that answer, the clarify's choices, and the controls —
// Show evidence (the rows, filters, run IDs and sources, posted in the
// thread once, when asked), Open on the web (with a public URL) and
// Slack's own feedback buttons.

// Action ids of the card's controls.
const (
	evidenceAction = "oracle_evidence"
	webAction      = "oracle_web"
	feedbackAction = "oracle_feedback"
)

// Feedback button values: the vote, a colon, the card's id.
const (
	voteUp   = "up:"
	voteDown = "down:"
)

// renderCard lays out an answer's card as one message: its body in
// Slack's markdown block (standard Markdown, no mrkdwn escaping), the
// chart as Slack's own chart block. Older holds the same card for a
// workspace that refuses those blocks (invalid_blocks): without the chart
// block (the chart then follows as an image), then also with the body as
// an mrkdwn section, which every workspace takes.
func renderCard(a bot.Answer, card bot.Card, where shown, question string) message {
	m := cardMessage(a, card, where, question, true)
	noChart := where
	noChart.InlineChart = false
	if hasChartBlock(m) {
		m.Older = append(m.Older, cardMessage(a, card, noChart, question, true))
	}
	m.Older = append(m.Older, cardMessage(a, card, noChart, question, false))
	return m
}

// cardMessage lays out the card, its body as a markdown block or as an
// mrkdwn section.
func cardMessage(a bot.Answer, card bot.Card, where shown, question string, markdownBody bool) message {
	var b builder
	if where.Question != "" {
		asker := "Asked"
		if where.Asker != "" {
			asker = "<@" + where.Asker + "> asked"
		}
		b.context("*" + asker + ":* " + escape(where.Question))
	}
	if markdownBody {
		b.markdownBody(card)
	} else {
		b.section(cardMrkdwn(card))
	}
	if len(card.Choices) > 0 {
		b.choices(card.Choices)
	}
	if a.Chart != nil && where.InlineChart {
		b.blocks = append(b.blocks, chartBlocks(*a.Chart)...)
	}
	var controls []slackgo.BlockElement
	if card.Evidence {
		controls = append(controls, slackgo.NewButtonBlockElement(evidenceAction, card.ID,
			slackgo.NewTextBlockObject(slackgo.PlainTextType, "Show evidence", false, false)))
	}
	if link := webLink(where.Web, question, a); link != "" {
		open := slackgo.NewButtonBlockElement(webAction, card.ID,
			slackgo.NewTextBlockObject(slackgo.PlainTextType, "Open on the web", false, false))
		open.URL = link
		controls = append(controls, open)
	}
	if len(controls) > 0 {
		b.blocks = append(b.blocks, slackgo.NewActionBlock("oracle_card", controls...))
	}
	if card.Rated {
		up := slackgo.NewFeedbackButton(slackgo.NewTextBlockObject(slackgo.PlainTextType, "👍", true, false), voteUp+card.ID).
			WithAccessibilityLabel("This answer was useful")
		down := slackgo.NewFeedbackButton(slackgo.NewTextBlockObject(slackgo.PlainTextType, "👎", true, false), voteDown+card.ID).
			WithAccessibilityLabel("This answer was wrong or unhelpful")
		b.blocks = append(b.blocks, slackgo.NewContextActionsBlock("oracle_feedback",
			slackgo.NewFeedbackButtonsBlockElement(feedbackAction, up, down)))
	}
	text := card.Lead
	if text == "" {
		text = "memdb-oracle answer"
	}
	return message{Text: truncate(text, maxFallbackText), Blocks: b.blocks}
}

// cardMrkdwn is the card's body in mrkdwn: the lead in bold, then its
// lines.
func cardMrkdwn(card bot.Card) string {
	lines := make([]string, 0, bot.CardMaxLines)
	if card.Lead != "" {
		lines = append(lines, "*"+escape(card.Lead)+"*")
	}
	for _, l := range card.Lines {
		lines = append(lines, escape(l))
	}
	return strings.Join(lines, "\n")
}

// markdownBody adds the card's body as one markdown block: the lead in
// bold, then its lines, each a paragraph of its own. The card's text is
// plain, so only Markdown's own markers are escaped; Slack's limit of
// 12,000 characters for a message's markdown blocks is far above a
// card's 600 (bot.CardMaxChars).
func (b *builder) markdownBody(card bot.Card) {
	paras := make([]string, 0, bot.CardMaxLines)
	if card.Lead != "" {
		paras = append(paras, "**"+markdownInline(card.Lead)+"**") // "**" first: never a list
	}
	for _, l := range card.Lines {
		paras = append(paras, markdownEscape(l))
	}
	if len(paras) == 0 {
		return
	}
	b.blocks = append(b.blocks, slackgo.NewMarkdownBlock("oracle_body", strings.Join(paras, "\n\n")))
}

// webLink is the address that shows the question on the web page (its
// box filled, asked on a click there), or "" without a public URL.
func webLink(base, question string, a bot.Answer) string {
	base = strings.TrimRight(base, "/")
	if base == "" {
		return ""
	}
	q := question
	if q == "" && len(a.Sources.Filters) > 0 {
		return base + "/runs?filter=" + url.QueryEscape(a.Sources.Filters[0])
	}
	if q == "" {
		return ""
	}
	return base + "/?q=" + url.QueryEscape(q)
}

// evidenceMessages are the messages "Show evidence" posts: everything the
// card leaves out (bot.Split's evidence) and the sources the thread has
// not seen.
func evidenceMessages(a bot.Answer, where shown) []message {
	// The whole answer: the card said only part of the headline and
	// reading, so the evidence repeats neither less nor more.
	return evidencePages(a, fallbackText(bot.Reply{Lines: []string{a.Headline}}), where)
}

// onCardAction handles a click on a card's control: Show evidence posts
// the evidence in the card's thread (once per card), a feedback button
// records the vote. It reports whether the action was one of them.
func (a *Adapter) onCardAction(cb slackgo.InteractionCallback, act *slackgo.BlockAction) bool {
	channel := cb.Channel.ID
	if channel == "" {
		channel = cb.Container.ChannelID
	}
	messageTS := cb.Container.MessageTs
	if messageTS == "" {
		messageTS = cb.Message.Timestamp
	}
	thread := cb.Container.ThreadTs
	if thread == "" {
		thread = cb.Message.ThreadTimestamp
	}
	if thread == "" {
		thread = messageTS // the card opened its own thread
	}
	p := place{channel: channel, user: cb.User.ID, responseURL: cb.ResponseURL, thread: thread}
	switch {
	case act.ActionID == evidenceAction:
		id := strings.TrimSpace(act.Value)
		_ = a.queue("show evidence", p, "", func(ctx context.Context) error {
			return a.showEvidence(ctx, p, id, channel+"/"+messageTS)
		})
		return true
	case act.ActionID == webAction:
		return true // a link: Slack opens it, nothing to post
	case act.ActionID == feedbackAction || act.Type == "feedback_buttons":
		id, up := strings.CutPrefix(act.Value, voteUp)
		if !up {
			var ok bool
			if id, ok = strings.CutPrefix(act.Value, voteDown); !ok {
				return true
			}
		}
		_ = a.queue("feedback", p, "", func(ctx context.Context) error {
			return a.recordVote(ctx, p, id, up)
		})
		return true
	}
	return false
}

// showEvidence posts the evidence of the card id into the thread p, once
// per card message.
func (a *Adapter) showEvidence(ctx context.Context, p place, id, posted string) error {
	s, ok, err := a.cards.Recall(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		return a.deliverPrivately(ctx, p, []message{notice("That answer's evidence is no longer kept; ask the question again to see it.")})
	}
	if first, err := a.cards.FirstEvidence(ctx, posted); err != nil {
		a.log.Warn("recording that the evidence was shown; showing it anyway", "err", err)
	} else if !first {
		return nil // already in the thread
	}
	where := shown{Seen: a.seenSources(ctx, p.channel, p.thread, s.Answer.Sources), Web: a.cfg.PublicURL}
	unlock := a.out.lanes.lock(p.channel)
	defer unlock()
	msgs := evidenceMessages(s.Answer, where)
	for i, m := range msgs {
		if _, err := a.out.postMessage(ctx, p.channel, p.thread, m); err != nil {
			if i == 0 && p.responseURL != "" && cannotPost(err) {
				return a.respondInChannel(ctx, p, msgs) // the bot is not in the channel
			}
			return a.refused(ctx, p, err)
		}
	}
	return nil
}

// recordVote stores a feedback click on the card id.
func (a *Adapter) recordVote(ctx context.Context, p place, id string, up bool) error {
	if a.feedback == nil {
		a.log.Warn("feedback click not stored: the adapter's store keeps no feedback", "card", id)
		return nil
	}
	s, ok, err := a.cards.Recall(ctx, id)
	if err != nil {
		return err
	}
	if !ok {
		s = bot.Shown{Card: bot.Card{ID: id}}
	}
	changed, err := a.feedback.Record(ctx, bot.VoteFor(s, "slack", p.user, up, a.now()))
	if err != nil {
		return err
	}
	if changed && !up {
		return a.deliverPrivately(ctx, p, []message{notice("Thanks — noted. A maintainer can turn this answer into a test (`memdb-oracle feedback export`).")})
	}
	return nil
}

// notice is a one-section message.
func notice(text string) message {
	var b builder
	b.section(escape(text))
	return message{Text: text, Blocks: b.blocks}
}
