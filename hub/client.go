package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/gpuplan/gpuplan/planner"
)

// DefaultEndpoint is the public Hub.
const DefaultEndpoint = "https://huggingface.co"

// DefaultTimeout bounds one request when the Client has no HTTP client of
// its own: a config.json is a few kilobytes, so a slow answer means the
// Hub (or the path to it) is down.
const DefaultTimeout = 20 * time.Second

// maxConfigBytes caps what is read from the Hub. Real config.json files are
// 1-100 KB (an id2label table of 21k classes is about 1 MB).
const maxConfigBytes = 16 << 20

// Client reads model config files from the Hugging Face Hub (or a mirror).
// The zero value works: the public Hub, no token, no cache, a client with
// DefaultTimeout.
type Client struct {
	// Endpoint is the Hub's base URL; default https://huggingface.co, or
	// HF_ENDPOINT for a mirror.
	Endpoint string
	// Token is HF_TOKEN, sent as "Authorization: Bearer <token>" for gated
	// and private models. It is never logged nor put in errors.
	Token string
	// CacheDir holds downloaded config files (CacheDir/org/name/config.json),
	// shared by every endpoint (a mirror serves the Hub's files). A cached
	// copy answers without the network; delete it to read the Hub again.
	// Empty: no cache.
	CacheDir string
	// HTTP is the client requests go through; nil uses one with
	// DefaultTimeout.
	HTTP *http.Client
}

// NewClient returns a Client configured the way the Hub's own tools are:
// endpoint is HF_ENDPOINT (a mirror; "" for the Hub), token HF_TOKEN (or
// the older HUGGING_FACE_HUB_TOKEN), cacheDir where fetched files are kept
// ("" for the user's cache directory). The caller reads the environment
// (cmd/gpuplan), so every variable the binary reads is listed in one place.
func NewClient(endpoint, token, cacheDir string) *Client {
	c := &Client{Endpoint: endpoint, Token: token, CacheDir: cacheDir}
	if c.CacheDir == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			c.CacheDir = filepath.Join(dir, "gpuplan", "hub")
		}
	}
	return c
}

func (c *Client) endpoint() string {
	e := strings.TrimRight(strings.TrimSpace(c.Endpoint), "/")
	if e == "" {
		return DefaultEndpoint
	}
	return e
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: DefaultTimeout}
}

// ConfigURL is where the Hub serves a model's config.json: the "resolve"
// URL of the file on the main branch.
func (c *Client) ConfigURL(id string) string {
	return c.endpoint() + "/" + id + "/resolve/main/config.json"
}

// Sentinel errors; every error the package returns for these cases
// matches one of them with errors.Is, and is an *Error.
var (
	ErrInvalidID   = errors.New("not a Hugging Face model id")
	ErrGated       = errors.New("gated or private model")
	ErrNotFound    = errors.New("model not found")
	ErrOffline     = errors.New("the Hub is unreachable")
	ErrMalformed   = errors.New("malformed config.json")
	ErrUnsupported = errors.New("unsupported model type")
)

// Error is what the client and the derivation return: the kind (one of the
// sentinels), the model, the URL or path, and a message that says what to
// do. It never contains the token.
type Error struct {
	Kind   error  // ErrGated, ErrNotFound, ...
	ID     string // the model id or local path
	URL    string // the config URL, when there was one
	Status int    // HTTP status, when there was one
	Msg    string // the full message
	Err    error  // the underlying error, if any
}

func (e *Error) Error() string { return e.Msg }

// Unwrap lets errors.Is match the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Kind, e.Err}
	}
	return []error{e.Kind}
}

