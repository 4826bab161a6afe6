package cli

import "testing"

func TestWidth(t *testing.T) {
	notATerminal := ^uintptr(0)
	tests := []struct {
		columns string
		want    int
	}{
		{"80", 80},
		{" 132 ", 132},
		{"", DefaultWidth},
		{"wide", DefaultWidth},
		{"8", DefaultWidth}, // too narrow to be meant
		{"-40", DefaultWidth},
	}
	for _, tt := range tests {
		if got := Width(tt.columns, notATerminal); got != tt.want {
			t.Errorf("Width(COLUMNS=%q) = %d, want %d", tt.columns, got, tt.want)
		}
	}
}
