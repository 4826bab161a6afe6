package compose

// lookupEntry finds a knowledge entry of any kind by id and returns it as a
// source: its id, title and first URL.
func lookupEntry(k Knowledge, id string) (SourceEntry, bool) {
	e, ok := k.Entry(id)
	if !ok {
		return SourceEntry{}, false
	}
	return SourceEntry{ID: e.ID, Title: e.Title, URL: e.URL}, true
}
