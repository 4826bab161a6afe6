package analytics

import (
	"os"
	"syscall"
)

// stampTable reads a table file's identity and change time; ok false when
// the file cannot be stamped (it is then checked every time).
func stampTable(path string) (tableStamp, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return tableStamp{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return tableStamp{}, false
	}
	return tableStamp{size: fi.Size(), dev: st.Dev, ino: st.Ino, ctime: st.Ctim.Nano()}, true
}
