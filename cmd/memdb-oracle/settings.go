package main

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	httpadapter "github.com/memdb-oracle/memdb-oracle/adapters/http"
	"github.com/memdb-oracle/memdb-oracle/adapters/llm"
	"github.com/memdb-oracle/memdb-oracle/bot"
	"github.com/memdb-oracle/memdb-oracle/planner"
)

// settings declares every variable the program reads, each once: its
// flag, its environment variable (kong's env tag), its default and its
// help. --help lists them, a config file may set them, and
// docs/configuration.md is generated from them (TestConfigurationDoc).
// Values stay text here; loadConfig parses and checks them all before
// anything is opened, so every problem is reported at once.
type settings struct {
	Config string `name:"config" env:"MEMDB_ORACLE_CONFIG" group:"general" placeholder:"FILE" help:"A YAML file of settings (keys are the flag names, e.g. http-addr: localhost:9090); the environment and flags win over it."`
	Data   string `name:"data" env:"MEMDB_ORACLE_DATA" group:"general" placeholder:"DIR" help:"Data directory (default $XDG_DATA_HOME/memdb-oracle or ~/.local/share/memdb-oracle)."`
	// Deadline bounds one message, the language model included.
	Deadline  string `name:"deadline" env:"MEMDB_ORACLE_DEADLINE" group:"general" default:"${deadline}" placeholder:"DURATION" help:"How long one message may take, the language model included; past it the answer is an error saying so. Default: ${default}."`
	LogFormat string `name:"log-format" env:"MEMDB_ORACLE_LOG_FORMAT" group:"general" default:"auto" enum:"auto,text,json" placeholder:"auto|text|json" help:"How serve logs: auto is human lines on a terminal and JSON otherwise. Default: ${default}."`

	LLM        string `name:"llm" env:"MEMDB_ORACLE_LLM" group:"llm" placeholder:"PROVIDER" help:"Optional language model for wording the rules cannot place: ollama, openai (or any OpenAI-compatible server), anthropic, or empty for none. It never writes numbers."`
	LLMModel   string `name:"llm-model" env:"MEMDB_ORACLE_LLM_MODEL" group:"llm" placeholder:"NAME" help:"The model's name; empty picks the provider's default (ollama ${ollama_model}, openai ${openai_model}, anthropic ${anthropic_model})."`
	LLMBaseURL string `name:"llm-base-url" env:"MEMDB_ORACLE_LLM_BASE_URL" group:"llm" placeholder:"URL" help:"The model server's base URL (default: the provider's public API; ollama: http://localhost:11434)."`
	LLMAPIKey  string `name:"llm-api-key" env:"MEMDB_ORACLE_LLM_API_KEY" group:"llm" placeholder:"KEY" help:"The model server's API key (prefer the environment to a flag; never logged)."`
	LLMTimeout string `name:"llm-timeout" env:"MEMDB_ORACLE_LLM_TIMEOUT" group:"llm" default:"${llm_timeout}" placeholder:"DURATION" help:"The model's budget per question, capped at three quarters of the deadline. Default: ${default}."`

	HTTPAddr       string `name:"http-addr" env:"MEMDB_ORACLE_HTTP_ADDR" group:"http" default:"${http_addr}" placeholder:"HOST:PORT" help:"Where serve listens for the web pages, /api/ask, /healthz, /metrics and the Slack endpoints (port 0 picks a free one). Default: ${default}."`
	BasePath       string `name:"base-path" env:"MEMDB_ORACLE_BASE_PATH" group:"http" placeholder:"/PATH" help:"Path prefix of the web pages behind a reverse proxy that forwards a sub-path unchanged, e.g. /oracle."`
	APIKeys        string `name:"api-keys" env:"MEMDB_ORACLE_API_KEYS" group:"http" placeholder:"KEY,..." help:"Comma-separated bearer keys for the HTTP API and pages, each at least 32 characters; none leaves them open, limited per client address."`
	AdminToken     string `name:"admin-token" env:"MEMDB_ORACLE_ADMIN_TOKEN" group:"http" placeholder:"TOKEN" help:"Enables POST /api/import and import --remote with this bearer token."`
	TrustedProxies string `name:"trusted-proxies" env:"MEMDB_ORACLE_TRUSTED_PROXIES" group:"http" placeholder:"CIDR,..." help:"Reverse proxies whose Forwarded / X-Forwarded-For headers name the client."`
	WebPublic      string `name:"web-public" env:"MEMDB_ORACLE_WEB_PUBLIC" group:"http" placeholder:"BOOL" help:"With API keys set, show the web pages read-only without a key; asking still needs one."`
	PublicURL      string `name:"public-url" env:"MEMDB_ORACLE_PUBLIC_URL" group:"http" placeholder:"URL" help:"Where the web pages are served for people (https://oracle.example.com): chat cards get an Open on the web button and their run IDs and filters link there."`
	Drain          string `name:"drain" env:"MEMDB_ORACLE_DRAIN" group:"http" placeholder:"DURATION" help:"How long serve keeps answering after SIGTERM with /readyz at 503, so load balancers move away first (default 0: stop at once)."`

	HTTPRatePerMinute      string `name:"http-rate-per-minute" env:"MEMDB_ORACLE_HTTP_RATE_PER_MINUTE" group:"limits" default:"${http_rate_per_minute}" placeholder:"N" help:"Questions per minute per HTTP client (its key, or its address); 0 switches the limit off. Default: ${default}."`
	HTTPRateBurst          string `name:"http-rate-burst" env:"MEMDB_ORACLE_HTTP_RATE_BURST" group:"limits" default:"${http_rate_burst}" placeholder:"N" help:"Burst per HTTP client. Default: ${default}."`
	HTTPRateDaily          string `name:"http-rate-daily" env:"MEMDB_ORACLE_HTTP_RATE_DAILY" group:"limits" default:"${http_rate_daily}" placeholder:"N" help:"Daily quota per HTTP client. Default: ${default}."`
	HTTPRateTotalPerMinute string `name:"http-rate-total-per-minute" env:"MEMDB_ORACLE_HTTP_RATE_TOTAL_PER_MINUTE" group:"limits" default:"${http_rate_total_per_minute}" placeholder:"N" help:"Questions per minute of all HTTP clients together. Default: ${default}."`
	HTTPRateTotalBurst     string `name:"http-rate-total-burst" env:"MEMDB_ORACLE_HTTP_RATE_TOTAL_BURST" group:"limits" default:"${http_rate_total_burst}" placeholder:"N" help:"Burst of all HTTP clients together. Default: ${default}."`
	HTTPRateTotalDaily     string `name:"http-rate-total-daily" env:"MEMDB_ORACLE_HTTP_RATE_TOTAL_DAILY" group:"limits" default:"${http_rate_total_daily}" placeholder:"N" help:"Daily quota of all HTTP clients together. Default: ${default}."`
	RateUserPerMinute      string `name:"rate-user-per-minute" env:"MEMDB_ORACLE_RATE_USER_PER_MINUTE" group:"limits" default:"${rate_user_per_minute}" placeholder:"N" help:"Questions per minute per Slack or Discord user; 0 switches the limit off. The terminal is never limited. Default: ${default}."`
	RateUserBurst          string `name:"rate-user-burst" env:"MEMDB_ORACLE_RATE_USER_BURST" group:"limits" default:"${rate_user_burst}" placeholder:"N" help:"Burst per Slack or Discord user. Default: ${default}."`
	RateUserDaily          string `name:"rate-user-daily" env:"MEMDB_ORACLE_RATE_USER_DAILY" group:"limits" default:"${rate_user_daily}" placeholder:"N" help:"Daily quota per Slack or Discord user. Default: ${default}."`
	RateChannelPerMinute   string `name:"rate-channel-per-minute" env:"MEMDB_ORACLE_RATE_CHANNEL_PER_MINUTE" group:"limits" default:"${rate_channel_per_minute}" placeholder:"N" help:"Questions per minute per Slack or Discord channel. Default: ${default}."`
	RateChannelBurst       string `name:"rate-channel-burst" env:"MEMDB_ORACLE_RATE_CHANNEL_BURST" group:"limits" default:"${rate_channel_burst}" placeholder:"N" help:"Burst per Slack or Discord channel. Default: ${default}."`
	RateChannelDaily       string `name:"rate-channel-daily" env:"MEMDB_ORACLE_RATE_CHANNEL_DAILY" group:"limits" default:"${rate_channel_daily}" placeholder:"N" help:"Daily quota per Slack or Discord channel. Default: ${default}."`

	SlackBotToken      string `name:"slack-bot-token" env:"SLACK_BOT_TOKEN" group:"slack" placeholder:"xoxb-..." help:"The Slack app's bot token (xoxb-...); with a signing secret or an app token, serve answers in Slack."`
	SlackSigningSecret string `name:"slack-signing-secret" env:"SLACK_SIGNING_SECRET" group:"slack" placeholder:"SECRET" help:"Events API mode: the app's signing secret; requests on /slack/* are verified with it."`
	SlackAppToken      string `name:"slack-app-token" env:"SLACK_APP_TOKEN" group:"slack" placeholder:"xapp-..." help:"Socket Mode: the app-level token (xapp-...); no public URL needed."`
	SlackCommand       string `name:"slack-command" env:"MEMDB_ORACLE_SLACK_COMMAND" group:"slack" placeholder:"/NAME" help:"The slash command's name (default /oracle)."`
	SlackAPIURL        string `name:"slack-api-url" env:"SLACK_API_URL" group:"slack" placeholder:"URL" help:"Slack Web API base URL, for a proxy (default https://slack.com/api/)."`

	DiscordBotToken       string `name:"discord-bot-token" env:"DISCORD_BOT_TOKEN" group:"discord" placeholder:"TOKEN" help:"The Discord bot's token; with an application id, serve answers in Discord."`
	DiscordAppID          string `name:"discord-app-id" env:"DISCORD_APP_ID" group:"discord" placeholder:"ID" help:"The Discord application's id; the slash command is registered under it."`
	DiscordGuildID        string `name:"discord-guild-id" env:"DISCORD_GUILD_ID" group:"discord" placeholder:"ID" help:"Register the slash command in this server only (instant) instead of globally."`
	DiscordMessageContent string `name:"discord-message-content" env:"DISCORD_MESSAGE_CONTENT" group:"discord" placeholder:"BOOL" help:"Also answer mentions in messages (needs the Message Content privileged intent)."`
	DiscordCommand        string `name:"discord-command" env:"MEMDB_ORACLE_DISCORD_COMMAND" group:"discord" placeholder:"NAME" help:"The slash command's name (default oracle)."`
	DiscordAPIBase        string `name:"discord-api-base" env:"DISCORD_API_BASE" group:"discord" placeholder:"URL" help:"Discord REST API base URL, for a proxy (default https://discord.com/api/v10)."`

	DigestCron            string `name:"digest-cron" env:"MEMDB_ORACLE_DIGEST_CRON" group:"digest" placeholder:"SPEC" help:"When serve posts the findings digest: five-field cron, e.g. \"0 9 * * MON\"; empty: never."`
	DigestTZ              string `name:"digest-tz" env:"MEMDB_ORACLE_DIGEST_TZ" group:"digest" placeholder:"ZONE" help:"Time zone of the cron expression, an IANA name (default UTC)."`
	DigestCatchUp         string `name:"digest-catchup" env:"MEMDB_ORACLE_DIGEST_CATCHUP" group:"digest" default:"true" placeholder:"BOOL" help:"Post one slot missed while serve was down, once, at start-up. Default: ${default}."`
	DigestSlackChannels   string `name:"digest-slack-channels" env:"MEMDB_ORACLE_DIGEST_SLACK_CHANNELS" group:"digest" placeholder:"ID,..." help:"Slack channel ids the digest is posted to (needs the Slack bot token)."`
	DigestDiscordChannels string `name:"digest-discord-channels" env:"MEMDB_ORACLE_DIGEST_DISCORD_CHANNELS" group:"digest" placeholder:"ID,..." help:"Discord channel ids the digest is posted to (needs the Discord bot token)."`

	StateURL    string `name:"state-url" env:"MEMDB_ORACLE_STATE_URL" group:"state" placeholder:"URL" help:"redis://[user:password@]host:6379[/db] or rediss://...: serve shares threads, limits, de-duplication and digest slots with its replicas there; empty keeps them in the data directory."`
	StateCAFile string `name:"state-ca-file" env:"MEMDB_ORACLE_STATE_CA_FILE" group:"state" placeholder:"FILE" help:"PEM file of the CAs a rediss:// state URL trusts instead of the system's."`
	StatePrefix string `name:"state-prefix" env:"MEMDB_ORACLE_STATE_PREFIX" group:"state" placeholder:"PREFIX" help:"Prefix of every key on the state server (default memdb-oracle:)."`
	// The shared keys are used byte for byte (verbatim): not trimmed.
	SharedKey         string `name:"shared-key" env:"MEMDB_ORACLE_SHARED_KEY" group:"state" verbatim:"true" placeholder:"KEY" help:"Signs the runs replicas share through the state server (at least 32 characters: openssl rand -hex 32); empty: imports stay on the replica that made them."`
	SharedKeyPrevious string `name:"shared-key-previous" env:"MEMDB_ORACLE_SHARED_KEY_PREVIOUS" group:"state" verbatim:"true" placeholder:"KEY" help:"While rotating the shared key: the old key, still accepted; records signed with it are signed again with the new one."`
	ReplicaName       string `name:"replica-name" env:"MEMDB_ORACLE_REPLICA_NAME" group:"state" placeholder:"NAME" help:"This replica's name in leases and logs (default host name and process id)."`
	LeaseTTL          string `name:"lease-ttl" env:"MEMDB_ORACLE_LEASE_TTL" group:"state" default:"${lease_ttl}" placeholder:"DURATION" help:"How long the Discord gateway lease lasts unrenewed. Default: ${default}."`
	LeaseRenew        string `name:"lease-renew" env:"MEMDB_ORACLE_LEASE_RENEW" group:"state" default:"${lease_renew}" placeholder:"DURATION" help:"How often the lease's holder renews it (shorter than the TTL). Default: ${default}."`
}

