package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/firmoapi/firmo/shared/hnswindex"
	"github.com/firmoapi/firmo/shared/vector"
)

// engine is the Go side of the line protocol that testdata/hnswlib_engine.cc speaks. It runs on one
// OS thread (GOMAXPROCS 1), and counts the process's CPU time, the garbage collector's
// included.
func engine(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("engine: want DATA M EFC [rerank] [compact]")
	}
	rerank, compact := false, false
	for _, opt := range args[3:] {
		switch opt {
		case "rerank":
			rerank = true
		case "compact":
			compact = true
		default:
			return fmt.Errorf("engine: unknown option %q (want rerank or compact)", opt)
		}
	}
	runtime.GOMAXPROCS(1)
	data, queries, err := readData(args[0])
	if err != nil {
		return err
	}
	m, err1 := strconv.Atoi(args[1])
	efc, err2 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil {
		return fmt.Errorf("engine: M and EFC must be numbers")
	}
	debug.FreeOSMemory()
	before := statusKB("VmRSS:")
	ctx := context.Background()
	c0 := processCPU()
	ix := hnswindex.New(len(data[0]), hnswindex.Config{M: m, EfConstruction: efc, Seed: 1, Compact: compact})
	ix.Reserve(len(data)) // hnswlib is given max_elements too
	for i, v := range data {
		if err := ix.Upsert(ctx, int64(i), v); err != nil {
			return err
		}
	}
	c1 := processCPU()
	if rerank {
		// The full-precision rows are the caller's, as contact search's are: data stays
		// loaded on both sides (hnswlib_engine.cc keeps its copy too), outside the growth.
		ix.SetRows(func(id int64) []float32 { return data[id] })
	}
	debug.FreeOSMemory() // collect, and return what is free, so RSS counts what is live
	after := statusKB("VmRSS:")
	fmt.Printf("build {\"cpu_s\":%.3f,\"peak_rss_kb\":%d,\"rss_growth_kb\":%d}\n",
		(c1 - c0).Seconds(), statusKB("VmHWM:"), after-before)

	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		if f[0] == "quit" {
			return nil
		}
		if f[0] != "search" || len(f) != 3 {
			return fmt.Errorf("engine: bad command %q", in.Text())
		}
		ef, err := strconv.Atoi(f[1])
		if err != nil {
			return fmt.Errorf("engine: bad ef %q", f[1])
		}
		ix.SetEfSearch(ef)
		ids := make([]int32, 0, len(queries)*10)
		s0 := processCPU()
		for _, q := range queries {
			hits, err := ix.Search(ctx, q, 10, vector.Filter{})
			if err != nil {
				return err
			}
			for i := range 10 {
				id := int32(-1)
				if i < len(hits) {
					id = int32(hits[i].ID)
				}
				ids = append(ids, id)
			}
		}
		s1 := processCPU()
		if err := writeInts(f[2], ids); err != nil {
			return err
		}
		fmt.Printf("search {\"ef\":%d,\"cpu_s\":%.6f}\n", ef, (s1 - s0).Seconds())
	}
	return in.Err()
}

func processCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// statusKB reads a "Key:   123 kB" line of /proc/self/status.
func statusKB(key string) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return -1
}
