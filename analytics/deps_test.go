package analytics_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAnalyticsDependsOnNothingAboveIt keeps the dependency direction: the
// analytics package imports none of the project's other packages and none
// of the chat or language-model SDKs.
func TestAnalyticsDependsOnNothingAboveIt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const module = "github.com/memdb-oracle/memdb-oracle/"
	for _, pkg := range []string{module + "analytics", module + "analytics/analyticstest"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			switch {
			case strings.HasPrefix(dep, module) && !strings.HasPrefix(dep, module+"analytics"):
				t.Errorf("%s imports %s: analytics must not depend on the project's other packages", pkg, dep)
			case strings.Contains(dep, "slack-go"), strings.Contains(dep, "discordgo"),
				strings.Contains(dep, "langchaingo"), strings.Contains(dep, "gonum.org"):
				t.Errorf("%s imports %s: SDKs belong at the edges", pkg, dep)
			}
		}
	}
}
