package hub

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const goodToken = "hf_TESTtoken1234567890abcdefSECRET"

// fakeHub serves the recorded config files the way the Hub does: GET
// /{org}/{name}/resolve/main/config.json. meta-llama/* is gated (401 with
// X-Error-Code GatedRepo without a token, 403 with a token that has not
// been granted access); broken/html answers an HTML page; anything else
// not recorded is a 404 RepoNotFound.
type fakeHub struct {
	t     *testing.T
	srv   *httptest.Server
	hits  atomic.Int64
	mu    sync.Mutex
	auths []string // Authorization headers seen
	paths []string
}

func newFakeHub(t *testing.T) *fakeHub {
	h := &fakeHub{t: t}
	files := map[string]string{}
	for _, rc := range recordedConfigs {
		files[rc.id] = rc.file
	}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.hits.Add(1)
		h.mu.Lock()
		h.auths = append(h.auths, r.Header.Get("Authorization"))
		h.paths = append(h.paths, r.URL.Path)
		h.mu.Unlock()
		id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/resolve/main/config.json")
		if r.Method != http.MethodGet || !ok {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		auth := r.Header.Get("Authorization")
		switch {
		case id == "broken/html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!doctype html><title>Mirror maintenance</title>"))
			return
		case id == "broken/five-hundred":
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		case strings.HasPrefix(id, "meta-llama/") && auth == "":
			w.Header().Set("X-Error-Code", "GatedRepo")
			http.Error(w, "Access to model "+id+" is restricted. You must be authenticated to access it.", http.StatusUnauthorized)
			return
		case strings.HasPrefix(id, "meta-llama/") && auth != "Bearer "+goodToken:
			w.Header().Set("X-Error-Code", "GatedRepo")
			http.Error(w, "Access to model "+id+" is restricted and you are not in the authorized list.", http.StatusForbidden)
			return
		}
		f, ok := files[id]
		if !ok {
			w.Header().Set("X-Error-Code", "RepoNotFound")
			http.Error(w, "Repository not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(readTestdata(t, f))
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *fakeHub) client(t *testing.T, token string) *Client {
	return &Client{Endpoint: h.srv.URL, Token: token, CacheDir: t.TempDir()}
}

// The real client fetches every recorded config from the fake Hub by its
// URL scheme and derives the model; Source is the URL it read.
func TestLoadFromHub(t *testing.T) {
	hub := newFakeHub(t)
	c := hub.client(t, goodToken)
	for _, rc := range recordedConfigs {
		m, err := Load(context.Background(), c, rc.id)
		if err != nil {
			t.Fatalf("%s: %v", rc.id, err)
		}
		if want := hub.srv.URL + "/" + rc.id + "/resolve/main/config.json"; m.Source != want {
			t.Errorf("%s: Source %q, want %q", rc.id, m.Source, want)
		}
		if m.ID != rc.id || m.Origin != "hub" || m.ParamsB <= 0 {
			t.Errorf("%s: %+v", rc.id, m)
		}
	}
	for _, p := range hub.paths {
		if !strings.HasSuffix(p, "/resolve/main/config.json") {
			t.Errorf("requested %s", p)
		}
	}
}

// A gated model: without a token the 401 says to set HF_TOKEN and accept
// the licence; a refused token (403) says to accept the licence with that
// account; the right token gets the file, sent as a bearer header.
func TestGatedModel(t *testing.T) {
	hub := newFakeHub(t)
	ctx := context.Background()
	id := "meta-llama/Llama-3.2-3B"

	_, err := hub.client(t, "").Config(ctx, id)
	var he *Error
	if !errors.Is(err, ErrGated) || !errors.As(err, &he) || he.Status != http.StatusUnauthorized {
		t.Fatalf("no token: %v", err)
	}
	for _, s := range []string{id, "HF_TOKEN", "licence", "gated"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("no-token message %q lacks %q", err, s)
		}
	}

	wrong := "hf_WRONGtoken_0987654321"
	_, err = hub.client(t, wrong).Config(ctx, id)
	if !errors.Is(err, ErrGated) || !strings.Contains(err.Error(), "licence") || !strings.Contains(err.Error(), "HTTP 403") {
		t.Fatalf("refused token: %v", err)
	}
	if strings.Contains(err.Error(), wrong) {
		t.Errorf("the token leaked into %q", err)
	}

	b, err := hub.client(t, goodToken).Config(ctx, id)
	if err != nil || !bytes.Contains(b, []byte(`"LlamaForCausalLM"`)) {
		t.Fatalf("good token: %v %s", err, b)
	}
	hub.mu.Lock()
	last := hub.auths[len(hub.auths)-1]
	first := hub.auths[0]
	hub.mu.Unlock()
	if last != "Bearer "+goodToken || first != "" {
		t.Errorf("Authorization headers: first %q last %q", first, last)
	}
}

