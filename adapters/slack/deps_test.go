package slack

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesPointOneWay keeps the adapter at the edge: it may use
// bot and slack-go, never another SDK or a lower layer directly.
func TestDependenciesPointOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.HasPrefix(imp, "github.com/memdb-oracle/memdb-oracle/") && imp != "github.com/memdb-oracle/memdb-oracle/bot" {
			t.Errorf("adapters/slack imports %s; it should reach the rest only through bot", imp)
		}
		for _, banned := range []string{"discordgo", "badger", "expr-lang", "langchaingo", "gonum"} {
			if strings.Contains(imp, banned) {
				t.Errorf("adapters/slack imports %s", imp)
			}
		}
	}
}
