package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// serveDigest returns the digest schedule's run function when
// MEMDB_ORACLE_DIGEST_CRON and at least one digest channel are set, or the
// reason it is off.
func (a *app) serveDigest(_ *http.ServeMux) (run func(ctx context.Context) error, off string, err error) {
	sched, on, err := digestSchedule(a.cfg.Getenv)
	if err != nil {
		return nil, "", err
	}
	if !on {
		return nil, "digest schedule off: set MEMDB_ORACLE_DIGEST_CRON (e.g. \"0 9 * * MON\") and MEMDB_ORACLE_DIGEST_SLACK_CHANNELS or MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS to post the findings digest", nil
	}
	targets, err := a.digestTargets()
	if err != nil {
		return nil, "", err
	}
	if len(targets) == 0 {
		return nil, "digest schedule off: MEMDB_ORACLE_DIGEST_CRON is set but no channel is: set MEMDB_ORACLE_DIGEST_SLACK_CHANNELS or MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS", nil
	}
	pub, err := a.digestPublisher()
	if err != nil {
		return nil, "", err
	}
	return func(ctx context.Context) error { return pub.Run(ctx, sched) }, "", nil
}

// digestSchedule parses MEMDB_ORACLE_DIGEST_CRON, _TZ and _CATCHUP (also
// checkSettings' check); on is false when no cron spec is set.
func digestSchedule(getenv func(string) string) (sched bot.DigestSchedule, on bool, err error) {
	spec := strings.TrimSpace(getenv("MEMDB_ORACLE_DIGEST_CRON"))
	if spec == "" {
		return sched, false, nil
	}
	sched = bot.DigestSchedule{Cron: spec, CatchUp: true}
	if tz := strings.TrimSpace(getenv("MEMDB_ORACLE_DIGEST_TZ")); tz != "" {
		loc, err := time.LoadLocation(tz)
		if err != nil {
			return sched, false, fmt.Errorf("MEMDB_ORACLE_DIGEST_TZ=%q: %w", tz, err)
		}
		sched.Location = loc
	}
	switch strings.ToLower(strings.TrimSpace(getenv("MEMDB_ORACLE_DIGEST_CATCHUP"))) {
	case "", "1", "true", "yes", "on":
	case "0", "false", "no", "off":
		sched.CatchUp = false
	default:
		return sched, false, fmt.Errorf("MEMDB_ORACLE_DIGEST_CATCHUP must be true or false")
	}
	if err := sched.Validate(); err != nil {
		return sched, false, fmt.Errorf("MEMDB_ORACLE_DIGEST_CRON: %w", err)
	}
	return sched, true, nil
}
