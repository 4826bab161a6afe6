package slack

import (
	"context"
	"errors"
	"fmt"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// place is where a question came from and where its answer goes.
type place struct {
	channel string
	user    string // the asker: ephemeral notices go to them
	// thread is the thread to answer in; empty posts the answer at the top
	// of the channel with its details in the answer's own thread.
	thread string
	// responseURL (slash commands, buttons) carries ephemeral replies, and
	// the answer itself when the bot cannot post in the channel.
	responseURL string
	// conversation is bot.Message.Thread: the thread memory follow-ups use.
	conversation string
	show         shown
	// unasked marks a message in a bot thread that did not mention the
	// bot: it is answered only if it asks something (not chatter).
	unasked bool
	// question is what was asked, for the card's memory.
	question string
	// hold is the question's journal entry: the answer's posts are
	// recorded there (nil: not recorded).
	hold *bot.Hold
}

// answer asks the bot and delivers its answer.
func (a *Adapter) answer(ctx context.Context, p place, text string) error {
	p.question = text
	return a.deliver(ctx, p, a.cfg.Handler.Handle(ctx, botMessage(p, text)))
}

// botMessage is the question as the bot sees it.
func botMessage(p place, text string) bot.Message {
	return bot.Message{
		Platform: "slack",
		Channel:  p.channel,
		Thread:   p.conversation,
		User:     p.user,
		Text:     text,
		Received: time.Now(),
	}
}

// deliver posts an answer: errors, rate-limit notices and help only to the
// asker; chatter in a thread (thanks, lol) not at all unless the bot was
// mentioned; anything else as the reply in the channel or thread, the
// evidence in the reply's thread, then the chart. A follow-up's sources
// list only what the thread has not seen. The text is posted before the
// chart, so a chart that fails never holds back the answer. A post Slack
// refuses for good is told to the asker privately.
func (a *Adapter) deliver(ctx context.Context, p place, ans bot.Answer) error {
	return a.deliverStreamed(ctx, p, ans, nil)
}

// deliverStreamed delivers an answer as deliver does; st, when not nil, is
// the stream its stages went to, which the card ends. An answer that is
// no card (an error, help) ends the stream with its stages alone and goes
// as it always does; a stream Slack will not end leaves the card to an
// ordinary post.
func (a *Adapter) deliverStreamed(ctx context.Context, p place, ans bot.Answer, st *answerStream) error {
	endBare := func() {
		if st == nil {
			return
		}
		if _, err := st.stop(ctx, ans, nil); err != nil {
			a.log.Warn("ending the streamed answer failed", "channel", p.channel, "err", err)
		}
	}
	if ans.Kind == bot.KindChatter && p.unasked {
		endBare()
		return nil
	}
	if private(ans) {
		endBare()
		return a.deliverPrivately(ctx, p, render(ans, shown{Command: a.cfg.Command, Private: true}))
	}
	where := p.show
	where.Web = a.cfg.PublicURL
	where.InlineChart = ans.Chart != nil
	card := bot.NewCard(ans)
	question := where.Question
	if question == "" {
		question = p.question
	}
	if err := a.cards.Remember(ctx, bot.Shown{Card: card, Question: question, Answer: ans,
		Platform: "slack", Channel: p.channel, Thread: p.conversation}); err != nil {
		a.log.Warn("keeping the card's evidence failed; Show evidence will ask again", "err", err)
	}
	m := renderCard(ans, card, where, question)
	var chart *bot.Chart
	if a.cfg.Charts != nil {
		chart = ans.Chart
	}
	job, err := answerJob(p, m, chart)
	if err != nil {
		return err
	}
	unlock := a.out.lanes.lock(p.channel)
	defer unlock()
	// A thread's first question reads alone: one that others viewing the
	// channel may be offered (a follow-up needs its thread).
	fresh := p.thread == ""
	if !fresh {
		_, followUp, err := a.conversationOf(ctx, p.channel, p.thread)
		fresh = err == nil && !followUp
	}
	post := a.postJob
	if st != nil {
		post = func(ctx context.Context, job *bot.PostJob, i int) (string, error) {
			if job.Posts[i].Kind != postCard {
				return a.postJob(ctx, job, i)
			}
			posted, err := st.stop(ctx, ans, &m)
			if err != nil {
				a.log.Warn("Slack would not end the streamed answer with its card; posting the card", "channel", p.channel, "err", err)
				return a.postJob(ctx, job, i)
			}
			a.cardPosted(ctx, job, i, st.ts, posted)
			return st.ts, nil
		}
	}
	err = p.hold.Post(ctx, job, post)
	switch {
	case err == nil:
		if card.Rated && fresh {
			a.noteAsked(ctx, p.channel, question)
		}
		return nil
	case errors.Is(err, bot.ErrLostJob):
		a.log.Warn("another replica took this answer over and completes it", "channel", p.channel)
		return nil
	case p.responseURL != "" && cannotPost(err):
		return a.respondInChannel(ctx, p, []message{m})
	}
	return a.refused(ctx, p, err)
}

// postCard posts a card, and when Slack refuses its newer blocks
// (invalid_blocks) each older form of it in turn. It returns the message
// that went.
func (a *Adapter) postCard(ctx context.Context, channel, thread string, m message) (string, message, error) {
	ts, err := a.out.post(ctx, channel, thread, m)
	for _, older := range m.Older {
		if err == nil || !slackRefused(err, "invalid_blocks") {
			break
		}
		a.log.Info("Slack refused the card's newer blocks; posting it with fewer", "channel", channel, "err", err)
		m = older
		ts, err = a.out.post(ctx, channel, thread, m)
	}
	return ts, m, err
}

// hasChartBlock reports whether a message carries Slack's chart block.
func hasChartBlock(m message) bool {
	for _, b := range m.Blocks {
		if b.BlockType() == slackgo.MBTDataVisualization {
			return true
		}
	}
	return false
}

// refused tells the asker privately that Slack would not take the answer
// (after the retries), and returns err for the log.
func (a *Adapter) refused(ctx context.Context, p place, err error) error {
	var b builder
	b.section("Slack would not take my answer to your question, so it is not in the channel. It has been logged; please ask again, perhaps more narrowly.")
	note := message{Text: "Slack would not take my answer; please ask again.", Blocks: b.blocks}
	if terr := a.deliverPrivately(ctx, place{channel: p.channel, user: p.user, thread: p.thread, responseURL: p.responseURL}, []message{note}); terr != nil {
		a.log.Warn("telling the asker that Slack refused the answer", "channel", p.channel, "user", p.user, "err", terr)
	}
	return err
}

// private reports whether an answer is for the asker's eyes only.
func private(ans bot.Answer) bool {
	if ans.Kind == bot.KindClarify {
		return false // its choices are picked in the thread, by anyone in it
	}
	return ans.Ephemeral || ans.Kind == bot.KindError || ans.Kind == bot.KindRateLimited || ans.Kind == bot.KindHelp
}

// deliverPrivately shows messages to the asker only: through the response
// URL where there is one, else as ephemeral messages.
func (a *Adapter) deliverPrivately(ctx context.Context, p place, msgs []message) error {
	for _, m := range msgs {
		var err error
		if p.responseURL != "" {
			err = a.out.respond(ctx, p.responseURL, m, false)
		} else {
			err = a.out.ephemeral(ctx, p.channel, p.user, p.thread, m)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// respondInChannel posts an answer through a response URL when the bot is
// not in the channel. A response URL takes five messages and has no
// thread, so a longer answer ends by saying how to get the rest.
func (a *Adapter) respondInChannel(ctx context.Context, p place, msgs []message) error {
	if len(msgs) > maxResponseCalls {
		var b builder
		b.context(fmt.Sprintf("%d more parts (sources and run IDs among them) did not fit. Invite me to this channel (`/invite @memdb-oracle`) and ask again to get the whole answer in a thread.", len(msgs)-maxResponseCalls+1))
		msgs = append(msgs[:maxResponseCalls-1:maxResponseCalls-1], message{Text: "The rest of the answer did not fit.", Blocks: b.blocks})
	}
	for _, m := range msgs {
		if err := a.out.respond(ctx, p.responseURL, m, true); err != nil {
			return err
		}
	}
	return nil
}

// postChart renders and uploads an answer's chart into its thread; a
// failure is logged and costs only the picture.
func (a *Adapter) postChart(ctx context.Context, channel, thread string, c bot.Chart) {
	png, err := a.cfg.Charts.Render(c)
	if err == nil && len(png) == 0 {
		err = errors.New("empty image")
	}
	if err != nil {
		a.log.Warn("chart not rendered; the answer went without it", "channel", channel, "thread", thread, "err", err)
		return
	}
	if err := a.out.upload(ctx, channel, thread, png, c.Title, c.AltText); err != nil {
		a.log.Warn("chart not uploaded; the answer went without it", "channel", channel, "thread", thread, "err", err)
	}
}
