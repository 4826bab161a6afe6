package analytics

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A repair builds the new store aside, in dir/repair-in-progress, and only
// then moves it into the data directory. The move is many renames (the
// store is the directory's files), so it is journaled: the swap marker,
// written atomically before the first rename, lists the damaged store's
// files; once it exists the swap only ever goes forward, and whoever finds
// it (the next Open, or the next doctor --repair) finishes it. A kill at
// any point leaves the damaged store (no marker yet) or, once the swap is
// finished, the repaired one; never a mix that Badger would open.
const swapMarker = "repair-swap.json"

// swapPlan is the swap marker's content.
type swapPlan struct {
	Damaged string   `json:"damaged"` // directory (inside dir) the damaged files move to
	Old     []string `json:"old"`     // the damaged store's entries in dir
	Moved   bool     `json:"moved"`   // every old entry is in Damaged; the new ones move next
}

// swapTestHook, when set (crash tests only), is called after each step of
// a swap: "marker", "old:N" (the N-th damaged entry moved), "moved",
// "new:N", "done".
var swapTestHook func(step string)

func swapStep(step string) {
	if swapTestHook != nil {
		swapTestHook(step)
	}
}

// swapIn moves the damaged store in dir into damaged and the rebuilt store
// in work into dir, journaled by the swap marker.
func swapIn(dir, work, damaged string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	plan := swapPlan{Damaged: filepath.Base(damaged)}
	for _, e := range entries {
		if name := e.Name(); !isRepairEntry(name) {
			plan.Old = append(plan.Old, name)
		}
	}
	if err := writeSwapPlan(dir, plan); err != nil {
		return err
	}
	swapStep("marker")
	return finishSwap(dir)
}

// isRepairEntry reports whether a name in the data directory belongs to a
// repair rather than to the store.
func isRepairEntry(name string) bool {
	return name == repairDir || strings.HasPrefix(name, damagedPrefix) || strings.HasPrefix(name, swapMarker)
}

// finishRepair finishes a repair's interrupted swap before the store in
// dir opens; a read-only open cannot, and says the store needs recovery.
func finishRepair(dir string, readOnly bool) error {
	if !swapPending(dir) {
		return nil
	}
	if readOnly {
		return fmt.Errorf("%w: a repair of %s was interrupted", ErrNeedsRecovery, dir)
	}
	return finishSwap(dir)
}

// swapPending reports whether a repair's swap was interrupted in dir.
func swapPending(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, swapMarker))
	return err == nil
}

// finishSwap completes the swap the marker in dir describes; with no
// marker there is nothing to do. Each step can be repeated after a kill:
// a rename that already happened is skipped.
func finishSwap(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, swapMarker))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("finishing an interrupted repair: %w", err)
	}
	var plan swapPlan
	if err := json.Unmarshal(b, &plan); err != nil || !plainName(plan.Damaged) || !strings.HasPrefix(plan.Damaged, damagedPrefix) ||
		slices.ContainsFunc(plan.Old, func(n string) bool { return !plainName(n) }) {
		return corrupt(dir, err, "the record of an interrupted repair (%s) is unreadable", swapMarker)
	}
	damaged := filepath.Join(dir, plan.Damaged)
	if !plan.Moved {
		if err := os.MkdirAll(damaged, 0o700); err != nil {
			return err
		}
		for i, name := range plan.Old {
			err := os.Rename(filepath.Join(dir, name), filepath.Join(damaged, name))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("moving the damaged store aside: %w", err)
			}
			swapStep(fmt.Sprintf("old:%d", i))
		}
		if err := syncDir(damaged); err != nil {
			return err
		}
		plan.Moved = true
		if err := writeSwapPlan(dir, plan); err != nil {
			return err
		}
		swapStep("moved")
	}
	work := filepath.Join(dir, repairDir)
	entries, err := os.ReadDir(work)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for i, e := range entries {
		if err := os.Rename(filepath.Join(work, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("moving the rebuilt store into place: %w", err)
		}
		swapStep(fmt.Sprintf("new:%d", i))
	}
	if err := os.Remove(work); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, swapMarker)); err != nil {
		return err
	}
	swapStep("done")
	return syncDir(dir)
}

// plainName reports whether name is one entry of a directory: no
// separator, not "." or "..". A swap marker naming anything else would
// move files outside the data directory.
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`)
}

func writeSwapPlan(dir string, plan swapPlan) error {
	b, err := json.Marshal(plan)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, swapMarker), b); err != nil {
		return err
	}
	return syncDir(dir)
}
