package http

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/memdb-oracle/memdb-oracle/bot"
)

// maxCachedCharts bounds the PNGs kept; a chart is tens of kilobytes.
const maxCachedCharts = 128

// chartCache draws each distinct chart once: ?chart=1 asked again for the
// same answer (same chart, drawn from the same runs) costs a lookup, not a
// render at about 25 times an answer's CPU. Concurrent requests for one
// chart wait for the one drawing it.
type chartCache struct {
	render func(context.Context, bot.Chart) ([]byte, error)

	mu    sync.Mutex
	order [][sha256.Size]byte
	byKey map[[sha256.Size]byte]*cachedChart
}

type cachedChart struct {
	once sync.Once
	png  []byte
	err  error
}

func newChartCache(render func(context.Context, bot.Chart) ([]byte, error)) *chartCache {
	return &chartCache{render: render, byKey: map[[sha256.Size]byte]*cachedChart{}}
}

// png returns c drawn, drawing it on first use. A failed drawing is not
// kept, so the next request tries again.
func (cc *chartCache) png(ctx context.Context, c bot.Chart) ([]byte, error) {
	raw, err := json.Marshal(c) // the chart's whole content: its values carry the runs it shows
	if err != nil {
		return cc.render(ctx, c)
	}
	key := sha256.Sum256(raw)
	cc.mu.Lock()
	e, ok := cc.byKey[key]
	if !ok {
		if len(cc.order) >= maxCachedCharts {
			delete(cc.byKey, cc.order[0])
			cc.order = cc.order[1:]
		}
		e = &cachedChart{}
		cc.byKey[key] = e
		cc.order = append(cc.order, key)
	}
	cc.mu.Unlock()
	e.once.Do(func() { e.png, e.err = cc.render(context.WithoutCancel(ctx), c) })
	if e.err != nil {
		cc.mu.Lock()
		if cc.byKey[key] == e {
			delete(cc.byKey, key)
		}
		cc.mu.Unlock()
	}
	return e.png, e.err
}
