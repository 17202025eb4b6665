package bot

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/gorilla/websocket"
)

// connWrapper is a net.Conn; tests wrap it to inject transport faults.
type connWrapper = net.Conn

// eofGuard maps io.ErrUnexpectedEOF from the transport (crypto/tls when a
// stream ends mid-record) to io.EOF. gorilla/websocket then reports a
// 1006 close and slack-go reconnects, instead of slack-go treating the
// error as an ignorable frame and re-reading a dead connection (older
// releases panicked after 1000 such reads; v0.35 gives up after 10).
type eofGuard struct{ net.Conn }

func (g eofGuard) Read(p []byte) (int, error) {
	n, err := g.Conn.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}

// dialer is slack-go's default dialer (proxy from the environment, 45 s
// handshake, 32 KiB write buffer so frames are never split) with the
// EOF guard under both plain and TLS connections.
func (b *Bot) dialer() *websocket.Dialer {
	wrap := func(c net.Conn) net.Conn {
		if b.wrapConn != nil {
			c = b.wrapConn(c)
		}
		return eofGuard{b.newTap(c)}
	}
	nd := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: 45 * time.Second,
		WriteBufferSize:  32 * 1024,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return wrap(c), nil
		},
		NetDialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			raw, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				raw.Close()
				return nil, fmt.Errorf("dial %s: %w", addr, err)
			}
			tc := tls.Client(raw, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12})
			if err := tc.HandshakeContext(ctx); err != nil {
				raw.Close()
				return nil, err
			}
			return wrap(tc), nil
		},
	}
}
