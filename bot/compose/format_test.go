package compose

import "testing"

func TestNumberStyleFollowsDesign(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"throughput above a million has one decimal and M", FormatOps(15473658.395), "15.5M ops/s"},
		{"throughput below a million is whole thousands", FormatOps(635598.77), "636K ops/s"},
		{"a ceiling rounds to one decimal", FormatOps(40576639.07), "40.6M ops/s"},
		{"just under a million rounds up to 1.0M", FormatOps(999960), "1.0M ops/s"},
		{"sub-millisecond latency keeps three decimals", FormatMs(0.883), "0.883 ms"},
		{"single-digit latency keeps three decimals", FormatMs(4.847), "4.847 ms"},
		{"tens of milliseconds keep three decimals", FormatMs(83.967), "83.967 ms"},
		{"a median of two runs rounds to three decimals", FormatMs(0.3435), "0.344 ms"},
		{"trailing zeros are trimmed", FormatMs(2.5), "2.5 ms"},
		{"table cells use the same digits as prose", formatMsShort(0.343), "0.343"},
		{"a multiple has one decimal and a times sign", FormatRatio(3.3796), "3.4×"},
		{"a fraction of one keeps two decimals", FormatRatio(0.3813), "0.38×"},
		{"a percentage is whole", FormatPercent(0.3813), "38%"},
		{"a percentage just under 100 keeps the digits that show it", FormatPercent(0.9998), "99.98%"},
		{"a hit rate just under 100 keeps the digits that show it", formatHitRate(0.99984), "99.98%"},
		{"a tiny percentage never reads as 0", FormatPercent(0.0004), "0.04%"},
		{"an exact 100% stays whole", formatHitRate(1), "100%"},
		{"exact values get separators", formatExact(15473658.395), "15,473,658.395"},
		{"exact small values stay plain", formatExact(146.1), "146.1"},
		{"1024 bytes read as 1 KB", formatValueBytes(1024), "1 KB"},
		{"100 bytes read as 100 B", formatValueBytes(100), "100 B"},
		{"exact latency keeps the source's decimals", formatMsExact(35.199), "35.199"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}
