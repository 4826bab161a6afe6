package compose

import "testing"

func TestEnsureStopKeepsASentencesOwnEnd(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"which one did you mean?", "which one did you mean?"},
		{"not measured!", "not measured!"},
		{"It was measured.", "It was measured."},
		{"It names no engine", "It names no engine."},
		{"  spaced  ", "spaced."},
	} {
		if got := ensureStop(tt.in); got != tt.want {
			t.Errorf("ensureStop(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
