package cli

import (
	"strconv"
	"strings"
)

// DefaultWidth is the terminal width assumed when neither $COLUMNS nor the
// terminal says: wide enough for most answer tables, narrow enough that a
// pasted answer still reads in a chat window.
const DefaultWidth = 100

// minWidth is the narrowest width honoured; below it every table would
// become row lines and a typo in $COLUMNS ("8" for "80") would look like a
// bug.
const minWidth = 20

// Width is the width to lay answers out for: $COLUMNS (columnsEnv) when it
// is a whole number of at least minWidth, else the width of the terminal
// on fd when fd is one, else DefaultWidth.
func Width(columnsEnv string, fd uintptr) int {
	if n, err := strconv.Atoi(strings.TrimSpace(columnsEnv)); err == nil && n >= minWidth {
		return n
	}
	if n, ok := terminalWidth(fd); ok && n >= minWidth {
		return n
	}
	return DefaultWidth
}
