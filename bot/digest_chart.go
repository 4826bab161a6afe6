package bot

import (
	"context"
	"errors"
)

// renderChart draws the digest's headline chart once for every target, or
// returns nil when there is nothing to draw, no renderer, no target that
// can post a chart, or drawing failed (logged: the text goes out anyway).
func (p *DigestPublisher) renderChart(d Digest) []byte {
	if p.render == nil || d.Chart == nil || !p.anyChartPoster() {
		return nil
	}
	png, err := p.render(*d.Chart)
	if err == nil && len(png) == 0 {
		err = errors.New("empty image")
	}
	if err != nil {
		p.log.Warn("digest chart not rendered; the digest goes without it", "chart", d.Chart.Title, "err", err)
		return nil
	}
	return png
}

func (p *DigestPublisher) anyChartPoster() bool {
	for _, t := range p.targets {
		if _, ok := t.Poster.(ChartPoster); ok {
			return true
		}
	}
	return false
}

// postChart posts the rendered chart into the digest's thread at one
// target and reports whether it got there. A failure is logged and costs
// only the picture: the headline and details are already posted.
func (p *DigestPublisher) postChart(ctx context.Context, t DigestTarget, ref string, c *Chart, png []byte) bool {
	cp, ok := t.Poster.(ChartPoster)
	if !ok || c == nil || len(png) == 0 {
		return false
	}
	alt := c.AltText
	if alt == "" {
		alt = c.Title
	}
	if err := cp.PostChart(ctx, t.Channel, ref, png, alt, c.Title); err != nil {
		p.log.Warn("digest chart not posted; the text went without it", "target", t.String(), "err", err)
		return false
	}
	return true
}