func TestNotFound(t *testing.T) {
	hub := newFakeHub(t)
	_, err := hub.client(t, "").Config(context.Background(), "nobody/no-such-model")
	var he *Error
	if !errors.Is(err, ErrNotFound) || !errors.As(err, &he) || he.Status != http.StatusNotFound {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(err.Error(), "nobody/no-such-model") || !strings.Contains(err.Error(), "no model") {
		t.Errorf("message %q", err)
	}
	if errors.Is(err, ErrGated) || errors.Is(err, ErrOffline) {
		t.Errorf("%v matches other kinds", err)
	}
}

// A server answer that is not a config (a mirror's HTML page) is
// malformed, and is not cached; a 5xx is an outage.
func TestMalformedAndServerErrors(t *testing.T) {
	hub := newFakeHub(t)
	c := hub.client(t, "")
	for i := 0; i < 2; i++ {
		_, err := c.Config(context.Background(), "broken/html")
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "not a JSON object") {
			t.Fatalf("html: %v", err)
		}
	}
	if n := hub.hits.Load(); n != 2 {
		t.Errorf("%d requests: a malformed answer must not be cached", n)
	}
	if _, err := os.Stat(filepath.Join(c.CacheDir, "broken", "html", "config.json")); err == nil {
		t.Error("malformed file cached")
	}
	_, err := c.Config(context.Background(), "broken/five-hundred")
	if !errors.Is(err, ErrOffline) || !strings.Contains(err.Error(), "HTTP 500") {
		t.Errorf("500: %v", err)
	}
	// A malformed local file is reported with its path.
	p := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(p, []byte(`{"model_type": "llama"`), 0o644)
	if _, err := Load(context.Background(), nil, p); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), p) {
		t.Errorf("local malformed: %v", err)
	}
}

// The second request for a model is answered from the on-disk cache, even
// with the server gone; the cache holds exactly the served bytes and no
// temporary files.
func TestCacheAnswersWithoutNetwork(t *testing.T) {
	hub := newFakeHub(t)
	c := hub.client(t, "")
	id := "Qwen/Qwen2.5-7B"
	first, err := c.Config(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	hub.srv.Close()
	second, err := c.Config(context.Background(), id)
	if err != nil {
		t.Fatalf("cached copy not used with the server down: %v", err)
	}
	if !bytes.Equal(first, second) || !bytes.Equal(first, readTestdata(t, "Qwen_Qwen2.5-7B.json")) {
		t.Error("cached bytes differ from the served file")
	}
	if m, err := Load(context.Background(), c, id); err != nil || m.Layers != 28 {
		t.Errorf("Load from cache: %v %+v", err, m)
	}
	entries, _ := os.ReadDir(filepath.Join(c.CacheDir, "Qwen", "Qwen2.5-7B"))
	if len(entries) != 1 || entries[0].Name() != "config.json" {
		t.Errorf("cache dir holds %v", entries)
	}
	// Another client sharing the cache directory also answers offline.
	c2 := &Client{Endpoint: "http://127.0.0.1:1", CacheDir: c.CacheDir}
	if _, err := c2.Config(context.Background(), id); err != nil {
		t.Errorf("shared cache: %v", err)
	}
	// A model never fetched is an offline error that says so.
	_, err = c.Config(context.Background(), "Qwen/Qwen3-8B")
	if !errors.Is(err, ErrOffline) || !strings.Contains(err.Error(), "offline or unreachable") {
		t.Errorf("uncached model with the server down: %v", err)
	}
}

// Many concurrent first requests for one model all succeed and leave one
// whole cached file (the write is a rename of a finished temporary file).
func TestConcurrentFetchesCacheAtomically(t *testing.T) {
	hub := newFakeHub(t)
	c := hub.client(t, "")
	id := "mistralai/Mixtral-8x7B-v0.1"
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Config(context.Background(), id); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	dir := filepath.Join(c.CacheDir, "mistralai", "Mixtral-8x7B-v0.1")
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("cache dir holds %d entries", len(entries))
	}
	b, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	if !bytes.Equal(b, readTestdata(t, "mistralai_Mixtral-8x7B-v0.1.json")) {
		t.Error("cached file is not the served one")
	}
}

