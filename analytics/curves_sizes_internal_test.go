package analytics

import (
	"slices"
	"testing"
)

func TestTheCurveSizesFlagReadsCountsOfRuns(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int
		bad      bool
	}{
		{"the default sizes", "10k,100k,1m,3m", []int{10_000, 100_000, 1_000_000, 3_000_000}, false},
		{"ten million, upper case, spaces", " 10M , 20K", []int{10_000_000, 20_000}, false},
		{"fewer runs than the selective cell needs are refused", "2000", nil, true},
		{"a plain count", "2500000", []int{2_500_000}, false},
		{"a fraction is refused", "1.5m", nil, true},
		{"zero is refused", "0", nil, true},
		{"an empty entry is refused", "10k,", nil, true},
		{"a word is refused", "big", nil, true},
		{"beyond a hundred million is refused", "101m", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseSizes(tt.in)
			if (err != nil) != tt.bad || !slices.Equal(got, tt.want) {
				t.Fatalf("parseSizes(%q) = %v, %v", tt.in, got, err)
			}
		})
	}
}
