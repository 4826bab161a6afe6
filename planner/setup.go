package planner

import (
	"strings"
	"unicode"
)

// setupTopic names the knowledge entry a question about the benchmark's
// setup is mainly about, so the answer can lead with it: versions and the
// operating system (setup:software), machines (setup:hardware), what the
// dataset holds (scope:coverage), else how the runs were driven
// (setup:workload).
func setupTopic(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	has := func(stems ...string) bool {
		for _, w := range words {
			for _, s := range stems {
				if w == s || len(s) > 3 && strings.HasPrefix(w, s) {
					return true
				}
			}
		}
		return false
	}
	switch {
	case has("version", "release", "build", "image", "kernel", "os", "software"):
		return "setup:software"
	case has("hardware", "machine", "instance", "box", "boxes", "cpu", "cpus", "processor", "server", "client", "aws", "rig", "rigs"):
		return "setup:hardware"
	case has("dataset", "data"):
		return "scope:coverage"
	}
	return "setup:workload"
}
