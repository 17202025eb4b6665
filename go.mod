module github.com/gpuplan/gpuplan

go 1.26.0

require (
	github.com/anishathalye/porcupine v1.3.1
	github.com/gorilla/websocket v1.5.3
	github.com/redis/go-redis/v9 v9.23.0
	github.com/slack-go/slack v0.35.0
	go.etcd.io/bbolt v1.5.0
	go.uber.org/zap v1.28.0
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