// idPattern is org/name, each side letters, digits, '.', '_' and '-',
// starting with a letter or digit (so neither side can be "." or "..").
var idPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$`)
})

// ValidID reports whether id is a Hub model id of the form org/name.
func ValidID(id string) bool {
	return idPattern().MatchString(id) && !strings.Contains(id, "..") && !strings.HasSuffix(id, ".git")
}

func checkID(id string) error {
	if ValidID(id) {
		return nil
	}
	return &Error{Kind: ErrInvalidID, ID: id,
		Msg: fmt.Sprintf("%q is not a Hugging Face model id: expected org/name (letters, digits, '.', '_', '-'), e.g. meta-llama/Llama-3.2-3B", id)}
}

// Config returns the config.json of the model id ("org/name"). A copy in
// the cache answers without the network; otherwise it GETs
// {Endpoint}/{id}/resolve/main/config.json (with the token, when set),
// checks that the answer is a JSON object and caches it.
func (c *Client) Config(ctx context.Context, id string) ([]byte, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	if b, ok := c.cached(id); ok {
		return b, nil
	}
	b, err := c.download(ctx, id)
	if err != nil {
		return nil, err
	}
	c.store(id, b) // a cache that cannot be written only costs a download next time
	return b, nil
}

func (c *Client) cachePath(id string) string {
	if c.CacheDir == "" {
		return ""
	}
	org, name, _ := strings.Cut(id, "/")
	return filepath.Join(c.CacheDir, org, name, "config.json")
}

// cached returns the cached config of id, if there is a valid one.
func (c *Client) cached(id string) ([]byte, bool) {
	p := c.cachePath(id)
	if p == "" {
		return nil, false
	}
	b, err := os.ReadFile(p)
	if err != nil || checkJSONObject(b) != nil {
		return nil, false
	}
	return b, true
}

// store writes the config atomically: a temporary file in the same
// directory, synced, then renamed over the final name, so a reader never
// sees half a file and concurrent writers leave one whole copy.
func (c *Client) store(id string, b []byte) error {
	p := c.cachePath(id)
	if p == "" {
		return nil
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".config-*.json.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func (c *Client) download(ctx context.Context, id string) ([]byte, error) {
	u := c.ConfigURL(id)
	fail := func(kind error, status int, cause error, format string, args ...any) error {
		return &Error{Kind: kind, ID: id, URL: u, Status: status, Err: c.scrub(cause), Msg: c.scrubString(fmt.Sprintf(format, args...))}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fail(ErrInvalidID, 0, err, "cannot build a request for %s: %v", u, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "gpuplan-hub/1")
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, fail(ErrOffline, 0, err, "fetching %s was cancelled: %v", u, ctx.Err())
		}
		return nil, fail(ErrOffline, 0, err,
			"cannot reach %s to read %s's config.json (%s): the Hub is offline or unreachable from here. Run once with network access to cache it, set HF_ENDPOINT to a reachable mirror, or give the path of a local config.json",
			c.endpoint(), id, netReason(err))
	}
	defer resp.Body.Close()
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxConfigBytes+1))
	code := resp.Header.Get("X-Error-Code")
	page := "https://huggingface.co/" + id
	if c.endpoint() != DefaultEndpoint {
		page = c.endpoint() + "/" + id
	}
	switch {
	case resp.StatusCode == http.StatusOK:
	case code == "GatedRepo" || (resp.StatusCode == http.StatusForbidden):
		if c.Token == "" {
			return nil, fail(ErrGated, resp.StatusCode, nil,
				"%s is a gated model (HTTP %d): set HF_TOKEN to an access token of a Hugging Face account that has accepted the model's licence at %s", id, resp.StatusCode, page)
		}
		return nil, fail(ErrGated, resp.StatusCode, nil,
			"%s is a gated model and the token in HF_TOKEN was refused (HTTP %d): accept the model's licence at %s with the account the token belongs to, or use a token with read access", id, resp.StatusCode, page)
	case code == "EntryNotFound":
		return nil, fail(ErrNotFound, resp.StatusCode, nil, "%s has no config.json on its main branch (HTTP %d): it is not a Transformers model the planner can read", id, resp.StatusCode)
	case code == "RepoNotFound":
		return nil, fail(ErrNotFound, resp.StatusCode, nil,
			"no model %s on %s (HTTP %d): check the spelling (org/name, as on the model's Hub page); if it is private, set HF_TOKEN to a token of an account that can see it", id, c.endpoint(), resp.StatusCode)
	case resp.StatusCode == http.StatusUnauthorized:
		// The Hub answers 401 both for gated/private repos and, without a
		// token, for repos that do not exist (so private names do not leak).
		if c.Token == "" {
			return nil, fail(ErrGated, resp.StatusCode, nil,
				"%s needs authentication (HTTP 401): it is gated or private, or does not exist. For a gated model set HF_TOKEN to an access token of an account that has accepted its licence at %s; otherwise check the name", id, page)
		}
		return nil, fail(ErrGated, resp.StatusCode, nil,
			"%s: the token in HF_TOKEN was not accepted (HTTP 401): it is invalid or expired, or the model is private to another account. Create a read token at https://huggingface.co/settings/tokens and accept the model's licence at %s", id, page)
	case resp.StatusCode == http.StatusNotFound || code == "RevisionNotFound":
		return nil, fail(ErrNotFound, resp.StatusCode, nil, "no model %s on %s (HTTP %d): check the spelling (org/name, as on the model's Hub page)", id, c.endpoint(), resp.StatusCode)
	default:
		kind := ErrOffline
		if resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			kind = ErrNotFound
		}
		return nil, fail(kind, resp.StatusCode, nil, "%s answered HTTP %d for %s's config.json; try again later or set HF_ENDPOINT to a mirror", c.endpoint(), resp.StatusCode, id)
	}
	if rerr != nil {
		return nil, fail(ErrOffline, resp.StatusCode, rerr, "reading %s's config.json from %s failed midway (%s)", id, c.endpoint(), netReason(rerr))
	}
	if len(body) > maxConfigBytes {
		return nil, fail(ErrMalformed, resp.StatusCode, nil, "%s's config.json from %s is larger than %d MB; that is not a model config", id, c.endpoint(), maxConfigBytes>>20)
	}
	if err := checkJSONObject(body); err != nil {
		return nil, fail(ErrMalformed, resp.StatusCode, err, "%s's config.json from %s is not a JSON object (%v): the server did not return the model's config (a mirror's error page?)", id, c.endpoint(), err)
	}
	return body, nil
}

// netReason is a short cause of a network error, without the URL (which
// the message already names).
func netReason(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err) {
		return "timed out"
	}
	return err.Error()
}

// scrubString removes the token from s, in case a transport ever echoes a
// header back.
func (c *Client) scrubString(s string) string {
	if c.Token == "" {
		return s
	}
	return strings.ReplaceAll(s, c.Token, "[HF_TOKEN]")
}

// scrub drops a cause whose text would carry the token.
func (c *Client) scrub(err error) error {
	if err == nil || c.Token == "" || !strings.Contains(err.Error(), c.Token) {
		return err
	}
	return errors.New(c.scrubString(err.Error()))
}

func checkJSONObject(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	if m == nil {
		return errors.New("null")
	}
	return nil
}

// IsLocalRef reports whether ref names a file or directory on disk rather
// than a Hub id: it ends in .json, starts like a path ("/", "./", "../",
// "~/"), or exists. An existing directory org/name is read from disk, as
// Transformers does.
func IsLocalRef(ref string) bool {
	if strings.HasSuffix(ref, ".json") || strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "./") ||
		strings.HasPrefix(ref, "../") || strings.HasPrefix(ref, "~/") || strings.HasPrefix(ref, `.\`) ||
		filepath.IsAbs(ref) {
		return true
	}
	_, err := os.Stat(ref)
	return err == nil
}

// Load resolves ref to a model: a local config.json (or a directory
// holding one), or a Hub id fetched with c (NewClient("", "", "") when c is nil). The
// model's Source is the config URL or the file's path.
func Load(ctx context.Context, c *Client, ref string) (planner.Model, error) {
	if IsLocalRef(ref) {
		return loadLocal(ref)
	}
	if c == nil {
		c = NewClient("", "", "")
	}
	b, err := c.Config(ctx, ref)
	if err != nil {
		return planner.Model{}, err
	}
	m, err := ModelFromConfig(ref, b)
	if err != nil {
		return planner.Model{}, err
	}
	m.Source = c.ConfigURL(ref)
	return m, nil
}

func loadLocal(ref string) (planner.Model, error) {
	p := ref
	if strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[2:])
		}
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		p = filepath.Join(p, "config.json")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		kind := ErrNotFound
		return planner.Model{}, &Error{Kind: kind, ID: ref, Err: err,
			Msg: fmt.Sprintf("cannot read the model config %s: %v", p, errors.Unwrap(err))}
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	id := localID(p, b)
	m, err := ModelFromConfig(id, b)
	if err != nil {
		var he *Error
		if errors.As(err, &he) {
			he.ID = p
			he.Msg = strings.Replace(he.Msg, id, p, 1)
		}
		return planner.Model{}, err
	}
	m.Source = p
	m.Origin = "config.json"
	return m, nil
}

// localID names a model read from disk: its _name_or_path when that is a
// Hub id, else the directory the file is in.
func localID(path string, b []byte) string {
	var v struct {
		NameOrPath string `json:"_name_or_path"`
	}
	if json.Unmarshal(b, &v) == nil && ValidID(v.NameOrPath) {
		return v.NameOrPath
	}
	dir := filepath.Base(filepath.Dir(path))
	if dir == "." || dir == string(filepath.Separator) || dir == "" {
		return strings.TrimSuffix(filepath.Base(path), ".json")
	}
	return dir
}
