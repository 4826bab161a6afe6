package analytics

import "testing"

func TestSeriesNamesAreTheDesignNames(t *testing.T) {
	for _, tc := range []struct{ engine, mode, want string }{
		{"dragonfly", "single", "Dragonfly (single process)"},
		{"redis", "cluster", "Redis Cluster — realistic (one normal client)"},
		{"valkey", "cluster-sat", "Valkey Cluster — fully driven ceiling (one client per shard)"},
		{"keydb", "single", "KeyDB (single process)"},
		{"garnet", "single", "Garnet (single process, client-limited floor)"},
	} {
		if got := SeriesName(tc.engine, tc.mode); got != tc.want {
			t.Errorf("SeriesName(%q, %q) = %q, want %q", tc.engine, tc.mode, got, tc.want)
		}
	}
	if got := EngineName("pelikan"); got != "Pelikan" {
		t.Errorf("an imported engine is written with a capital, got %q", got)
	}
}
