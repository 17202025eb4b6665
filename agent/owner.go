package agent

import (
	"bufio"
	"bytes"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Owners finds the Unix user that owns a process, from the proc
// filesystem. Names are cached by uid. A uid with no name here (a user
// that exists only in a container image, or only in LDAP while the binary
// is built without cgo and so reads /etc/passwd alone) is reported as the
// number.
type Owners struct {
	// Proc is the proc filesystem root; "" means /proc. Tests point it at
	// a fake tree.
	Proc string
	// LookupID turns a uid into a user name; nil means os/user.LookupId.
	LookupID func(uid string) (string, error)

	mu    sync.Mutex
	names map[string]ownerName
}

type ownerName struct {
	name    string
	expires time.Time // zero: for good
}

// failedLookupTTL is how long a uid whose name could not be found is
// reported as a number before the name is asked for again (NSS or LDAP
// may have been briefly unreachable).
const failedLookupTTL = 10 * time.Minute

// Owner returns the user owning process pid. It reports false when the
// process is not in this proc filesystem: it has ended, or it lives in
// another PID namespace (a container nvidia-smi can see and we cannot).
func (o *Owners) Owner(pid int) (string, bool) {
	if pid <= 0 {
		return "", false
	}
	uid, ok := o.uid(pid)
	if !ok {
		return "", false
	}
	return o.name(uid), true
}

// uid reads the real uid from /proc/<pid>/status ("Uid: real effective
// saved fs"). The owner of the /proc/<pid> directory is the fallback: it
// is the effective uid, and root for a process that made itself
// non-dumpable, so it is the second choice.
func (o *Owners) uid(pid int) (string, bool) {
	root := o.Proc
	if root == "" {
		root = "/proc"
	}
	dir := filepath.Join(root, strconv.Itoa(pid))
	if data, err := os.ReadFile(filepath.Join(dir, "status")); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			rest, ok := strings.CutPrefix(sc.Text(), "Uid:")
			if !ok {
				continue
			}
			if f := strings.Fields(rest); len(f) > 0 {
				if _, err := strconv.ParseUint(f[0], 10, 32); err == nil {
					return f[0], true
				}
			}
			break
		}
	}
	return dirUID(dir)
}

func (o *Owners) name(uid string) string {
	now := time.Now()
	o.mu.Lock()
	if n, ok := o.names[uid]; ok && (n.expires.IsZero() || now.Before(n.expires)) {
		o.mu.Unlock()
		return n.name
	}
	o.mu.Unlock()

	lookup := o.LookupID
	if lookup == nil {
		lookup = func(uid string) (string, error) {
			u, err := user.LookupId(uid)
			if err != nil {
				return "", err
			}
			return u.Username, nil
		}
	}
	n := ownerName{name: uid, expires: now.Add(failedLookupTTL)}
	if name, err := lookup(uid); err == nil && name != "" {
		n = ownerName{name: name}
	}
	o.mu.Lock()
	if o.names == nil {
		o.names = map[string]ownerName{}
	}
	o.names[uid] = n
	o.mu.Unlock()
	return n.name
}
