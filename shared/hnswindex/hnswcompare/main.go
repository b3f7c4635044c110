// Command hnswcompare runs Firmo's HNSW index and hnswlib (the C++ reference) side by side on
// the same generated data, one thread each, and prints recall@10 and queries per CPU second
// at each ef, memory per vector and build figures. run.sh builds the hnswlib side from npm's
// hnswlib-node sources and calls this; the repository's BENCHMARKS.md (shared/vector) has
// the results and how to reproduce them.
//
//	hnswcompare gen -out DIR [-n 200000] [-queries 1000] [-dims 384] [-clusters 1000]
//	hnswcompare engine DATA M EFC [rerank] [compact]   the Go side of the line protocol (testdata/hnswlib_engine.cc)
//	hnswcompare compare -dir DIR -hnswlib BIN [-efs 10,20,40,80,320] [-passes 5] [-rerank=false] [-compact=false]
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: hnswcompare gen|engine|compare ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "engine":
		err = engine(os.Args[2:])
	case "compare":
		err = compare(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hnswcompare:", err)
		os.Exit(1)
	}
}
