package planner_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The planner sits below bot, adapters and cmd, and imports no SDK: the
// store's Badger and expr stay behind analytics, the language model behind
// adapters/llm.
func TestThePlannerImportsOnlyWhatItMay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "github.com/memdb-oracle/memdb-oracle/planner").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.Contains(imp, ".") && !strings.HasPrefix(imp, "github.com/memdb-oracle/memdb-oracle/") {
			t.Errorf("planner imports the third-party package %s", imp)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", "github.com/memdb-oracle/memdb-oracle/planner").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range strings.Fields(string(deps)) {
		for _, banned := range []string{"/bot", "/adapters/", "/cmd/", "github.com/tmc/langchaingo", "github.com/slack-go", "github.com/bwmarrin"} {
			if strings.Contains(d, banned) {
				t.Errorf("planner depends on %s", d)
			}
		}
	}
}
