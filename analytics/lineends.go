package analytics

import (
	"bytes"
	"io"
)

// crToLF turns lone carriage returns (the line ends of old Mac files) into
// newlines, so such a file parses instead of reading as one long header.
// CR LF pairs pass unchanged; encoding/csv drops the CR. A CR can never be
// part of a valid field (fields must be printable), so nothing is lost.
type crToLF struct {
	r    io.Reader
	held bool // the previous read ended in a CR whose successor is not known yet
}

func (c *crToLF) Read(p []byte) (int, error) {
	if len(p) < 2 {
		return c.r.Read(p) // too small to hold back a CR; callers here use large buffers
	}
	off := 0
	if c.held {
		p[0], off, c.held = '\r', 1, false
	}
	n, err := c.r.Read(p[off:])
	n += off
	if n > 0 && p[n-1] == '\r' && err == nil {
		n--
		c.held = true // decide once the next byte is known
	}
	for i := 0; i < n; i++ {
		j := bytes.IndexByte(p[i:n], '\r')
		if j < 0 {
			break
		}
		if i += j; i+1 >= n || p[i+1] != '\n' {
			p[i] = '\n'
		}
	}
	if n == 0 && err == nil && c.held {
		return 0, nil
	}
	return n, err
}
