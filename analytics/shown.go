package analytics

import "fmt"

// ShownRunIDs is how many run IDs an answer names per cell: a person reads
// a few, and the cell's filter (CellKey.Filter) lists every one of them, so
// nothing an answer carries grows with the number of repetitions.
const ShownRunIDs = 5

// Filter is the filter that selects exactly this cell's repetitions.
func (k CellKey) Filter() string {
	return fmt.Sprintf(`session == %d && engine == %q && mode == %q && cores == %d && ratio == %q && value_bytes == %d && pipeline == %d`,
		k.Session, k.Engine, k.Mode, k.Cores, k.Ratio, k.ValueBytes, k.Pipeline)
}

// Shown is the cell as an answer carries it: at most ShownRunIDs run IDs
// (copied, never shared with the store); Reps still counts every one.
func (c Cell) Shown() Cell {
	if c.HitRate != nil {
		h := *c.HitRate
		c.HitRate = &h
	}
	c.RunIDs = append([]string(nil), c.RunIDs[:min(len(c.RunIDs), ShownRunIDs)]...)
	return c
}
