//go:build linux

package analytics

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// releaseMappedPages asks the kernel to reclaim this process's resident
// pages of the memory-mapped files under dir (Badger's tables, value log and
// memtable logs). Badger reads and writes those files through mmap and has
// no file-I/O mode, so every page an import writes would otherwise stay in
// the process's resident set until the store is closed: a million runs
// would cost their size in RSS. MADV_PAGEOUT never changes contents (dirty
// pages are skipped, so callers sync first), which keeps it safe even if a
// mapping is replaced between reading the list and the call.
func releaseMappedPages(dir string) { adviseMappedPages(dir, unix.MADV_PAGEOUT) }

// forgetMappedPages bounds the resident set of a read that maps every
// table and value-log page. It uses MADV_PAGEOUT too, not MADV_DONTNEED:
// the ranges come from /proc/self/maps, and should Badger unmap a table
// between that read and the call, and the Go heap reuse the addresses,
// MADV_DONTNEED would zero live heap pages — silent corruption — where
// MADV_PAGEOUT leaves any contents as they are. The price is that the
// next reader of those pages may go to the disk.
func forgetMappedPages(dir string) { adviseMappedPages(dir, unix.MADV_PAGEOUT) }

func adviseMappedPages(dir string, advice int) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	prefix := []byte(abs + string(filepath.Separator))
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.IndexByte(line, '/')
		if i < 0 || !bytes.HasPrefix(line[i:], prefix) {
			continue
		}
		span, _, _ := bytes.Cut(line, []byte(" "))
		lo, hi, ok := bytes.Cut(span, []byte("-"))
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, uintptr(start), uintptr(end-start), uintptr(advice))
	}
}
