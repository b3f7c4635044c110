package hnswindex

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/firmoapi/firmo/shared/apperr"
)

// The file format, little-endian throughout:
//
//	magic "FIRMOHNSW" | version u32 | dims u32 | M u32 | efConstruction u32 | efSearch u32
//	nodes u64 | entry u32 | maxLevel i32
//	per node: id i64, level u8, dead u8
//	vectors: nodes*dims binary16 (u16), or in version 4 (Config.Compact) nodes*dims 8-bit
//	codes (i8), then per node its scale and its residual (float32 bits, u32 each) |
//	layer-0 lists: nodes*(2M+1) u32
//	per node with level > 0: level*(M+1) u32
//	shared ids: count u64, then per id: id i64, node u32 (the ids beyond a node's first
//	that share its vector)
//	CRC-32 (IEEE) of everything before it
//
// The slabs are written as they sit in memory, so saving and loading run at disk speed.
const (
	magic   = "FIRMOHNSW"
	version = 3 // 2: vectors stored as binary16; 3: ids sharing a node
	// versionCompact is version 3's layout with codes and scales for the vectors: a compact
	// index saves and loads only these, any other index only version 3 (an older build
	// reading one refuses it by its version).
	versionCompact = 4
)

// Save implements vector.Persistent.
func (x *Index) Save(w io.Writer) error {
	x.mu.RLock()
	defer x.mu.RUnlock()
	bw := bufio.NewWriterSize(w, 1<<20)
	crc := crc32.NewIEEE()
	e := &encoder{w: io.MultiWriter(bw, crc)}
	e.bytes([]byte(magic))
	ver := version
	if x.compact {
		ver = versionCompact
	}
	for _, v := range []int{ver, x.dims, x.cfg.M, x.cfg.EfConstruction, x.cfg.EfSearch} {
		e.u32(uint32(v))
	}
	e.u64(uint64(len(x.ids)))
	e.u32(x.entry)
	e.u32(uint32(int32(x.maxLevel)))
	for n, id := range x.ids {
		e.u64(uint64(id))
		dead := byte(0)
		if x.dead[n] {
			dead = 1
		}
		e.bytes([]byte{x.levels[n], dead})
	}
	if x.compact {
		e.i8s(x.codes)
		e.f32s(x.scales)
		e.f32s(x.resids)
	} else {
		e.u16s(x.vecs)
	}
	e.u32s(x.links0)
	for n, at := range x.upperAt {
		if l := int(x.levels[n]); l > 0 {
			e.u32s(x.upper[at : int(at)+l*(x.cfg.M+1)])
		}
	}
	shared := 0
	for _, more := range x.more {
		shared += len(more)
	}
	e.u64(uint64(shared))
	for n := range x.ids { // by node, so a save is the same bytes for the same graph
		for _, id := range x.more[uint32(n)] {
			e.u64(uint64(id))
			e.u32(uint32(n))
		}
	}
	if e.err != nil {
		return fmt.Errorf("save hnsw index: %w", e.err)
	}
	if err := binary.Write(bw, binary.LittleEndian, crc.Sum32()); err != nil {
		return fmt.Errorf("save hnsw index: %w", err)
	}
	return bw.Flush()
}

