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

// forgetMappedPages drops this process's resident pages of the mapped
// files under dir but leaves them in the page cache (MADV_DONTNEED on
// shared file mappings never loses data): for reads, which then stay
// bounded in RSS without making the next reader go to the disk, as
// MADV_PAGEOUT would.
func forgetMappedPages(dir string) { adviseMappedPages(dir, unix.MADV_DONTNEED) }

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