// settingGroups are the headings --help and docs/configuration.md list
// the settings under, in order.
var settingGroups = []kong.Group{
	{Key: "general", Title: "General"},
	{Key: "llm", Title: "Language model (optional)"},
	{Key: "http", Title: "HTTP API and web pages"},
	{Key: "limits", Title: "Rate limits"},
	{Key: "slack", Title: "Slack"},
	{Key: "discord", Title: "Discord"},
	{Key: "digest", Title: "Findings digest"},
	{Key: "state", Title: "Shared state (replicas)"},
}

// settingDefaults are the ${…} defaults of settings, taken from the
// packages that own them so the help cannot disagree with the code.
func settingDefaults() kong.Vars {
	user := bot.DefaultLimits()
	client := httpadapter.DefaultClientLimits()
	lease := bot.DefaultLeaseTimings()
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	return kong.Vars{
		"deadline":                   bot.DefaultDeadline.String(),
		"ollama_model":               llm.DefaultOllamaModel,
		"openai_model":               llm.DefaultOpenAIModel,
		"anthropic_model":            llm.DefaultAnthropicModel,
		"llm_timeout":                planner.DefaultCompleterTimeout.String(),
		"http_addr":                  defaultHTTPAddr,
		"http_rate_per_minute":       num(client.UserPerMinute),
		"http_rate_burst":            strconv.Itoa(client.UserBurst),
		"http_rate_daily":            strconv.Itoa(client.UserDaily),
		"http_rate_total_per_minute": num(client.ChannelPerMinute),
		"http_rate_total_burst":      strconv.Itoa(client.ChannelBurst),
		"http_rate_total_daily":      strconv.Itoa(client.ChannelDaily),
		"rate_user_per_minute":       num(user.UserPerMinute),
		"rate_user_burst":            strconv.Itoa(user.UserBurst),
		"rate_user_daily":            strconv.Itoa(user.UserDaily),
		"rate_channel_per_minute":    num(user.ChannelPerMinute),
		"rate_channel_burst":         strconv.Itoa(user.ChannelBurst),
		"rate_channel_daily":         strconv.Itoa(user.ChannelDaily),
		"lease_ttl":                  lease.TTL.String(),
		"lease_renew":                lease.Every.String(),
	}
}

