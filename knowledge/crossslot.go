package knowledge

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// CrossSlotDemo is the recorded cross-slot behaviour: the same multi-key
// commands sent to one Dragonfly process and to a small Redis Cluster.
type CrossSlotDemo struct {
	ID      string            `json:"id"` // "table:crossslot"
	Title   string            `json:"title"`
	Systems []CrossSlotSystem `json:"systems"`
	// Summary holds the demo's closing remarks, colour codes removed.
	Summary []string `json:"summary"`
	Sources []Source `json:"sources"`
}

// CrossSlotSystem is one system the demo ran against.
type CrossSlotSystem struct {
	Name   string           `json:"name"`   // "Dragonfly (single process)", "Redis Cluster (3 shards)"
	Shards int              `json:"shards"` // 0 for a single process
	Slots  []KeySlot        `json:"slots"`  // hash slot of each demo key (cluster only)
	Checks []CrossSlotCheck `json:"checks"`
}

// KeySlot is a key and the hash slot it maps to.
type KeySlot struct {
	Key  string `json:"key"`
	Slot int    `json:"slot"`
}

// CrossSlotCheck is one command and what the system answered.
type CrossSlotCheck struct {
	Command  string `json:"command"`  // "MGET 3 plain keys"
	Accepted bool   `json:"accepted"` // OK vs REJECTED
	Reply    string `json:"reply"`    // "1 2 3", or the error text
}

// Compiled on first use: a process that never needs it does not pay for it at start.
var (
	ansiCodes   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;]*m") })
	systemLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^=+ (.+?) =+$`) })
	shardsInSys = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\((\d+) shards\)`) })
	checkLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+?):\s+(OK|REJECTED) -> (.*)$`) })
	slotPair    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(\w+)=(\d+)`) })
)

// stripANSI removes terminal colour codes.
func stripANSI(s string) string { return ansiCodes().ReplaceAllString(s, "") }

// parseCrossSlot reads crossslot-aws.txt.
func parseCrossSlot(data []byte) ([]CrossSlotSystem, []string, error) {
	var systems []CrossSlotSystem
	var summary []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(stripANSI(sc.Text()))
		switch {
		case text == "":
		case systemLine().MatchString(text):
			name := systemLine().FindStringSubmatch(text)[1]
			sys := CrossSlotSystem{Name: name}
			if m := shardsInSys().FindStringSubmatch(name); m != nil {
				sys.Shards, _ = strconv.Atoi(m[1])
			}
			systems = append(systems, sys)
		case strings.HasPrefix(text, "[bench]"):
			summary = append(summary, strings.TrimSpace(strings.TrimPrefix(text, "[bench]")))
		case len(systems) == 0:
			return nil, nil, fmt.Errorf("line %d: %q before any system heading", line, text)
		case strings.HasPrefix(text, "slots:"):
			sys := &systems[len(systems)-1]
			for _, m := range slotPair().FindAllStringSubmatch(text, -1) {
				n, _ := strconv.Atoi(m[2])
				sys.Slots = append(sys.Slots, KeySlot{Key: m[1], Slot: n})
			}
		case checkLine().MatchString(text):
			m := checkLine().FindStringSubmatch(text)
			sys := &systems[len(systems)-1]
			sys.Checks = append(sys.Checks, CrossSlotCheck{Command: m[1], Accepted: m[2] == "OK", Reply: strings.TrimSpace(m[3])})
		default:
			return nil, nil, fmt.Errorf("line %d: unexpected text %q", line, text)
		}
	}
	if len(systems) == 0 {
		return nil, nil, fmt.Errorf("no systems")
	}
	return systems, summary, nil
}

// Slot returns the hash slot the demo recorded for a key.
func (d CrossSlotDemo) Slot(key string) (int, bool) {
	for _, s := range d.Systems {
		for _, ks := range s.Slots {
			if ks.Key == key {
				return ks.Slot, true
			}
		}
	}
	return 0, false
}
