package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/memdb-oracle/memdb-oracle"

// layers lists, for each project package (prefix), the project packages it
// may import directly: dependencies point one way,
// cmd → adapters → bot → planner → analytics, and bot → knowledge. Within
// bot, composition (bot/compose) sits below the bot that calls it.
type layer struct {
	pkg     string
	mayUse  []string
	sdkOnly []string // third-party prefixes only this package may import
}

var layers = []layer{
	{pkg: "analytics", mayUse: []string{"analytics"}, sdkOnly: []string{"github.com/dgraph-io/badger", "github.com/expr-lang/expr"}},
	{pkg: "knowledge", mayUse: []string{"analytics", "knowledge"}},
	{pkg: "planner", mayUse: []string{"analytics", "knowledge", "planner"}},
	{pkg: "bot/compose", mayUse: []string{"analytics", "knowledge", "planner", "bot/compose"}},
	{pkg: "bot", mayUse: []string{"analytics", "knowledge", "planner", "bot"}},
	{pkg: "adapters/slack", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters/slack"}, sdkOnly: []string{"github.com/slack-go/slack"}},
	{pkg: "adapters/discord", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters/discord"}, sdkOnly: []string{"github.com/bwmarrin/discordgo"}},
	{pkg: "adapters/llm", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters/llm"}, sdkOnly: []string{"github.com/tmc/langchaingo"}},
	{pkg: "adapters/chart", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters/chart"}, sdkOnly: []string{"gonum.org/v1/plot"}},
	{pkg: "adapters/cli", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters/cli"}},
	{pkg: "adapters/redis", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters/redis"}, sdkOnly: []string{"github.com/redis/go-redis"}},
	{pkg: "adapters/http", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters/http"}, sdkOnly: []string{"github.com/andybalholm/brotli"}},
	// The web pages reach the data through bot only (bot.Dataset): no
	// Badger, no expr, no knowledge types of their own.
	{pkg: "adapters/web", mayUse: []string{"bot", "adapters/web"}, sdkOnly: []string{"github.com/chromedp"}},
	{pkg: "cmd", mayUse: []string{"analytics", "knowledge", "planner", "bot", "adapters", "cmd"}},
}

// TestDependenciesPointOneWay lists every package's direct imports (tests
// excluded) and fails on an import against the layering or an SDK used
// outside its edge package.
func TestDependenciesPointOneWay(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	checked := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		rule, ok := ruleFor(pkg)
		if !ok {
			t.Errorf("package %s has no layering rule: add it to layers", pkg)
			continue
		}
		checked++
		for _, imp := range fields[1:] {
			if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
				if !hasAnyPrefix(rest, rule.mayUse) {
					t.Errorf("%s imports %s, against the layering (may use %v)", pkg, rest, rule.mayUse)
				}
				continue
			}
			for _, other := range layers {
				if other.pkg == rule.pkg {
					continue
				}
				for _, sdk := range other.sdkOnly {
					if strings.HasPrefix(imp, sdk) {
						t.Errorf("%s imports %s, which only %s may use", pkg, imp, other.pkg)
					}
				}
			}
		}
	}
	if checked < 8 {
		t.Fatalf("checked only %d packages; go list output:\n%s", checked, out)
	}
}

func ruleFor(pkg string) (layer, bool) {
	for _, l := range layers {
		if pkg == l.pkg || strings.HasPrefix(pkg, l.pkg+"/") {
			return l, true
		}
	}
	return layers[0], false
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if s == p || strings.HasPrefix(s, p+"/") {
			return true
		}
	}
	return false
}
