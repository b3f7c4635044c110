package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// side is one engine process, held open across passes so its graph is built once.
type side struct {
	name  string
	cmd   *exec.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	build struct {
		CPU        float64 `json:"cpu_s"`
		PeakRSSKB  int64   `json:"peak_rss_kb"`
		GrowthRSSK int64   `json:"rss_growth_kb"`
	}
	best map[int]float64 // ef -> least CPU seconds of a pass
	rec  map[int]float64 // ef -> recall@10 by id
}

func start(name string, argv ...string) (*side, error) {
	s := &side{name: name, best: map[int]float64{}, rec: map[int]float64{}}
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Stderr = os.Stderr
	var err error
	if s.in, err = s.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.out = bufio.NewScanner(stdout)
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	return s, nil
}

// expect reads the engine's next line, which must start with word, and decodes its JSON.
func (s *side) expect(word string, v any) error {
	if !s.out.Scan() {
		return fmt.Errorf("%s: ended before %q (%v)", s.name, word, s.out.Err())
	}
	rest, ok := strings.CutPrefix(s.out.Text(), word+" ")
	if !ok {
		return fmt.Errorf("%s: want %q, got %q", s.name, word, s.out.Text())
	}
	return json.Unmarshal([]byte(rest), v)
}

func compare(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	dir := fs.String("dir", "", "directory gen wrote")
	lib := fs.String("hnswlib", "", "the built hnswlib engine (run.sh)")
	efList := fs.String("efs", "10,20,40,80,320", "ef values")
	passes := fs.Int("passes", 5, "alternating passes; the best of each engine is kept")
	m := fs.Int("m", 16, "M")
	efc := fs.Int("efc", 200, "efConstruction")
	rerank := fs.Bool("rerank", true, "Firmo re-ranks its final candidates on the float32 rows (as contact search does)")
	compact := fs.Bool("compact", true, "Firmo's graph keeps 8-bit codes instead of half-precision rows (hnswindex Config.Compact; needs -rerank for full-precision answers)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *lib == "" {
		return fmt.Errorf("compare: -dir and -hnswlib are required")
	}
	var efs []int
	for _, f := range strings.Split(*efList, ",") {
		ef, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("compare: -efs: %w", err)
		}
		efs = append(efs, ef)
	}
	truth, err := readInts(filepath.Join(*dir, "truth.bin"))
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	data := filepath.Join(*dir, "data.bin")
	n, err := vectorsIn(data)
	if err != nil {
		return err
	}
	ms, efcs := strconv.Itoa(*m), strconv.Itoa(*efc)
	// The builds run one after the other, so neither slows the other's.
	var sides []*side
	firmo := []string{self, "engine", data, ms, efcs}
	if *rerank {
		firmo = append(firmo, "rerank")
	}
	if *compact {
		firmo = append(firmo, "compact")
	}
	for _, argv := range [][]string{{*lib, data, ms, efcs}, firmo} {
		name := map[bool]string{true: "hnswlib", false: "firmo"}[argv[0] == *lib]
		fmt.Fprintf(os.Stderr, "building %s ...\n", name)
		s, err := start(name, argv...)
		if err != nil {
			return err
		}
		defer s.cmd.Wait()
		defer s.in.Close()
		if err := s.expect("build", &s.build); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s built: %.1f CPU s, peak RSS %d MB\n", name, s.build.CPU, s.build.PeakRSSKB>>10)
		sides = append(sides, s)
	}
	idsFile := filepath.Join(*dir, "ids.bin")
	for p := 0; p < *passes; p++ {
		for _, ef := range efs {
			for i := range sides {
				s := sides[(i+p)%len(sides)] // who goes first alternates
				if _, err := fmt.Fprintf(s.in, "search %d %s\n", ef, idsFile); err != nil {
					return err
				}
				var r struct {
					CPU float64 `json:"cpu_s"`
				}
				if err := s.expect("search", &r); err != nil {
					return err
				}
				got, err := readInts(idsFile)
				if err != nil {
					return err
				}
				s.rec[ef] = recall(got, truth)
				if b, ok := s.best[ef]; !ok || r.CPU < b {
					s.best[ef] = r.CPU
				}
			}
		}
		fmt.Fprintf(os.Stderr, "pass %d of %d done\n", p+1, *passes)
	}
	for _, s := range sides {
		fmt.Fprintln(s.in, "quit")
	}
	report(os.Stdout, sides, efs, len(truth)/10, n)
	return nil
}

// recall is the share of the exact top-10 ids the engine returned, by id.
func recall(got, truth []int32) float64 {
	hit := 0
	for q := 0; q+10 <= len(truth); q += 10 {
		want := map[int32]bool{}
		for _, id := range truth[q : q+10] {
			want[id] = true
		}
		for _, id := range got[q : q+10] {
			if want[id] {
				hit++
			}
		}
	}
	return float64(hit) / float64(len(truth))
}

func report(w io.Writer, sides []*side, efs []int, queries, n int) {
	lib, fir := sides[0], sides[1]
	qps := func(s *side, ef int) float64 { return float64(queries) / s.best[ef] }
	fmt.Fprintln(w, "| ef | Firmo recall / QPS | hnswlib recall / QPS |")
	fmt.Fprintln(w, "|---|---|---|")
	for _, ef := range efs {
		fmt.Fprintf(w, "| %d | %.4f / %s | %.4f / %s |\n", ef, fir.rec[ef], thousands(qps(fir, ef)), lib.rec[ef], thousands(qps(lib, ef)))
	}
	for _, target := range []float64{0.95, 0.99} {
		a, b := qpsAt(fir, efs, queries, target), qpsAt(lib, efs, queries, target)
		fmt.Fprintf(w, "\nQPS at recall %.2f: Firmo %s, hnswlib %s: %.2fx", target, thousands(a), thousands(b), a/b)
	}
	perVec := func(s *side) float64 { return float64(s.build.GrowthRSSK) * 1024 / float64(n) }
	fmt.Fprintf(w, "\n\nMemory per vector (RSS growth over the build / vectors): Firmo %.0f B, hnswlib %.0f B: %.2fx",
		perVec(fir), perVec(lib), perVec(fir)/perVec(lib))
	fmt.Fprintf(w, "\nBuild: Firmo %.1f CPU s, peak RSS %d MB, RSS growth %d MB; hnswlib %.1f CPU s, peak RSS %d MB, RSS growth %d MB\n",
		fir.build.CPU, fir.build.PeakRSSKB>>10, fir.build.GrowthRSSK>>10, lib.build.CPU, lib.build.PeakRSSKB>>10, lib.build.GrowthRSSK>>10)
}

// qpsAt interpolates an engine's QPS at a recall between the ef values that bracket it
// (linear in recall, logarithmic in QPS); NaN when no ef reaches it.
func qpsAt(s *side, efs []int, queries int, target float64) float64 {
	for i, ef := range efs {
		r := s.rec[ef]
		q := float64(queries) / s.best[ef]
		if r < target {
			continue
		}
		if i == 0 {
			return q
		}
		r0, q0 := s.rec[efs[i-1]], float64(queries)/s.best[efs[i-1]]
		if r == r0 {
			return q
		}
		t := (target - r0) / (r - r0)
		return math.Exp(math.Log(q0) + t*(math.Log(q)-math.Log(q0)))
	}
	return math.NaN()
}

func thousands(v float64) string {
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
