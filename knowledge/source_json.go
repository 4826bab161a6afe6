package knowledge

import (
	"encoding/json"
	"strings"
)

// UnmarshalJSON accepts either a full object or, as the data files write
// it, a source id ("blog-part2" or "source:blog-part2") that Load resolves
// against data/sources.json.
func (s *Source) UnmarshalJSON(b []byte) error {
	var id string
	if err := json.Unmarshal(b, &id); err == nil {
		if !strings.HasPrefix(id, "source:") {
			id = "source:" + id
		}
		*s = Source{ID: id}
		return nil
	}
	type plain Source
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = Source(p)
	return nil
}
