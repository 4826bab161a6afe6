package analytics

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
)

// appendCellKey appends an order-preserving encoding of k: comparing two
// encodings byte by byte orders them as CompareCellKeys does. So the cell
// entries under cellRunPrefix sit in Badger cell after cell, in cell
// order, and one forward iteration reads them grouped and ordered.
//
// Numbers are 8 bytes big-endian with the sign bit flipped; engine, mode
// and ratio are one byte (their place in the known list) or, for a value
// outside it, the list's length followed by the escaped text. A version,
// when the cell has one, follows the engine as versionMark and its escaped
// text: no mode's first byte is versionMark, so keys written before
// versions existed read unchanged, and a versionless cell sorts first.
func appendCellKey(dst []byte, k CellKey) []byte {
	dst = appendOrderedInt(dst, k.Session)
	dst = appendOrderedName(dst, Engines, k.Engine)
	if k.Version != "" {
		dst = appendEscaped(append(dst, versionMark), k.Version)
	}
	dst = appendOrderedName(dst, Modes, k.Mode)
	dst = appendOrderedInt(dst, k.Cores)
	dst = appendOrderedName(dst, ratioOrder, k.Ratio)
	dst = appendOrderedInt(dst, k.ValueBytes)
	return appendOrderedInt(dst, k.Pipeline)
}

// cellRunKey is the key of one run's cell entry: cellRunPrefix, its cell,
// its repetition, its ID (so a cell's runs are in repetition order, then
// ID).
func cellRunKey(r *Run) []byte {
	k := make([]byte, 0, len(cellRunPrefix)+40+8+len(r.ID))
	k = append(k, cellRunPrefix...)
	k = appendCellKey(k, r.Key())
	k = appendOrderedInt(k, r.Rep)
	return append(k, r.ID...)
}

// parseCellRunKey splits a key made by cellRunKey into the cell,
// repetition and ID.
func parseCellRunKey(key []byte) (CellKey, int, string, error) {
	rest, ok := bytes.CutPrefix(key, []byte(cellRunPrefix))
	if !ok {
		return CellKey{}, 0, "", fmt.Errorf("%w: not a cell entry", errBadRun)
	}
	k, rest, err := readCellKey(rest)
	if err != nil {
		return CellKey{}, 0, "", err
	}
	rep, rest, err := readOrderedInt(rest)
	if err != nil {
		return CellKey{}, 0, "", err
	}
	return k, rep, string(rest), nil
}

func appendOrderedInt(dst []byte, n int) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(n)^(1<<63))
}

// appendOrderedName writes a known name as its index, an unknown one as
// len(known) then the text with 0x00 escaped as 0x00 0xff and ended by
// 0x00 0x01, which keeps byte order equal to text order.
func appendOrderedName(dst []byte, known []string, s string) []byte {
	if i := slices.Index(known, s); i >= 0 {
		return append(dst, byte(i))
	}
	return appendEscaped(append(dst, byte(len(known))), s)
}

// versionMark opens a cell key's version (see appendCellKey).
const versionMark = 0xfe

// appendEscaped writes s with 0x00 escaped as 0x00 0xff, ended by 0x00
// 0x01.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0, 0xff)
			continue
		}
		dst = append(dst, s[i])
	}
	return append(dst, 0, 1)
}

// readCellKey decodes an encoding made by appendCellKey at the start of b
// and returns the bytes after it.
func readCellKey(b []byte) (CellKey, []byte, error) {
	var k CellKey
	var err error
	if k.Session, b, err = readOrderedInt(b); err != nil {
		return k, nil, err
	}
	if k.Engine, b, err = readOrderedName(b, Engines); err != nil {
		return k, nil, err
	}
	if len(b) > 0 && b[0] == versionMark {
		if k.Version, b, err = readEscaped(b[1:]); err != nil {
			return k, nil, err
		}
	}
	if k.Mode, b, err = readOrderedName(b, Modes); err != nil {
		return k, nil, err
	}
	if k.Cores, b, err = readOrderedInt(b); err != nil {
		return k, nil, err
	}
	if k.Ratio, b, err = readOrderedName(b, ratioOrder); err != nil {
		return k, nil, err
	}
	if k.ValueBytes, b, err = readOrderedInt(b); err != nil {
		return k, nil, err
	}
	if k.Pipeline, b, err = readOrderedInt(b); err != nil {
		return k, nil, err
	}
	return k, b, nil
}

func readOrderedInt(b []byte) (int, []byte, error) {
	if len(b) < 8 {
		return 0, nil, fmt.Errorf("%w: a cell key is cut short", errBadRun)
	}
	return int(binary.BigEndian.Uint64(b) ^ (1 << 63)), b[8:], nil
}

func readOrderedName(b []byte, known []string) (string, []byte, error) {
	if len(b) < 1 {
		return "", nil, fmt.Errorf("%w: a cell key is cut short", errBadRun)
	}
	if i := int(b[0]); i < len(known) {
		return known[i], b[1:], nil
	} else if i > len(known) {
		return "", nil, fmt.Errorf("%w: a bad name in a cell key", errBadRun)
	}
	return readEscaped(b[1:])
}

// readEscaped reads text written by appendEscaped and returns the bytes
// after it.
func readEscaped(b []byte) (string, []byte, error) {
	var s []byte
	for i := 0; i < len(b); i++ {
		if b[i] != 0 {
			s = append(s, b[i])
			continue
		}
		if i+1 >= len(b) {
			break
		}
		switch b[i+1] {
		case 0xff:
			s = append(s, 0)
			i++
		case 1:
			return string(s), b[i+2:], nil
		default:
			return "", nil, fmt.Errorf("%w: a bad name in a cell key", errBadRun)
		}
	}
	return "", nil, fmt.Errorf("%w: a name in a cell key is not ended", errBadRun)
}
