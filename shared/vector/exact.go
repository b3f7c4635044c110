package vector

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"sync"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Exact is the brute-force index: every search scans every stored vector (or every candidate
// of the filter). It is the reference the approximate indexes are measured against, and the
// fallback they use for small candidate sets.
type Exact struct {
	dims int

	mu   sync.RWMutex
	ids  []int64
	vecs []float32 // len(ids) * dims, row i belongs to ids[i]
	pos  map[int64]int
}

var (
	_ Index      = (*Exact)(nil)
	_ Persistent = (*Exact)(nil)
)

// NewExact returns an empty exact index of the given dimension.
func NewExact(dims int) *Exact {
	return &Exact{dims: dims, pos: map[int64]int{}}
}

// Dims implements Index.
func (e *Exact) Dims() int { return e.dims }

// Upsert implements Index.
func (e *Exact) Upsert(_ context.Context, id int64, vec []float32) error {
	v, err := Check(vec, e.dims)
	if err != nil {
		return fmt.Errorf("upsert %d: %w", id, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if p, ok := e.pos[id]; ok {
		copy(e.vecs[p*e.dims:(p+1)*e.dims], v)
		return nil
	}
	e.pos[id] = len(e.ids)
	e.ids = append(e.ids, id)
	e.vecs = append(e.vecs, v...)
	return nil
}

// Delete implements Index: the last row moves into the hole so rows stay dense.
func (e *Exact) Delete(_ context.Context, id int64) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	p, ok := e.pos[id]
	if !ok {
		return nil
	}
	last := len(e.ids) - 1
	if p != last {
		e.ids[p] = e.ids[last]
		copy(e.vecs[p*e.dims:(p+1)*e.dims], e.vecs[last*e.dims:])
		e.pos[e.ids[p]] = p
	}
	e.ids = e.ids[:last]
	e.vecs = e.vecs[:last*e.dims]
	delete(e.pos, id)
	return nil
}

// Len implements Index.
func (e *Exact) Len(context.Context) (int, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return len(e.ids), nil
}

// Search implements Index by scanning the candidates.
func (e *Exact) Search(ctx context.Context, query []float32, k int, f Filter) ([]Hit, error) {
	if err := CheckK(k); err != nil {
		return nil, err
	}
	q, err := Check(query, e.dims)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	top := NewTopK(k)
	d := e.dims
	if f.IDs != nil {
		seen := make(map[int64]struct{}, len(f.IDs)) // a list may name an id twice
		for i, id := range f.IDs {
			if i&4095 == 4095 && ctx.Err() != nil {
				return nil, errCanceled(ctx, "exact search")
			}
			p, ok := e.pos[id]
			if _, dup := seen[id]; !ok || dup || (f.Allow != nil && !f.Allow(id)) {
				continue
			}
			seen[id] = struct{}{}
			top.Push(Hit{ID: id, Score: Dot(q, e.vecs[p*d:(p+1)*d])})
		}
		return top.Sorted(), nil
	}
	for p, id := range e.ids {
		if p&65535 == 65535 && ctx.Err() != nil {
			return nil, errCanceled(ctx, "exact search")
		}
		if f.Allow != nil && !f.Allow(id) {
			continue
		}
		top.Push(Hit{ID: id, Score: Dot(q, e.vecs[p*d:(p+1)*d])})
	}
	return top.Sorted(), nil
}

const exactMagic = "FIRMOVEC"

// exactVersion is bumped whenever the file layout changes.
const exactVersion = 1

// Save implements Persistent: magic, version, dims, count, then id and vector rows, then a
// CRC-32 of everything before it.
func (e *Exact) Save(w io.Writer) error {
	e.mu.RLock()
	defer e.mu.RUnlock()
	bw := bufio.NewWriterSize(w, 1<<16)
	crc := crc32.NewIEEE()
	out := io.MultiWriter(bw, crc)
	hdr := make([]byte, 0, 32)
	hdr = append(hdr, exactMagic...)
	hdr = binary.LittleEndian.AppendUint32(hdr, exactVersion)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(e.dims))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(e.ids)))
	if _, err := out.Write(hdr); err != nil {
		return fmt.Errorf("save exact index: %w", err)
	}
	row := make([]byte, 8+4*e.dims)
	for p, id := range e.ids {
		binary.LittleEndian.PutUint64(row, uint64(id))
		for j, v := range e.vecs[p*e.dims : (p+1)*e.dims] {
			binary.LittleEndian.PutUint32(row[8+4*j:], math.Float32bits(v))
		}
		if _, err := out.Write(row); err != nil {
			return fmt.Errorf("save exact index: %w", err)
		}
	}
	if err := binary.Write(bw, binary.LittleEndian, crc.Sum32()); err != nil {
		return fmt.Errorf("save exact index: %w", err)
	}
	return bw.Flush()
}

// Load implements Persistent.
func (e *Exact) Load(r io.Reader) error {
	br := bufio.NewReaderSize(r, 1<<16)
	crc := crc32.NewIEEE()
	in := io.TeeReader(br, crc)
	hdr := make([]byte, len(exactMagic)+16)
	if _, err := io.ReadFull(in, hdr); err != nil {
		return fmt.Errorf("load exact index: %w", err)
	}
	if string(hdr[:len(exactMagic)]) != exactMagic {
		return fmt.Errorf("load exact index: not an exact index file: %w", apperr.ErrInvalid)
	}
	b := hdr[len(exactMagic):]
	if v := binary.LittleEndian.Uint32(b); v != exactVersion {
		return fmt.Errorf("load exact index: file version %d, this build reads %d: %w", v, exactVersion, apperr.ErrInvalid)
	}
	dims := int(binary.LittleEndian.Uint32(b[4:]))
	n := binary.LittleEndian.Uint64(b[8:])
	if dims != e.dims {
		return fmt.Errorf("load exact index: file has %d dimensions, index %d: %w", dims, e.dims, apperr.ErrInvalid)
	}
	if n > 1<<34/uint64(4*dims+8) {
		return fmt.Errorf("load exact index: implausible count %d: %w", n, apperr.ErrInvalid)
	}
	ids := make([]int64, 0, n)
	vecs := make([]float32, 0, int(n)*dims)
	pos := make(map[int64]int, n)
	row := make([]byte, 8+4*dims)
	for i := uint64(0); i < n; i++ {
		if _, err := io.ReadFull(in, row); err != nil {
			return fmt.Errorf("load exact index: row %d: %w", i, err)
		}
		id := int64(binary.LittleEndian.Uint64(row))
		pos[id] = len(ids)
		ids = append(ids, id)
		for j := 0; j < dims; j++ {
			vecs = append(vecs, math.Float32frombits(binary.LittleEndian.Uint32(row[8+4*j:])))
		}
	}
	want := crc.Sum32()
	var got uint32
	if err := binary.Read(br, binary.LittleEndian, &got); err != nil {
		return fmt.Errorf("load exact index: checksum: %w", err)
	}
	if got != want {
		return fmt.Errorf("load exact index: checksum mismatch (file damaged): %w", apperr.ErrInvalid)
	}
	e.mu.Lock()
	e.ids, e.vecs, e.pos = ids, vecs, pos
	e.mu.Unlock()
	return nil
}
