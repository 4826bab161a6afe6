package bot

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/memdb-oracle/memdb-oracle/analytics"
)

func TestADamagedStoreIsSaidAsDamageNotAnInternalError(t *testing.T) {
	err := fmt.Errorf("query: %w", &analytics.CorruptError{Dir: "/data", Problem: "a table fails its checksum"})
	a := errorAnswer(err, 0, "ref1", slog.New(slog.DiscardHandler))
	if strings.Contains(a.Headline, "internal error") || !strings.Contains(a.Body[0], "doctor --repair") {
		t.Errorf("answer = %q / %q, want the damage said with its repair", a.Headline, a.Body)
	}
}
