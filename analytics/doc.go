// Package analytics holds the measured benchmark runs: the Run type, CSV
// import, the Badger-backed store, the expr filter gate, medians per cell,
// and coverage (which knob values were measured, and the nearest cells to a
// combination that was not). It knows nothing of chat. Badger and expr are
// imported here and nowhere else in the project.
package analytics
