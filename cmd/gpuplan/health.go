package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Health endpoints, as the deploy files probe them.
const (
	healthPath      = "/healthz"
	readyPath       = "/readyz"
	metricsPath     = "/metrics"
	defaultHTTPAddr = ":8080"
	storePingLimit  = time.Second     // how long readiness waits for the store
	storePingCache  = 2 * time.Second // how long a ping's answer is reused
)

// readiness answers /readyz: ready while Socket Mode is connected and the
// store answers a ping (Now, within storePingLimit). The ping's result is
// reused for storePingCache so probes from several sources cost one
// round trip.
type readiness struct {
	connected func() bool
	ping      func(ctx context.Context) error
	now       func() time.Time
	log       *zap.Logger

	mu       sync.Mutex
	pingedAt time.Time
	pingErr  error
	ready    bool // last answer, to log changes only
}

// check returns "" when ready, else a short reason that holds no secret:
// it names what is missing, never an address or an error text.
func (r *readiness) check(ctx context.Context) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if r.pingedAt.IsZero() || now.Sub(r.pingedAt) >= storePingCache {
		pctx, cancel := context.WithTimeout(ctx, storePingLimit)
		r.pingErr = r.ping(pctx)
		cancel()
		r.pingedAt = now
	}
	var missing []string
	if !r.connected() {
		missing = append(missing, "Socket Mode is not connected")
	}
	if r.pingErr != nil {
		missing = append(missing, "the reservation store does not answer")
	}
	reason := strings.Join(missing, "; ")
	if ready := reason == ""; ready != r.ready {
		r.ready = ready
		if ready {
			r.log.Info("ready")
		} else {
			r.log.Warn("not ready", zap.String("reason", reason), zap.NamedError("store", r.pingErr))
		}
	}
	return reason
}

// newHTTPHandler routes the health and metrics endpoints.
func newHTTPHandler(reg *registry, ready *readiness) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+healthPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET "+readyPath, func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if reason := ready.check(req.Context()); reason != "" {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintln(w, "not ready: "+reason)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET "+metricsPath, reg)
	return mux
}

// httpServer is serve's health and metrics listener.
type httpServer struct {
	srv  *http.Server
	ln   net.Listener
	wg   sync.WaitGroup
	log  *zap.Logger
	addr string
}

// startHTTP listens on addr (so a taken port fails the start) and serves h
// in a goroutine that stop waits for.
func startHTTP(addr string, h http.Handler, log *zap.Logger) (*httpServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--http-addr %s: %w", addr, err)
	}
	s := &httpServer{ln: ln, log: log, addr: ln.Addr().String(),
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      30 * time.Second,
			IdleTimeout:       60 * time.Second,
			ErrorLog:          zap.NewStdLog(log.Named("http")),
		}}
	s.wg.Go(func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("health and metrics server stopped", zap.Error(err))
		}
	})
	log.Info("health and metrics", zap.String("addr", s.addr),
		zap.Strings("paths", []string{healthPath, readyPath, metricsPath}))
	return s, nil
}

// stop shuts the server down gracefully (in-flight scrapes finish, at
// most timeout) and waits for its goroutine.
func (s *httpServer) stop(timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		s.log.Warn("health and metrics server: forced close", zap.Error(err))
		_ = s.srv.Close()
	}
	s.wg.Wait()
}

// healthcheck is `gpuplan healthcheck [path]`: a GET of a running serve's
// /healthz (or the path given) on GPUPLAN_HTTP_ADDR, for container
// health checks in images that have no curl (distroless). It exits 0 on
// 200 and 1 otherwise.
func healthcheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http-addr", envOr(getenv, "GPUPLAN_HTTP_ADDR", defaultHTTPAddr), "serve's --http-addr (env GPUPLAN_HTTP_ADDR)")
	if err := parseFlags(fs, args); err != nil {
		return 2
	}
	path := healthPath
	if fs.NArg() > 0 {
		path = fs.Arg(0)
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil || !strings.HasPrefix(path, "/") {
		fmt.Fprintf(stderr, "gpuplan healthcheck: want host:port and a /path, got %q %q\n", *addr, path)
		return 2
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+path, nil)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan healthcheck:", err)
		return 2
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(stderr, "gpuplan healthcheck:", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	fmt.Fprintf(stdout, "%d %s", resp.StatusCode, body)
	if resp.StatusCode != http.StatusOK {
		return 1
	}
	return 0
}
