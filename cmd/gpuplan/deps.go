package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"github.com/gpuplan/gpuplan/store"
)

// loadInventory reads GPUPLAN_SERVERS (a YAML file), or returns the
// default inventory (the seeds' three servers) so everything can be tried
// without a config.
func loadInventory(cat *planner.Catalog, getenv func(string) string) (*inventory.Inventory, string, error) {
	path := getenv("GPUPLAN_SERVERS")
	if path == "" {
		return inventory.Default(cat), "built-in example servers (set GPUPLAN_SERVERS to your servers.yaml)", nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("GPUPLAN_SERVERS: %w", err)
	}
	inv, err := inventory.Parse(cat, data, filepath.Base(path))
	if err != nil {
		return nil, "", err
	}
	for _, s := range inv.Servers {
		if s.PriceUSD > 0 {
			_ = cat.SetPrice(s.GPU.ID, s.PriceUSD)
		}
	}
	return inv, path, nil
}

// openStore opens Redis when REDIS_URL (or Sentinel) is set, else the
// embedded file store at GPUPLAN_DB (default: the user's data directory).
func openStore(ctx context.Context, getenv func(string) string) (store.Store, string, []string, error) {
	url := getenv("REDIS_URL")
	sentinels := getenv("REDIS_SENTINEL_ADDRS")
	if url != "" || sentinels != "" {
		opt := store.RedisOptions{URL: url, MasterName: getenv("REDIS_MASTER_NAME"), Password: getenv("REDIS_PASSWORD")}
		if v := getenv("REDIS_WAIT_REPLICAS"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, "", nil, fmt.Errorf("REDIS_WAIT_REPLICAS=%q: use a whole number of replicas, 0 or more", v)
			}
			opt.WaitReplicas = n
		}
		if sentinels != "" {
			opt.URL = "" // Sentinel decides where the master is
			opt.SentinelAddrs = strings.Split(sentinels, ",")
			if opt.MasterName == "" {
				return nil, "", nil, errors.New("REDIS_SENTINEL_ADDRS needs REDIS_MASTER_NAME (the name the sentinels monitor)")
			}
		}
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		r, err := store.OpenRedis(cctx, opt)
		if err != nil {
			return nil, "", nil, fmt.Errorf("redis: %w", err)
		}
		warnings, err := r.CheckPolicy(cctx)
		if err != nil {
			r.Close()
			return nil, "", nil, err
		}
		where := "Redis"
		if sentinels != "" {
			where = "Redis via Sentinel (" + opt.MasterName + ")"
		}
		return r, where, warnings, nil
	}
	path, err := embeddedPath(getenv)
	if err != nil {
		return nil, "", nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, "", nil, fmt.Errorf("GPUPLAN_DB directory: %w", err)
	}
	e, err := store.OpenEmbedded(path, nil)
	if err != nil {
		var fe *store.FileError
		if errors.As(err, &fe) {
			return nil, "", nil, err // it names the file and the way back
		}
		return nil, "", nil, fmt.Errorf("embedded store %s: %w", path, err)
	}
	return e, "embedded store " + path, nil, nil
}

// embeddedPath is the embedded store's file: GPUPLAN_DB, or
// reservations.db in the user's data directory.
func embeddedPath(getenv func(string) string) (string, error) {
	if path := getenv("GPUPLAN_DB"); path != "" {
		return path, nil
	}
	dir, err := dataDir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "reservations.db"), nil
}

func dataDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "gpuplan"), nil
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "gpuplan"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no home directory for the embedded store: set GPUPLAN_DB to a file path")
	}
	return filepath.Join(home, ".local", "share", "gpuplan"), nil
}