// expandSettingDefaults writes the ${…} variables of settingDefaults into
// the flags' defaults and help once the model is built, before kong
// interpolates it. Given to kong as Vars, every variable was copied and
// interpolated (by regexp) for each value of each command, and copied
// again for each command at each parsing hook: a fifth of a `runs`
// process's CPU. Kong still expands its own ${default}, ${env} and ${enum}.
func expandSettingDefaults() kong.Option {
	return kong.PostBuild(func(k *kong.Kong) error {
		vars := settingDefaults()
		pairs := make([]string, 0, 2*len(vars))
		for name, v := range vars {
			pairs = append(pairs, "${"+name+"}", v)
		}
		r := strings.NewReplacer(pairs...)
		return kong.Visit(k.Model, func(n kong.Visitable, next kong.Next) error {
			if f, ok := n.(*kong.Flag); ok {
				f.Default = r.Replace(f.Default)
				f.Help = r.Replace(f.Help)
			}
			return next(nil)
		})
	})
}

// setting is one declared variable, as the struct tags say.
type setting struct {
	Flag, Env, Group, Default, Placeholder, Help string
	Secret                                       bool
}

// declaredSettings lists the settings in declaration order, defaults
// expanded.
func declaredSettings() []setting {
	vars := settingDefaults()
	t := reflect.TypeFor[settings]()
	out := make([]setting, 0, t.NumField())
	for i := range t.NumField() {
		tag := t.Field(i).Tag
		def := tag.Get("default")
		if name, ok := strings.CutPrefix(def, "${"); ok {
			def = vars[strings.TrimSuffix(name, "}")]
		}
		help := tag.Get("help")
		for k, v := range vars {
			help = strings.ReplaceAll(help, "${"+k+"}", v)
		}
		out = append(out, setting{
			Flag: tag.Get("name"), Env: tag.Get("env"), Group: tag.Get("group"), Default: def,
			Placeholder: tag.Get("placeholder"), Help: help,
			Secret: secretSetting(tag.Get("env")),
		})
	}
	return out
}

