package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/adapters/web"
)

// checkSettings reports every problem in the resolved settings, one error
// per problem, before the program opens or writes anything: a token in the
// wrong format, a port out of range, a URL that is not one, a cron spec
// that never fires, an adapter half configured. The parsers the commands
// use later run here too (digestSchedule, discordSettings …), so a value
// that passes here is never refused later.
func checkSettings(get func(string) string) []error {
	var problems []error
	add := func(err error) {
		if err != nil {
			problems = append(problems, err)
		}
	}
	add(checkListenAddr("MEMDB_ORACLE_HTTP_ADDR", get("MEMDB_ORACLE_HTTP_ADDR")))
	if err := web.CheckBasePath(get("MEMDB_ORACLE_BASE_PATH")); err != nil {
		add(fmt.Errorf("MEMDB_ORACLE_BASE_PATH: %w", err))
	}
	for _, name := range []string{"SLACK_API_URL", "DISCORD_API_BASE", "MEMDB_ORACLE_LLM_BASE_URL"} {
		add(checkURL(name, get(name), "http", "https"))
	}
	add(checkURL("MEMDB_ORACLE_STATE_URL", get("MEMDB_ORACLE_STATE_URL"), "redis", "rediss", "unix"))
	if ca := get("MEMDB_ORACLE_STATE_CA_FILE"); ca != "" {
		if !strings.HasPrefix(get("MEMDB_ORACLE_STATE_URL"), "rediss://") {
			add(errors.New("MEMDB_ORACLE_STATE_CA_FILE is set but MEMDB_ORACLE_STATE_URL is not a rediss:// (TLS) URL"))
		} else if _, err := os.Stat(ca); err != nil {
			add(fmt.Errorf("MEMDB_ORACLE_STATE_CA_FILE: %w", err))
		}
	}

	add(checkToken("SLACK_BOT_TOKEN", get("SLACK_BOT_TOKEN"), slackBotToken, "a Slack bot token starts with xoxb- (OAuth & Permissions → Bot User OAuth Token)"))
	add(checkToken("SLACK_APP_TOKEN", get("SLACK_APP_TOKEN"), slackAppToken, "a Slack app-level token starts with xapp- (Basic Information → App-Level Tokens, scope connections:write)"))
	add(checkToken("SLACK_SIGNING_SECRET", get("SLACK_SIGNING_SECRET"), noSpace, "a signing secret is one word (Basic Information → Signing Secret)"))
	// The portal's token may be pasted with its "Bot " prefix; the adapter
	// accepts both.
	add(checkToken("DISCORD_BOT_TOKEN", strings.TrimPrefix(get("DISCORD_BOT_TOKEN"), "Bot "), discordToken,
		"a Discord bot token is three dot-separated parts (Developer Portal → Bot → Reset Token)"))
	for _, name := range []string{"DISCORD_APP_ID", "DISCORD_GUILD_ID"} {
		if v := get(name); v != "" && !snowflake().MatchString(v) {
			add(fmt.Errorf("%s=%q: want the numeric id (Developer Portal → General Information, or Copy ID)", name, v))
		}
	}
	if (get("SLACK_SIGNING_SECRET") != "" || get("SLACK_APP_TOKEN") != "") && get("SLACK_BOT_TOKEN") == "" {
		add(errors.New("SLACK_SIGNING_SECRET or SLACK_APP_TOKEN is set but SLACK_BOT_TOKEN is not"))
	}
	if _, err := discordSettings(get); err != nil {
		add(err)
	}
	if _, _, err := digestSchedule(get); err != nil {
		add(err)
	}
	for _, p := range []struct{ channels, token string }{
		{"MEMDB_ORACLE_DIGEST_SLACK_CHANNELS", "SLACK_BOT_TOKEN"},
		{"MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS", "DISCORD_BOT_TOKEN"},
	} {
		if get(p.channels) != "" && get(p.token) == "" {
			add(fmt.Errorf("%s is set but %s is not: the digest cannot be posted there", p.channels, p.token))
		}
	}
	return problems
}

// Compiled on first use: a process that never needs it does not pay for it at start.
var (
	slackBotToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^xoxb-[A-Za-z0-9-]+$`) })
	slackAppToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^xapp-[A-Za-z0-9-]+$`) })
	noSpace       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\S+$`) })
	// discordToken is a bot token's shape: the bot's id, a timestamp and
	// an HMAC, each base64url, joined by dots.
	discordToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$`) })
	snowflake    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{1,20}$`) })
)

// checkToken refuses a credential of the wrong shape without echoing it.
func checkToken(name, value string, shape func() *regexp.Regexp, hint string) error {
	if value == "" || shape().MatchString(value) {
		return nil
	}
	return fmt.Errorf("%s is not in the expected format: %s (value not shown)", name, hint)
}

// checkListenAddr wants host:port with a port from 0 (any free one) to 65535.
func checkListenAddr(name, addr string) error {
	if addr == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s=%q: want HOST:PORT, e.g. localhost:8080 or :8080", name, addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%s=%q: the port must be a number from 0 to 65535", name, addr)
	}
	return nil
}

// checkURL wants an absolute URL with one of the schemes (and a host,
// except for unix sockets). The value is not echoed: it may hold a
// password.
func checkURL(name, raw string, schemes ...string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	want := strings.Join(schemes, "://, ") + "://"
	if err != nil {
		return fmt.Errorf("%s is not a URL (want %s…)", name, want)
	}
	for _, s := range schemes {
		if u.Scheme == s && (u.Host != "" || s == "unix") {
			return nil
		}
	}
	return fmt.Errorf("%s: want an absolute URL starting with %s, got scheme %q and host %q", name, want, u.Scheme, u.Hostname())
}
