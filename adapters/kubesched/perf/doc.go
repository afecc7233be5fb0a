package perf
