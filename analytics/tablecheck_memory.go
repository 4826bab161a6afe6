package analytics

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// checkedTablesFile remembers which table files passed the open-time check
// (verifyTables), each by its name, size, device, inode and change time,
// so a process that opens an unchanged store does not read every table
// again before Badger reads them. Any write to a file, a truncation, a
// rename or a replacement gives it a new change time (which no user can set
// back) or a new inode, so a table damaged or replaced after it was
// remembered is checked again. A missing, stale or unreadable record only
// costs the checks it would have saved: it is never trusted over a file.
const checkedTablesFile = "memdb-oracle-tables-checked"

const checkedTablesHeader = "memdb-oracle checked tables 1"

// racyChange is how recent a file's change time may be for the file not to
// be remembered. A change time is read from a coarse clock (one tick of a
// few milliseconds), so a write in the same tick as the one that gave the
// remembered time could leave it unchanged; a file that changed longer ago
// than a tick before it was read cannot. (The same rule as Git's index.)
// A filesystem whose change times carry no fraction of a second gets
// coarseRacyChange.
const (
	racyChange       = 50 * time.Millisecond
	coarseRacyChange = 2 * time.Second
)

// tableStamp identifies one state of a table file.
type tableStamp struct {
	size     int64
	dev, ino uint64
	ctime    int64 // nanoseconds since the epoch
}

func (t tableStamp) String() string {
	return fmt.Sprintf("%d %d %d %d", t.size, t.dev, t.ino, t.ctime)
}

// rememberable says whether a file stamped when the clock read now changed
// long enough before to be remembered (see racyChange).
func (t tableStamp) rememberable(now time.Time) bool {
	margin := racyChange
	if t.ctime%int64(time.Second) == 0 {
		margin = coarseRacyChange
	}
	return t.ctime < now.Add(-margin).UnixNano()
}

// readCheckedTables reads the record of remembered tables; empty when
// there is none or it is not intact (a torn or edited write).
func readCheckedTables(dir string) map[string]tableStamp {
	b, err := os.ReadFile(filepath.Join(dir, checkedTablesFile))
	if err != nil {
		return nil
	}
	body, sum, ok := bytes.Cut(b, []byte("\ncrc32 "))
	if !ok || strings.TrimSpace(string(sum)) != strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 16) {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	if !sc.Scan() || sc.Text() != checkedTablesHeader {
		return nil
	}
	out := make(map[string]tableStamp)
	for sc.Scan() {
		name, t, ok := parseStamp(sc.Text())
		if !ok {
			return nil
		}
		out[name] = t
	}
	return out
}

// parseStamp reads one line of the record: name, size, device, inode and
// change time.
func parseStamp(line string) (string, tableStamp, bool) {
	f := strings.Fields(line)
	if len(f) != 5 {
		return "", tableStamp{}, false
	}
	var (
		t    tableStamp
		errs [4]error
	)
	t.size, errs[0] = strconv.ParseInt(f[1], 10, 64)
	t.dev, errs[1] = strconv.ParseUint(f[2], 10, 64)
	t.ino, errs[2] = strconv.ParseUint(f[3], 10, 64)
	t.ctime, errs[3] = strconv.ParseInt(f[4], 10, 64)
	return f[0], t, errs == [4]error{}
}

// writeCheckedTables replaces the record with tables. Nothing is synced:
// a record lost or torn in a crash is only checks to do again.
func writeCheckedTables(dir string, tables map[string]tableStamp) error {
	names := make([]string, 0, len(tables))
	for name := range tables {
		names = append(names, name)
	}
	slices.Sort(names)
	var b bytes.Buffer
	b.WriteString(checkedTablesHeader)
	for _, name := range names {
		fmt.Fprintf(&b, "\n%s %s", name, tables[name])
	}
	fmt.Fprintf(&b, "\ncrc32 %x\n", crc32.ChecksumIEEE(b.Bytes()))
	f, err := os.CreateTemp(dir, checkedTablesFile+".*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, checkedTablesFile))
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}

// waitUntilRememberable sleeps until every table in dir changed longer ago
// than racyChange, when that is at most racyChange away (a filesystem of
// whole-second change times is not waited for).
func waitUntilRememberable(dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	var newest int64
	for _, f := range files {
		if st, ok := stampTable(f); ok && st.ctime%int64(time.Second) != 0 {
			newest = max(newest, st.ctime)
		}
	}
	if wait := time.Until(time.Unix(0, newest).Add(racyChange + time.Millisecond)); wait > 0 && wait <= racyChange+time.Millisecond {
		time.Sleep(wait)
	}
}
