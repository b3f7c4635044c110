package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/firmoapi/firmo/shared/progress"
	"github.com/firmoapi/firmo/shared/vector"
)

// The data file: int32 n, queries, dims, then n and queries rows of float32, little endian.
// truth.bin: the exact top 10 ids (int32) per query by float32 inner product, ties by id.

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	out := fs.String("out", "", "directory for data.bin and truth.bin")
	n := fs.Int("n", 200_000, "vectors")
	nq := fs.Int("queries", 1000, "held-out queries")
	dims := fs.Int("dims", 384, "dimensions")
	clusters := fs.Int("clusters", 1000, "cluster centres")
	spread := fs.Float64("spread", 1.0, "noise norm relative to a centre's (1: cosine with the centre about 0.7)")
	seed := fs.Uint64("seed", 1, "PRNG seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("gen: -out is required")
	}
	rng := rand.New(rand.NewPCG(*seed, 42))
	centres := make([][]float32, *clusters)
	for i := range centres {
		centres[i] = gauss(rng, *dims, 1)
		vector.Normalize(centres[i])
	}
	draw := func() []float32 {
		c := centres[rng.IntN(len(centres))]
		v := gauss(rng, *dims, *spread/math.Sqrt(float64(*dims)))
		for i := range v {
			v[i] += c[i]
		}
		vector.Normalize(v)
		return v
	}
	data := make([][]float32, *n)
	for i := range data {
		data[i] = draw()
	}
	queries := make([][]float32, *nq)
	for i := range queries {
		queries[i] = draw()
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if err := writeData(filepath.Join(*out, "data.bin"), data, queries, *dims); err != nil {
		return err
	}
	bar := progress.NewMeter(os.Stderr, progress.MeterOptions{Label: "exact top 10"})
	truth := make([]int32, 0, *nq*10)
	for i, q := range queries {
		truth = append(truth, exactTop10(q, data)...)
		bar.Set(int64(i+1), int64(*nq))
	}
	bar.Finish()
	return writeInts(filepath.Join(*out, "truth.bin"), truth)
}

func gauss(rng *rand.Rand, dims int, sd float64) []float32 {
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(rng.NormFloat64() * sd)
	}
	return v
}

// exactTop10 scores every row in float64 (so no rounding decides an order) and breaks ties
// by id.
func exactTop10(q []float32, data [][]float32) []int32 {
	type hit struct {
		id int32
		s  float64
	}
	top := make([]hit, 0, 11)
	for id, v := range data {
		var s float64
		for i := range q {
			s += float64(q[i]) * float64(v[i])
		}
		h := hit{int32(id), s}
		if len(top) == 10 && (s < top[9].s || s == top[9].s) {
			continue
		}
		i, _ := slices.BinarySearchFunc(top, h, func(a, b hit) int {
			switch {
			case a.s > b.s:
				return -1
			case a.s < b.s:
				return 1
			}
			return int(a.id - b.id)
		})
		top = slices.Insert(top, i, h)
		if len(top) > 10 {
			top = top[:10]
		}
	}
	ids := make([]int32, len(top))
	for i, h := range top {
		ids[i] = h.id
	}
	return ids
}

func writeData(path string, data, queries [][]float32, dims int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	hdr := []int32{int32(len(data)), int32(len(queries)), int32(dims)}
	if err := binary.Write(f, binary.LittleEndian, hdr); err != nil {
		return err
	}
	for _, rows := range [][][]float32{data, queries} {
		for _, r := range rows {
			if err := binary.Write(f, binary.LittleEndian, r); err != nil {
				return err
			}
		}
	}
	return f.Close()
}

// readData streams the rows into their slices, so loading holds the data once (a whole-file
// read first would hold it twice, and the peak RSS of the build would count that).
func readData(path string) (data, queries [][]float32, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var hdr [3]int32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return nil, nil, fmt.Errorf("%s: header: %w", path, err)
	}
	n, nq, dims := int(hdr[0]), int(hdr[1]), int(hdr[2])
	// Into one slab through one reused buffer, as hnswlib_engine.cc reads into one
	// std::vector: binary.Read straight into each row allocates a buffer per row, 307 MB of
	// garbage for 200,000 rows, which let the heap (and the peak RSS the build is measured
	// by) grow by about that much before the first row was inserted.
	buf := make([]byte, 4*dims)
	rows := func(count int) ([][]float32, error) {
		slab := make([]float32, count*dims)
		out := make([][]float32, count)
		for i := range out {
			if _, err := io.ReadFull(r, buf); err != nil {
				return nil, fmt.Errorf("%s: row %d: %w", path, i, err)
			}
			row := slab[i*dims : (i+1)*dims : (i+1)*dims]
			for j := range row {
				row[j] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*j:]))
			}
			out[i] = row
		}
		return out, nil
	}
	if data, err = rows(n); err != nil {
		return nil, nil, err
	}
	if queries, err = rows(nq); err != nil {
		return nil, nil, err
	}
	return data, queries, nil
}

func writeInts(path string, v []int32) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := binary.Write(f, binary.LittleEndian, v); err != nil {
		return err
	}
	return f.Close()
}

func readInts(path string) ([]int32, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	v := make([]int32, len(raw)/4)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return v, nil
}

// vectorsIn reads the vector count from a data file's header.
func vectorsIn(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var n int32
	if err := binary.Read(f, binary.LittleEndian, &n); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return int(n), nil
}
