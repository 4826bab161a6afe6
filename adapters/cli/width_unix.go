//go:build unix

package cli

import "golang.org/x/sys/unix"

// terminalWidth asks the terminal on fd for its size; ok is false when fd
// is not a terminal (a pipe, a file).
func terminalWidth(fd uintptr) (int, bool) {
	ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	if err != nil || ws.Col == 0 {
		return 0, false
	}
	return int(ws.Col), true
}
