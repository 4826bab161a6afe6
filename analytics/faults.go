package analytics

import (
	"errors"
	"io"
)

// faultHook, when set (the fault-injection tests only), is called at every
// write and sync the store's own code asks for on an import's, a repair's
// and a thread write's path, before it happens, with the point's name; an
// error it returns is what that write or sync returns instead. Badger's
// own writes through memory are not reached (a full disk is tested on a
// small tmpfs instead).
var faultHook func(point string) error

// errShortWrite, returned by faultHook at a write, makes the write put
// half its bytes down and then fail, as a disk that fills mid-write does.
var errShortWrite = errors.New("injected short write")

func fault(point string) error {
	if faultHook == nil {
		return nil
	}
	return faultHook(point)
}

// faultyWrite is w.Write(p) through faultHook at point.
func faultyWrite(point string, w io.Writer, p []byte) (int, error) {
	if err := fault(point); err != nil {
		if errors.Is(err, errShortWrite) {
			n, _ := w.Write(p[:len(p)/2])
			return n, io.ErrShortWrite
		}
		return 0, err
	}
	return w.Write(p)
}