// Load implements vector.Persistent. The file is checked whole (checksum, bounds of every
// link) before it replaces the index, so a damaged file changes nothing.
func (x *Index) Load(r io.Reader) error {
	crc := crc32.NewIEEE()
	br := bufio.NewReaderSize(r, 1<<20)
	d := &decoder{r: io.TeeReader(br, crc), huge: x.huge}
	// The slabs decoded below are advised into huge pages; a load that fails drops them.
	var vecs []uint16
	var codes []int8
	var scales, resids []float32
	var links0 []uint32
	loaded := false
	defer func() {
		if !loaded {
			releaseHuge(x.huge, vecs)
			releaseHuge(x.huge, codes)
			releaseHuge(x.huge, links0)
		}
	}()
	if string(d.bytes(len(magic))) != magic {
		return x.loadErr(d.err, "not an HNSW index file")
	}
	want := version
	if x.compact {
		want = versionCompact
	}
	if v := d.u32(); v != uint32(want) {
		return x.loadErr(d.err, fmt.Sprintf("file version %d, this index reads %d (%d: half-precision rows, %d: compact codes)", v, want, version, versionCompact))
	}
	dims, m, efc, efs := int(d.u32()), int(d.u32()), int(d.u32()), int(d.u32())
	if d.err == nil && dims != x.dims {
		return x.loadErr(nil, fmt.Sprintf("file has %d dimensions, index %d", dims, x.dims))
	}
	if m < 2 || m > 512 || efc < 1 || efs < 1 {
		return x.loadErr(d.err, "bad graph parameters")
	}
	nodes := d.u64()
	entry := d.u32()
	maxLevel := int(int32(d.u32()))
	if d.err != nil || nodes > 1<<28 {
		return x.loadErr(d.err, "bad node count")
	}
	n := int(nodes)
	m0 := 2 * m
	ids := make([]int64, n)
	levels := make([]uint8, n)
	dead := make([]bool, n)
	byID := newIDMap()
	for i := 0; i < n && d.err == nil; i++ {
		ids[i] = int64(d.u64())
		b := d.bytes(2)
		if d.err != nil {
			break
		}
		levels[i], dead[i] = b[0], b[1] == 1
		if int(levels[i]) >= maxLevels || int(levels[i]) > maxLevel {
			return x.loadErr(nil, fmt.Sprintf("node %d has level %d", i, levels[i]))
		}
		if !dead[i] {
			byID.set(ids[i], uint32(i))
		}
	}
	if x.compact {
		codes = d.i8s(n * dims)
		scales = d.f32s(n)
		resids = d.f32s(n)
	} else {
		vecs = d.u16s(n * dims)
	}
	links0 = d.u32s(n * (m0 + 1))
	upperAt := make([]uint32, n)
	var upper []uint32
	for i := 0; i < n && d.err == nil; i++ {
		upperAt[i] = uint32(len(upper))
		if levels[i] > 0 {
			upper = append(upper, d.u32s(int(levels[i])*(m+1))...)
		}
	}
	shared := d.u64()
	if d.err != nil || shared > 1<<32 {
		return x.loadErr(d.err, "truncated file")
	}
	more := map[uint32][]int64{}
	for range shared {
		id, node := int64(d.u64()), d.u32()
		if d.err != nil {
			break
		}
		if int(node) >= n || dead[node] {
			return x.loadErr(nil, fmt.Sprintf("shared id %d on node %d of %d", id, node, n))
		}
		more[node] = append(more[node], id)
		byID.set(id, node)
	}
	if d.err != nil {
		return x.loadErr(d.err, "truncated file")
	}
	sum := crc.Sum32()
	var got uint32
	if err := binary.Read(br, binary.LittleEndian, &got); err != nil || got != sum {
		return x.loadErr(err, "checksum mismatch (file damaged)")
	}
	if n > 0 && (entry >= uint32(n) || maxLevel < 0 || int(levels[entry]) != maxLevel) {
		return x.loadErr(nil, "bad entry point")
	}
	if err := checkLists(links0, m0, n); err != nil {
		return x.loadErr(nil, err.Error())
	}
	if err := checkLists(upper, m, n); err != nil {
		return x.loadErr(nil, err.Error())
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.cfg = Config{M: m, EfConstruction: efc, EfSearch: efs, EfUpper: x.cfg.EfUpper, Seed: x.cfg.Seed, Compact: x.compact}
	x.m0, x.ml = m0, 1/math.Log(float64(m))
	loaded = true
	releaseHuge(x.huge, x.vecs) // the slabs this load replaces
	releaseHuge(x.huge, x.links0)
	releaseHuge(x.huge, x.codes)
	x.ids, x.more, x.levels, x.dead, x.vecs, x.links0, x.upper, x.upperAt, x.byID = ids, more, levels, dead, vecs, links0, upper, upperAt, byID
	x.codes, x.scales = nil, nil
	switch {
	case x.compact:
		x.codes, x.scales, x.resids = codes, scales, resids
	case !x.halfOnly:
		x.codes, x.scales = quantize(x.huge, vecs, dims)
	}
	x.shared = make([]uint64, (n+63)/64)
	for i := range more {
		x.shared[i>>6] |= 1 << (i & 63)
	}
	x.byVec = twinTable{}
	x.byVec.resize(x, n)
	for i := range n {
		k := x.keyOf(uint32(i))
		if _, ok := x.byVec.find(x, k.hash(), k); !ok {
			x.byVec.add(x, k.hash(), uint32(i))
		}
	}
	x.entry, x.maxLevel, x.live = entry, maxLevel, byID.len()
	x.tombs = 0
	for _, d := range dead {
		if d {
			x.tombs++
		}
	}
	if n == 0 {
		x.maxLevel = -1
	}
	return nil
}

// checkLists verifies count-prefixed neighbour lists of capacity c: counts in range, ids < n.
func checkLists(lists []uint32, c, n int) error {
	for off := 0; off < len(lists); off += c + 1 {
		cnt := int(lists[off])
		if cnt > c {
			return fmt.Errorf("neighbour list holds %d entries, capacity %d", cnt, c)
		}
		for _, nb := range lists[off+1 : off+1+cnt] {
			if int(nb) >= n {
				return fmt.Errorf("link to node %d of %d", nb, n)
			}
		}
	}
	return nil
}

func (x *Index) loadErr(cause error, msg string) error {
	if cause != nil && !errors.Is(cause, io.EOF) && !errors.Is(cause, io.ErrUnexpectedEOF) {
		return fmt.Errorf("load hnsw index: %s: %w", msg, cause)
	}
	return fmt.Errorf("load hnsw index: %s: %w", msg, apperr.ErrInvalid)
}

// SaveFile writes the index to path atomically: a temporary file in the same directory,
// synced, then renamed over the old one, so a crash leaves the old file or the new one.
func (x *Index) SaveFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("save hnsw index: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("save hnsw index: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	if err := x.Save(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("save hnsw index: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save hnsw index: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("save hnsw index: %w", err)
	}
	return nil
}

// LoadFile reads an index saved by SaveFile. A missing file is an error wrapping
// apperr.ErrNotFound, so a caller can start empty and build.
func (x *Index) LoadFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("load hnsw index %s: %w", path, apperr.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("load hnsw index: %w", err)
	}
	defer f.Close()
	if err := x.Load(f); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// encoder writes little-endian values and keeps the first error.
type encoder struct {
	w   io.Writer
	buf [1 << 16]byte
	err error
}

func (e *encoder) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *encoder) u32(v uint32) {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	e.bytes(b[:])
}

func (e *encoder) u64(v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	e.bytes(b[:])
}

// u32s and u16s copy through one reusable buffer.
func (e *encoder) u32s(vs []uint32) {
	for len(vs) > 0 && e.err == nil {
		n := min(len(vs), len(e.buf)/4)
		for i, v := range vs[:n] {
			binary.LittleEndian.PutUint32(e.buf[4*i:], v)
		}
		e.bytes(e.buf[:4*n])
		vs = vs[n:]
	}
}

// i8s writes codes as they are.
func (e *encoder) i8s(vs []int8) {
	for len(vs) > 0 && e.err == nil {
		n := min(len(vs), len(e.buf))
		for i, v := range vs[:n] {
			e.buf[i] = byte(v)
		}
		e.bytes(e.buf[:n])
		vs = vs[n:]
	}
}

// f32s writes each value's bits as a u32.
func (e *encoder) f32s(vs []float32) {
	for len(vs) > 0 && e.err == nil {
		n := min(len(vs), len(e.buf)/4)
		for i, v := range vs[:n] {
			binary.LittleEndian.PutUint32(e.buf[4*i:], math.Float32bits(v))
		}
		e.bytes(e.buf[:4*n])
		vs = vs[n:]
	}
}

func (e *encoder) u16s(vs []uint16) {
	for len(vs) > 0 && e.err == nil {
		n := min(len(vs), len(e.buf)/2)
		for i, v := range vs[:n] {
			binary.LittleEndian.PutUint16(e.buf[2*i:], v)
		}
		e.bytes(e.buf[:2*n])
		vs = vs[n:]
	}
}

// decoder reads little-endian values and keeps the first error; after one, reads return zeros.
type decoder struct {
	r    io.Reader
	huge *hugeSpans // the index's: u16s and u32s advise their slabs into huge pages
	buf  [1 << 16]byte
	err  error
}

func (d *decoder) bytes(n int) []byte {
	b := make([]byte, n)
	if d.err == nil {
		_, d.err = io.ReadFull(d.r, b)
	}
	return b
}

func (d *decoder) u32() uint32 { return binary.LittleEndian.Uint32(d.bytes(4)) }
func (d *decoder) u64() uint64 { return binary.LittleEndian.Uint64(d.bytes(8)) }

func (d *decoder) u32s(n int) []uint32 {
	out := make([]uint32, n)
	adviseHuge(d.huge, out) // before the first write: the pages fault in huge
	for i := 0; i < n && d.err == nil; {
		c := min(n-i, len(d.buf)/4)
		if _, d.err = io.ReadFull(d.r, d.buf[:4*c]); d.err != nil {
			break
		}
		for j := 0; j < c; j++ {
			out[i+j] = binary.LittleEndian.Uint32(d.buf[4*j:])
		}
		i += c
	}
	return out
}

func (d *decoder) u16s(n int) []uint16 {
	out := make([]uint16, n)
	adviseHuge(d.huge, out)
	for i := 0; i < n && d.err == nil; {
		c := min(n-i, len(d.buf)/2)
		if _, d.err = io.ReadFull(d.r, d.buf[:2*c]); d.err != nil {
			break
		}
		for j := 0; j < c; j++ {
			out[i+j] = binary.LittleEndian.Uint16(d.buf[2*j:])
		}
		i += c
	}
	return out
}

func (d *decoder) i8s(n int) []int8 {
	out := make([]int8, n)
	adviseHuge(d.huge, out)
	for i := 0; i < n && d.err == nil; {
		c := min(n-i, len(d.buf))
		if _, d.err = io.ReadFull(d.r, d.buf[:c]); d.err != nil {
			break
		}
		for j := 0; j < c; j++ {
			out[i+j] = int8(d.buf[j])
		}
		i += c
	}
	return out
}

func (d *decoder) f32s(n int) []float32 {
	out := make([]float32, n)
	for i := 0; i < n && d.err == nil; {
		c := min(n-i, len(d.buf)/4)
		if _, d.err = io.ReadFull(d.r, d.buf[:4*c]); d.err != nil {
			break
		}
		for j := 0; j < c; j++ {
			out[i+j] = math.Float32frombits(binary.LittleEndian.Uint32(d.buf[4*j:]))
		}
		i += c
	}
	return out
}
