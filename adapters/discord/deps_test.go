package discord

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies keeps the layering: the adapter uses bot (and through
// it the lower packages) but imports no lower package directly, no other
// adapter and no other platform's SDK.
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
		if strings.HasPrefix(imp, mod) && imp != mod+"bot" {
			t.Errorf("imports %s; an adapter talks to bot only", imp)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, banned := range []string{"github.com/slack-go/slack", "github.com/tmc/langchaingo", "gonum.org/v1/plot", mod + "adapters/", mod + "cmd/"} {
		for _, d := range strings.Fields(string(deps)) {
			if strings.HasPrefix(d, banned) && d != mod+"adapters/discord" {
				t.Errorf("depends on %s", d)
			}
		}
	}
}
