# syntax=docker/dockerfile:1
# Build: docker build -t gpuplan .
# Run:   docker run --rm gpuplan plan "bert-base 10 epochs of 2.5M samples on h100x2"

FROM golang:1.26-bookworm AS build
WORKDIR /src
# Module download in its own layer: it is re-used until go.mod/go.sum change.
COPY go.mod go.sum* ./
RUN go mod download
COPY . .
# Static, reproducible binary: no cgo, no local paths in it.
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/gpuplan ./cmd/gpuplan

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gpuplan /gpuplan
USER nonroot:nonroot
ENTRYPOINT ["/gpuplan"]
CMD ["help"]
