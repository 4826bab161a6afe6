package planner

import (
	"sync/atomic"
)

// textIndex records which bytes and (hashed) byte pairs a text holds. A
// gate's literal is looked for in the text only when all its pairs are
// there, so most of the many literals the grammar's gates list are ruled
// out by bit tests instead of substring searches.
type textIndex struct {
	text  string
	bytes [4]uint64
	pairs [pairBits / 64]uint64
}

const pairBits = 2048

func pairHash(a, b byte) uint16 {
	return uint16((uint(a)*67 + uint(b)) % pairBits)
}

func newTextIndex(text string) *textIndex {
	ix := &textIndex{text: text}
	for i := 0; i < len(text); i++ {
		c := text[i]
		ix.bytes[c>>6] |= 1 << (c & 63)
		if i+1 < len(text) {
			h := pairHash(c, text[i+1])
			ix.pairs[h>>6] |= 1 << (h & 63)
		}
	}
	return ix
}

func (ix *textIndex) hasPairs(pairs []uint16) bool {
	for _, h := range pairs {
		if ix.pairs[h>>6]&(1<<(h&63)) == 0 {
			return false
		}
	}
	return true
}

// recentTexts keeps the indexes of the last texts gates were checked on:
// the rules check hundreds of gates against the same few texts of one
// question in a row. Entries are immutable; a slot is replaced whole.
var (
	recentTexts [8]atomic.Pointer[textIndex]
	nextSlot    atomic.Uint32
)

// indexOf returns the text's index, reusing a recent one.
func indexOf(text string) *textIndex {
	for i := range recentTexts {
		if ix := recentTexts[i].Load(); ix != nil && len(ix.text) == len(text) && ix.text == text {
			return ix
		}
	}
	ix := newTextIndex(text)
	recentTexts[nextSlot.Add(1)%uint32(len(recentTexts))].Store(ix)
	return ix
}
