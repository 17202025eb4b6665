module github.com/gpuplan/gpuplan

go 1.26
