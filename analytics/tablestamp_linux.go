package analytics

import "syscall"

// stampTable reads a table file's identity and change time; ok false when
// the file cannot be stamped (it is then checked every time).
func stampTable(path string) (tableStamp, bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return tableStamp{}, false
	}
	return tableStamp{size: st.Size, dev: st.Dev, ino: st.Ino, ctime: st.Ctim.Nano()}, true
}
