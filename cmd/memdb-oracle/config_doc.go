package main

import (
	"fmt"
	"strings"
)

// configurationDoc renders docs/configuration.md from the declared
// settings, so the page cannot drift from the code
// (TestConfigurationDocIsGenerated; go test ./cmd/memdb-oracle -run
// ConfigurationDoc -update rewrites it).
func configurationDoc() string {
	var b strings.Builder
	b.WriteString(`# Configuration

<!-- Generated from cmd/memdb-oracle/settings.go by
     go test ./cmd/memdb-oracle -run ConfigurationDoc -update; do not edit. -->

Every setting is one flag, one environment variable and one key of an optional
YAML file (` + "`--config memdb-oracle.yaml`" + `). A flag wins over the environment,
the environment over the file, the file over the default. ` + "`memdb-oracle serve --help`" + `
lists the same settings.

Everything is checked before the data directory is opened or created: a token in
the wrong format, a port out of range, a URL that is not one, a cron spec that
never fires or an adapter half configured is reported one line per problem, and
the program exits with status 2. A ` + "`MEMDB_ORACLE_*`" + ` variable that is not a setting
is warned about on stderr, with the nearest real name.

An adapter runs when its credentials are present; ` + "`serve`" + ` logs which variables would
enable the ones that are off. Secrets (tokens, keys) never appear in logs or in
error messages.

A config file uses the flag names as keys; lists may be YAML lists:

` + "```yaml" + `
http-addr: 0.0.0.0:8080
digest-cron: "0 9 * * MON"
digest-slack-channels: [C0123456789]
` + "```" + `
`)
	all := declaredSettings()
	for _, g := range settingGroups {
		fmt.Fprintf(&b, "\n## %s\n\n| Variable | Flag | Default | Meaning |\n|---|---|---|---|\n", g.Title)
		for _, s := range all {
			if s.Group != g.Key {
				continue
			}
			def := "—"
			if s.Default != "" {
				def = "`" + s.Default + "`"
			}
			help := strings.ReplaceAll(s.Help, " Default: ${default}.", "")
			help = strings.ReplaceAll(help, "|", `\|`)
			fmt.Fprintf(&b, "| `%s` | `--%s` | %s | %s |\n", s.Env, s.Flag, def, help)
		}
	}
	return b.String()
}
