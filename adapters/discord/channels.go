package discord

import (
	"context"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// maxCachedChannels bounds the channel cache; when full it starts over.
const maxCachedChannels = 4096

// channelInfo is what the adapter needs to know about a channel: whether it
// is a thread, its parent channel and who started it.
type channelInfo struct {
	thread bool
	parent string
	owner  string
}

// channelCache remembers channel facts (they never change for a thread) so
// that each message costs at most one lookup per channel.
type channelCache struct {
	mu sync.Mutex
	m  map[string]channelInfo
}

func newChannelCache() *channelCache { return &channelCache{m: map[string]channelInfo{}} }

func (c *channelCache) get(id string) (channelInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	info, ok := c.m[id]
	return info, ok
}

func (c *channelCache) put(id string, info channelInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxCachedChannels {
		c.m = map[string]channelInfo{}
	}
	c.m[id] = info
}

func infoOf(ch *discordgo.Channel) channelInfo {
	return channelInfo{thread: ch.IsThread(), parent: ch.ParentID, owner: ch.OwnerID}
}

// channel returns what is known about a channel: from the cache, the
// gateway state, or one REST lookup. Threads the bot starts are recorded
// when it starts them, so it recognises its own threads after a restart
// too (Discord keeps the owner).
func (a *Adapter) channel(ctx context.Context, id string) (channelInfo, error) {
	if info, ok := a.channels.get(id); ok {
		return info, nil
	}
	ch, err := a.s.State.Channel(id)
	if err != nil {
		ch, err = a.s.Channel(id, rest(ctx))
		if err != nil {
			return channelInfo{}, err
		}
	}
	info := infoOf(ch)
	a.channels.put(id, info)
	return info, nil
}
