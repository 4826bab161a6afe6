package knowledge

import (
	"fmt"
	"math"
)

// Figure is a number derived from two measures when the base is loaded:
//
//	ratio      A ÷ B, written "3.4×"
//	pct        A as a percentage of B, "38%"
//	more       how much larger A is than B, "13.1% more" written "13.1%"
//	less       how much smaller A is than B, "11.6%"
//	change     signed change from B to A, "+12%" or "−1.8%"
//	crossover  the first core count at which series A beats series B, "16 cores"
//	keys       A × 10: keys per second for a 10-key command rate, "23.7M keys/s"
//
// A and B name measures of the same entry.
type Figure struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	A        string `json:"a"`
	B        string `json:"b,omitempty"`
	Decimals *int   `json:"decimals,omitempty"` // default: ratio 1, pct/more/less/change 0 below 10% → 1

	// Computed at load time:
	Value float64 `json:"value"`
	Text  string  `json:"text"`
}

var figureKinds = map[string]bool{
	"ratio": true, "pct": true, "more": true, "less": true, "change": true,
	"crossover": true, "keys": true,
}

// computeFigure derives f from the named measures.
func computeFigure(f *Figure, ms map[string]*Measure) error {
	if !figureKinds[f.Kind] {
		return fmt.Errorf("figure %q: unknown kind %q: %w", f.Name, f.Kind, ErrInvalid)
	}
	a, ok := ms[f.A]
	if !ok {
		return fmt.Errorf("figure %q: unknown measure %q: %w", f.Name, f.A, ErrInvalid)
	}
	if f.Kind == "keys" {
		f.Value = a.Value * 10
		f.Text = formatOps(f.Value) + " keys/s"
		return nil
	}
	b, ok := ms[f.B]
	if !ok {
		return fmt.Errorf("figure %q: unknown measure %q: %w", f.Name, f.B, ErrInvalid)
	}
	if f.Kind == "crossover" {
		return crossover(f, a, b)
	}
	if b.Value == 0 {
		return fmt.Errorf("figure %q: %s is zero, cannot divide: %w", f.Name, f.B, ErrInvalid)
	}
	r := a.Value / b.Value
	switch f.Kind {
	case "ratio":
		f.Value = r
		f.Text = trimFloat(r, f.decimals(1)) + "×"
	case "pct":
		f.Value = r * 100
		f.Text = pctText(f.Value, f.decimals(pctDecimals(f.Value)))
	case "more":
		f.Value = (r - 1) * 100
		f.Text = pctText(f.Value, f.decimals(pctDecimals(f.Value)))
	case "less":
		f.Value = (1 - r) * 100
		f.Text = pctText(f.Value, f.decimals(pctDecimals(f.Value)))
	case "change":
		f.Value = (r - 1) * 100
		t := pctText(math.Abs(f.Value), f.decimals(pctDecimals(f.Value)))
		if f.Value < 0 {
			f.Text = "−" + t
		} else {
			f.Text = "+" + t
		}
	}
	return nil
}

func (f *Figure) decimals(def int) int {
	if f.Decimals != nil {
		return *f.Decimals
	}
	return def
}

func pctDecimals(v float64) int {
	if math.Abs(v) < 10 {
		return 1
	}
	return 0
}

func pctText(v float64, dec int) string { return trimFloat(v, dec) + "%" }

// crossover finds the first core count at which series a beats series b
// (both must be measured at that core count).
func crossover(f *Figure, a, b *Measure) error {
	if a.Across != "cores" || b.Across != "cores" {
		return fmt.Errorf("figure %q: crossover needs two measures across cores: %w", f.Name, ErrInvalid)
	}
	bv := map[int]float64{}
	for _, c := range b.Series {
		v, _ := c.Metric(b.Metric)
		bv[c.Cores] = v
	}
	common := 0
	for _, c := range a.Series {
		other, ok := bv[c.Cores]
		if !ok {
			continue
		}
		common++
		v, _ := c.Metric(a.Metric)
		if v > other {
			f.Value = float64(c.Cores)
			f.Text = fmt.Sprintf("%d cores", c.Cores)
			return nil
		}
	}
	if common == 0 {
		return fmt.Errorf("figure %q: %s and %s share no core count: %w", f.Name, f.A, f.B, ErrInvalid)
	}
	return fmt.Errorf("figure %q: %s never passes %s at any measured core count: %w", f.Name, f.A, f.B, ErrInvalid)
}
