package http

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies are the networks whose forwarding headers are believed.
// Empty: the connection's own address is always the client.
type TrustedProxies []netip.Prefix

// ParseTrustedProxies reads a comma- or space-separated list of CIDRs or
// single addresses (MEMDB_ORACLE_TRUSTED_PROXIES).
func ParseTrustedProxies(list string) (TrustedProxies, error) {
	var out TrustedProxies
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR nor an address", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (t TrustedProxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range t {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ClientAddr is the address of the client that made r: the connection's
// peer, or, when that peer is a trusted proxy, the nearest address in the
// Forwarded (or else X-Forwarded-For) chain that is not a trusted proxy.
// Headers from anyone else are ignored, so a client cannot pick its own
// bucket by sending them.
func (t TrustedProxies) ClientAddr(r *http.Request) string {
	peer, ok := parseHostAddr(r.RemoteAddr)
	if !ok {
		return remoteHost(r)
	}
	if len(t) == 0 || !t.trusts(peer) {
		return peer.String()
	}
	chain := forwardedFor(r.Header.Values("Forwarded"))
	if len(chain) == 0 {
		chain = xForwardedFor(r.Header.Values("X-Forwarded-For"))
	}
	client := peer
	// Walk from the nearest hop outwards; the first untrusted hop is the client.
	for i := len(chain) - 1; i >= 0; i-- {
		a, ok := parseHostAddr(chain[i])
		if !ok {
			break // an unreadable hop: stop at the last address we could trust
		}
		client = a
		if !t.trusts(a) {
			break
		}
	}
	return client.String()
}

func xForwardedFor(values []string) []string {
	var out []string
	for _, v := range values {
		for _, hop := range strings.Split(v, ",") {
			if hop = strings.TrimSpace(hop); hop != "" {
				out = append(out, hop)
			}
		}
	}
	return out
}

// forwardedFor extracts the for= parameters of RFC 7239 Forwarded headers.
func forwardedFor(values []string) []string {
	var out []string
	for _, v := range values {
		for _, elem := range strings.Split(v, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "for") {
					out = append(out, strings.Trim(val, `"`))
				}
			}
		}
	}
	return out
}

// parseHostAddr reads "1.2.3.4", "1.2.3.4:5", "[::1]:5" or "::1".
func parseHostAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(strings.Trim(s, "[]"))
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}
