package planner

import "testing"

func TestWithoutSelfMention(t *testing.T) {
	tests := []struct{ in, want string }{
		{"@oracle valkey rps at 4c?", "valkey rps at 4c?"},
		{"@Oracle, dragonfly vs keydb at 8c pls", "dragonfly vs keydb at 8c pls"},
		{"@memdb-oracle: is garnet client-limited?", "is garnet client-limited?"},
		{"how fast is redis at 8 cores @oracle", "how fast is redis at 8 cores"},
		{"@sam what do you think?", "@sam what do you think?"}, // to someone else: kept
		{"@oracle", "help"}, // a bare mention asks what it can do
		{"p99 for redis", "p99 for redis"},
	}
	for _, tt := range tests {
		if got := withoutSelfMention(tt.in); got != tt.want {
			t.Errorf("withoutSelfMention(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
