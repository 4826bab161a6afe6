package slack

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// The app's Home tab, published each time a user opens it: what the bot
// answers (bot.About), example questions as buttons that ask them in the
// user's DM with the app, and what the measured data covers, counted from
// the store (Config.Coverage).

// Coverage summarises the measured data; *bot.Dataset satisfies it.
type Coverage interface {
	CoverageByEngine() []bot.EngineCoverage
}

// onAppHomeOpened publishes the Home tab for the user who opened it. The
// view keeps the user's DM with the app in its private metadata: a click
// on an example there is answered in that DM.
func (a *Adapter) onAppHomeOpened(ctx context.Context, eventID string, e *slackevents.AppHomeOpenedEvent) {
	if e.Tab != "home" || e.User == "" || !a.firstDelivery(ctx, eventID) {
		return
	}
	p := place{channel: e.Channel, user: e.User}
	_ = a.queue("home tab", p, "", func(ctx context.Context) error {
		view := a.homeView(e.Channel)
		return a.out.retry(ctx, "views.publish", e.Channel, func(ctx context.Context) error {
			_, err := a.api.PublishViewContext(ctx, slackgo.PublishViewContextRequest{UserID: e.User, View: view})
			return err
		})
	})
}

// homeView lays out the Home tab.
func (a *Adapter) homeView(dm string) slackgo.HomeTabViewRequest {
	var b builder
	headline, about := bot.About()
	b.blocks = append(b.blocks, header(headline))
	for _, p := range about {
		b.section(mrkdwnText(p))
	}
	b.blocks = append(b.blocks, header("Try asking"))
	b.buttons(bot.Examples())
	if a.cfg.Coverage != nil {
		if lines := coverageLines(a.cfg.Coverage.CoverageByEngine()); len(lines) > 0 {
			b.blocks = append(b.blocks, header("What was measured"))
			b.section(strings.Join(lines, "\n"))
		}
	}
	b.context(fmt.Sprintf("Ask in the Messages tab, mention me in a channel, or use `%s` — in a thread, follow-ups keep the earlier settings.", a.cfg.Command))
	return slackgo.HomeTabViewRequest{Type: slackgo.VTHomeTab, Blocks: slackgo.Blocks{BlockSet: b.blocks}, PrivateMetadata: dm}
}

// maxHeader is the most characters a header block's text holds.
const maxHeader = 150

func header(text string) *slackgo.HeaderBlock {
	return slackgo.NewHeaderBlock(slackgo.NewTextBlockObject(slackgo.PlainTextType, truncate(text, maxHeader), false, false))
}

// coverageLines are the coverage as mrkdwn lines: the runs in all, then
// one line per engine.
func coverageLines(cov []bot.EngineCoverage) []string {
	if len(cov) == 0 {
		return nil
	}
	total := 0
	lines := make([]string, 0, len(cov)+1)
	for _, e := range cov {
		total += e.Runs
		lines = append(lines, fmt.Sprintf("• *%s* — %s, %s %s; %s cores; pipeline %s", escape(e.Name), counted(e.Runs, "run", "runs"),
			plural(len(e.Sessions), "session", "sessions"), joinInts(e.Sessions), joinInts(e.Cores), joinInts(e.Pipelines)))
	}
	head := counted(total, "measured run", "measured runs") + "; a figure from them is the median across a cell's repetitions."
	return append([]string{head}, lines...)
}

// joinInts writes numbers as a list ("4, 8, 16 and 48").
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
