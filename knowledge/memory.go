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

// MemoryTable is the bytes-per-key measurement: a fixed number of keys of
// a fixed value size loaded into each engine, used_memory read, the empty
// server's baseline subtracted, divided by the number of distinct keys.
type MemoryTable struct {
	ID         string `json:"id"` // "table:memory"
	Title      string `json:"title"`
	Keys       int    `json:"keys"`        // parsed from the file's header line
	ValueBytes int    `json:"value_bytes"` // parsed from the file's header line
	Method     string `json:"method"`      // the file's formula line
	// Rows are the measured engines, in the file's order.
	Rows []MemoryRow `json:"rows"`
	// Quoted are figures that exist only in prose, each with its label
	// (KeyDB's 200.3 bytes/key).
	Quoted []MemoryRow `json:"quoted"`
	// NotMeasured lists engines with no figure at all, and why.
	NotMeasured []NotMeasured `json:"not_measured"`
	Sources     []Source      `json:"sources"`
}

// MemoryRow is one engine's bytes per key.
type MemoryRow struct {
	Engine      string  `json:"engine"`
	UsedMemory  int64   `json:"used_memory,omitempty"` // bytes after loading; 0 for quoted figures
	BytesPerKey float64 `json:"bytes_per_key"`
	Keys        int     `json:"keys,omitempty"`
	Session     int     `json:"session,omitempty"`
	// Label is set on quoted figures: where the number comes from and why
	// it is weaker than the measured rows.
	Label string `json:"label,omitempty"`
}

// NotMeasured names an engine missing from a measured table, with the reason.
type NotMeasured struct {
	Engine string `json:"engine"`
	Reason string `json:"reason"`
}

// Row returns the engine's figure: measured rows first, then quoted ones.
func (t MemoryTable) Row(engine string) (MemoryRow, bool) {
	for _, r := range t.Rows {
		if r.Engine == engine {
			return r, true
		}
	}
	for _, r := range t.Quoted {
		if r.Engine == engine {
			return r, true
		}
	}
	return MemoryRow{}, false
}

// Missing returns why the engine has no figure, if it has none.
func (t MemoryTable) Missing(engine string) (NotMeasured, bool) {
	for _, n := range t.NotMeasured {
		if n.Engine == engine {
			return n, true
		}
	}
	return NotMeasured{}, false
}

// Compiled on first use: a process that never needs it does not pay for it at start.
var memoryHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Loading (\d+) keys x (\d+)B into each engine`) })

// parseMemory reads memory-aws.txt.
func parseMemory(data []byte) (keys, valueBytes int, method string, rows []MemoryRow, err error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	inTable := false
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r ")
		switch {
		case memoryHeader().MatchString(text):
			m := memoryHeader().FindStringSubmatch(text)
			keys, _ = strconv.Atoi(m[1])
			valueBytes, _ = strconv.Atoi(m[2])
		case strings.HasPrefix(text, "engine"):
			f := strings.Fields(text)
			if len(f) != 4 || f[1] != "used_memory" || f[2] != "bytes/key" || f[3] != "keys" {
				return 0, 0, "", nil, fmt.Errorf("line %d: unexpected header %q", line, text)
			}
			inTable = true
		case strings.HasPrefix(text, "---"), text == "":
		case strings.HasPrefix(text, "("):
			method = strings.Trim(text, "()")
			inTable = false
		case inTable:
			f := strings.Fields(text)
			if len(f) != 4 {
				return 0, 0, "", nil, fmt.Errorf("line %d: want 4 columns, got %q", line, text)
			}
			used, e1 := strconv.ParseInt(f[1], 10, 64)
			bpk, e2 := strconv.ParseFloat(f[2], 64)
			n, e3 := strconv.Atoi(f[3])
			if e1 != nil || e2 != nil || e3 != nil {
				return 0, 0, "", nil, fmt.Errorf("line %d: bad number in %q", line, text)
			}
			rows = append(rows, MemoryRow{Engine: f[0], UsedMemory: used, BytesPerKey: bpk, Keys: n, Session: 1})
		default:
			return 0, 0, "", nil, fmt.Errorf("line %d: unexpected text %q", line, text)
		}
	}
	if keys == 0 || len(rows) == 0 {
		return 0, 0, "", nil, fmt.Errorf("no header or no rows")
	}
	return keys, valueBytes, method, rows, nil
}
