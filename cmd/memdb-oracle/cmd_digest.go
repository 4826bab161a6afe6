package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// digestCmd composes the findings digest and prints it or posts it now.
type digestCmd struct {
	Print bool `help:"Print the digest as Markdown without posting it."`
}

// Run prints the digest (--print) or posts it to every configured channel.
func (c digestCmd) Run(a *app) error {
	pub, err := a.digestPublisher()
	if err != nil {
		return err
	}
	if c.Print {
		src, err := a.digestSource()
		if err != nil {
			return err
		}
		last, err := pub.LastState(a.ctx)
		if err != nil {
			return err
		}
		d, err := src.Compose(a.ctx, last)
		if err != nil {
			return err
		}
		_, err = fmt.Fprint(a.stdout, d.Markdown())
		return err
	}
	rep, err := pub.Publish(a.ctx, time.Time{})
	if errors.Is(err, bot.ErrNoTargets) {
		return usageError{fmt.Errorf("%w: set MEMDB_ORACLE_DIGEST_SLACK_CHANNELS (with SLACK_BOT_TOKEN) or MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS (with DISCORD_BOT_TOKEN), or use --print", err)}
	}
	for _, r := range rep.Results {
		switch {
		case r.Posted:
			fmt.Fprintf(a.stdout, "posted to %s\n", r.Target)
		case r.Err != "":
			fmt.Fprintf(a.stdout, "NOT posted to %s after %d attempts: %s\n", r.Target, r.Attempts, r.Err)
		}
	}
	return err
}