// With nothing listening, the error says the Hub is unreachable and what
// to do.
func TestOffline(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c := &Client{Endpoint: url, HTTP: &http.Client{Timeout: 2 * time.Second}}
	_, err := c.Config(context.Background(), "Qwen/Qwen2.5-7B")
	if !errors.Is(err, ErrOffline) {
		t.Fatalf("%v", err)
	}
	for _, s := range []string{"cannot reach", "offline or unreachable", "HF_ENDPOINT", "local config.json"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("%q lacks %q", err, s)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Config(ctx, "Qwen/Qwen2.5-7B"); !errors.Is(err, ErrOffline) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// A mirror endpoint (a trailing slash is fine) is asked, the token is sent
// to it, and the cache directory holds the file; with nothing set the Hub
// and the user's cache directory are used.
func TestNewClientMirror(t *testing.T) {
	hub := newFakeHub(t)
	cache := t.TempDir()
	c := NewClient(hub.srv.URL+"/", goodToken, cache)
	m, err := Load(context.Background(), c, "meta-llama/Llama-3.2-3B")
	if err != nil {
		t.Fatal(err)
	}
	if want := hub.srv.URL + "/meta-llama/Llama-3.2-3B/resolve/main/config.json"; m.Source != want {
		t.Errorf("Source %q, want %q", m.Source, want)
	}
	if hub.hits.Load() != 1 || hub.auths[0] != "Bearer "+goodToken {
		t.Errorf("mirror saw %d requests, auth %q", hub.hits.Load(), hub.auths)
	}
	if _, err := os.Stat(filepath.Join(cache, "meta-llama", "Llama-3.2-3B", "config.json")); err != nil {
		t.Errorf("not cached in the cache directory: %v", err)
	}
	d := NewClient("", "", "")
	if d.ConfigURL("openai-community/gpt2") != "https://huggingface.co/openai-community/gpt2/resolve/main/config.json" {
		t.Errorf("default URL %s", d.ConfigURL("openai-community/gpt2"))
	}
	if dir, err := os.UserCacheDir(); err == nil && d.CacheDir != filepath.Join(dir, "gpuplan", "hub") {
		t.Errorf("default cache %q", d.CacheDir)
	}
}

// The token goes out only as the Authorization header and never appears
// in an error, whatever the failure.
func TestTokenNeverInErrors(t *testing.T) {
	hub := newFakeHub(t)
	secret := "hf_SUPERSECRET_should_never_print"
	c := hub.client(t, secret)
	ctx := context.Background()
	var errs []error
	for _, id := range []string{"meta-llama/Llama-3.1-8B", "nobody/missing", "broken/html", "broken/five-hundred", "bad id"} {
		_, err := c.Config(ctx, id)
		errs = append(errs, err)
	}
	_, err := ModelFromConfig("x/y", []byte(`{"model_type":"nope"}`))
	errs = append(errs, err)
	hub.srv.Close()
	_, err = c.Config(ctx, "nobody/offline")
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil {
			t.Fatal("expected an error")
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(strings.ToLower(err.Error()), "bearer") {
			t.Errorf("token in error: %q", err)
		}
		var he *Error
		if errors.As(err, &he) && he.Err != nil && strings.Contains(he.Err.Error(), secret) {
			t.Errorf("token in cause: %q", he.Err)
		}
	}
	for _, a := range hub.auths {
		if a != "Bearer "+secret {
			t.Errorf("Authorization header %q", a)
		}
	}
}

// Ids are validated before any URL is built.
func TestInvalidIDs(t *testing.T) {
	hub := newFakeHub(t)
	c := hub.client(t, "")
	for _, id := range []string{"", "gpt2", "../etc/passwd", "org/../x", "a/b/c", "org/na me", "org/name?x=1",
		"org/name#f", "-org/name", "org/.hidden", "org/a..b", "org/name.git", "%2e%2e/x", "org/" + strings.Repeat("n", 97)} {
		_, err := c.Config(context.Background(), id)
		if !errors.Is(err, ErrInvalidID) || !strings.Contains(err.Error(), "org/name") {
			t.Errorf("%q: %v", id, err)
		}
	}
	if n := hub.hits.Load(); n != 0 {
		t.Errorf("invalid ids reached the server %d times", n)
	}
	for _, id := range []string{"meta-llama/Llama-3.2-3B", "Qwen/Qwen2.5-7B", "google-bert/bert-base-uncased", "a_b/c.d-e"} {
		if !ValidID(id) {
			t.Errorf("%q rejected", id)
		}
	}
}

// A local config.json, or a directory holding one, needs no network; the
// model is named by its _name_or_path or its directory.
func TestLoadLocalConfig(t *testing.T) {
	p, _ := filepath.Abs(filepath.Join("testdata", "openai-community_gpt2.json"))
	m, err := Load(context.Background(), &Client{Endpoint: "http://127.0.0.1:1"}, p)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "openai-community/gpt2" || m.Source != p || m.Origin != "config.json" || m.Layers != 12 {
		t.Errorf("file: %+v", m)
	}

	dir := filepath.Join(t.TempDir(), "my-llama")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "config.json"), readTestdata(t, "meta-llama_Llama-3.2-3B.json"), 0o644)
	m, err = Load(context.Background(), nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "my-llama" || m.Source != filepath.Join(dir, "config.json") || m.Hidden != 3072 {
		t.Errorf("dir: %+v", m)
	}

	// A relative directory named like a Hub id is read from disk.
	wd := t.TempDir()
	os.MkdirAll(filepath.Join(wd, "Qwen", "Qwen3-8B"), 0o755)
	os.WriteFile(filepath.Join(wd, "Qwen", "Qwen3-8B", "config.json"), readTestdata(t, "Qwen_Qwen3-8B.json"), 0o644)
	t.Chdir(wd)
	m, err = Load(context.Background(), &Client{Endpoint: "http://127.0.0.1:1"}, "Qwen/Qwen3-8B")
	if err != nil || m.Layers != 36 || m.Origin != "config.json" {
		t.Errorf("relative dir: %v %+v", err, m)
	}

	_, err = Load(context.Background(), nil, filepath.Join(t.TempDir(), "missing.json"))
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

// A Hub that does not answer is cut off by the client's timeout and
// reported as unreachable; the zero Client has a timeout of its own.
func TestTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer srv.Close()
	c := &Client{Endpoint: srv.URL, HTTP: &http.Client{Timeout: 100 * time.Millisecond}}
	start := time.Now()
	_, err := c.Config(context.Background(), "Qwen/Qwen2.5-7B")
	if !errors.Is(err, ErrOffline) || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("%v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	if (&Client{}).httpClient().Timeout != DefaultTimeout || DefaultTimeout <= 0 || DefaultTimeout > time.Minute {
		t.Errorf("default timeout %v", DefaultTimeout)
	}
}
