//go:build race

package planner

// raceDetector is set under -race, where the equivalence tests check a
// sample of their texts (the detector slows regexps tenfold).
const raceDetector = true
