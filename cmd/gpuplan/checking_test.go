package main

import (
	"bytes"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/redis/go-redis/v9"
)

// lossyProxy forwards Redis connections; once armed, on the first
// connection that sends a script (EVALSHA or EVAL), Redis' replies from
// then on are dropped — the script runs, its answer never arrives. Every other
// connection (the store's look-up of its request id) passes.
type lossyProxy struct {
	l     net.Listener
	wg    sync.WaitGroup
	mu    sync.Mutex
	armed bool // the next script's connection loses its replies
}

func (p *lossyProxy) arm() { p.mu.Lock(); p.armed = true; p.mu.Unlock() }

func startLossyProxy(t *testing.T, target string) *lossyProxy {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &lossyProxy{l: l}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			var mu sync.Mutex
			drop := false
			p.wg.Add(2)
			go func() { // client → Redis, watching for a script
				defer p.wg.Done()
				defer s.Close()
				buf := make([]byte, 64<<10)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						if up := bytes.ToUpper(buf[:n]); bytes.Contains(up, []byte("EVALSHA")) || bytes.Contains(up, []byte("\r\nEVAL\r\n")) {
							p.mu.Lock()
							first := p.armed
							p.armed = false
							p.mu.Unlock()
							if first {
								mu.Lock()
								drop = true
								mu.Unlock()
							}
						}
						if _, werr := s.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
			go func() { // Redis → client, unless dropping
				defer p.wg.Done()
				defer c.Close()
				buf := make([]byte, 64<<10)
				for {
					n, err := s.Read(buf)
					mu.Lock()
					d := drop
					mu.Unlock()
					if n > 0 && !d {
						if _, werr := c.Write(buf[:n]); werr != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(func() { l.Close(); p.wg.Wait() })
	return p
}

// Issue 12: a reserve whose reply is lost is looked up before the answer,
// and the terminal says so meanwhile ("the store did not answer;
// checking…"); the answer is then what happened: the reservation made.
func TestCLISaysItIsCheckingALostReply(t *testing.T) {
	rdb := startOwnRedis(t)
	redis.SetLogger(quietRedis{})
	u, err := url.Parse(rdb.url)
	if err != nil {
		t.Fatal(err)
	}
	p := startLossyProxy(t, u.Host)
	u.Host = p.l.Addr().String()
	env := map[string]string{"REDIS_URL": u.String()}
	// Redis knows the scripts (else the lost reply would be NOSCRIPT: a
	// script that did not run, and is reported so).
	if code, _, errOut := runCLI(t, env, "reserve", "1 on server-a for 1h", "--as", "bob"); code != exitOK {
		t.Fatalf("warm-up reserve: exit %d %s", code, errOut)
	}
	p.arm()
	code, out, errOut := runCLI(t, env, "reserve", "1 on server-h for 1h", "--as", "alice")
	if code != exitOK || !strings.Contains(out, "server-h-") {
		t.Fatalf("reserve with its reply lost: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, commands.CheckingText) || strings.Contains(errOut, "stopped answering") {
		t.Errorf("stderr should say it checked, and not that the outcome is unknown:\n%s", errOut)
	}
	// Nothing lost on the way: exactly one reservation.
	if code, out, _ := runCLI(t, map[string]string{"REDIS_URL": rdb.url}, "mine", "--as", "alice"); code != 0 || !strings.Contains(out, "1 reservation(s)") {
		t.Errorf("mine after the lost reply:\n%s", out)
	}
}
