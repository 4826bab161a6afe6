package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the layering: the pages talk to bot only (the
// dataset through bot.Dataset, never Badger or expr), use no other adapter
// and no chat SDK, and need nothing but the standard library beyond that.
func TestDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/memdb-oracle/memdb-oracle/"
	for _, imp := range strings.Fields(string(out)) {
		if strings.Contains(imp, ".") && imp != mod+"bot" {
			t.Errorf("imports %s; the pages use the standard library and bot only", imp)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, banned := range []string{"github.com/slack-go/slack", "github.com/bwmarrin/discordgo", "github.com/tmc/langchaingo",
		"gonum.org/v1/plot", "github.com/chromedp/", mod + "adapters/", mod + "cmd/"} {
		for _, d := range strings.Fields(string(deps)) {
			if strings.HasPrefix(d, banned) && d != mod+"adapters/web" {
				t.Errorf("depends on %s", d)
			}
		}
	}
}