// secretSetting reports whether a variable holds a credential: its value
// is never echoed in an error or a log.
func secretSetting(env string) bool {
	for _, w := range []string{"TOKEN", "SECRET", "KEY"} {
		if strings.Contains(env, w) {
			return true
		}
	}
	return false
}

// values returns the resolved settings by environment variable name,
// trimmed unless the field is tagged verbatim.
func (s settings) values() map[string]string {
	v := reflect.ValueOf(s)
	t := v.Type()
	out := make(map[string]string, t.NumField())
	for i := range t.NumField() {
		val := v.Field(i).String()
		if t.Field(i).Tag.Get("verbatim") != "true" {
			val = strings.TrimSpace(val)
		}
		out[t.Field(i).Tag.Get("env")] = val
	}
	return out
}

// lookup is the getenv the rest of the program reads: a declared
// variable's resolved value (flag, environment, config file or default),
// and the plain environment for everything else (HOME, COLUMNS …).
func (s settings) lookup(getenv func(string) string) func(string) string {
	vals := s.values()
	return func(name string) string {
		if v, ok := vals[name]; ok {
			return v
		}
		return getenv(name)
	}
}

// settingsResolver fills every setting not given on the command line from
// the injected environment, else the config file, else its default. It
// always answers for a setting, so kong's own reading of the process
// environment (its env tags) never decides a value: getenv is the one
// source, and a test that passes its own sees nothing of the real one.
func settingsResolver(getenv func(string) string, file map[string]string) kong.ResolverFunc {
	return func(_ *kong.Context, _ *kong.Path, f *kong.Flag) (any, error) {
		if len(f.Envs) == 0 {
			return nil, nil // not a setting: a command's own flag
		}
		for _, env := range f.Envs {
			if v := getenv(env); v != "" {
				return v, nil
			}
		}
		if v, ok := file[f.Name]; ok {
			return v, nil
		}
		return f.Default, nil
	}
}

// unknownVariables lists the MEMDB_ORACLE_* names in environ that no
// setting declares, each with the nearest declared name when one is close.
func unknownVariables(environ []string) []string {
	// Only the names are needed: declaredSettings would also expand every
	// help text, in every process.
	t := reflect.TypeFor[settings]()
	known := make(map[string]bool, t.NumField())
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		env := t.Field(i).Tag.Get("env")
		known[env] = true
		names = append(names, env)
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "MEMDB_ORACLE_") || known[name] {
			continue
		}
		line := fmt.Sprintf("warning: %s is not a setting and is ignored", name)
		if near := nearest(name, names); near != "" {
			line += fmt.Sprintf(" (did you mean %s?)", near)
		}
		out = append(out, line)
	}
	sort.Strings(out)
	return out
}
