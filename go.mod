module github.com/gpuplan/gpuplan

go 1.26

require (
	github.com/gorilla/websocket v1.5.3
	github.com/slack-go/slack v0.35.0
	go.uber.org/zap v1.28.0
)

require go.uber.org/multierr v1.10.0 // indirect
