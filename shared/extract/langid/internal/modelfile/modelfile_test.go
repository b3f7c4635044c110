package modelfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func sample() *Model {
	return &Model{
		Languages: []string{"eng", "deu"},
		Ngrams:    []string{"a", "ab", "abc", "abd", "ß", "ßen"},
		Prob: []float64{
			0.5, 0.25, // a
			0.125, 0, // ab: English only
			1, 0.3, // abc
			0.3, 0.3, // abd: a probability shared within and across languages
			0, 0.001, // ß: German only
			0, 1.0 / 3, // ßen
		},
	}
}

func TestRoundTrip(t *testing.T) {
	want := sample()
	data, err := Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decode(Encode(m)) = %+v, want %+v", got, want)
	}
	again, _ := Encode(want)
	if string(again) != string(data) {
		t.Error("encoding the same model twice gave different bytes")
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Model)
		want   string
	}{
		{"unsorted", func(m *Model) { m.Ngrams[0], m.Ngrams[1] = m.Ngrams[1], m.Ngrams[0] }, "not sorted"},
		{"duplicate", func(m *Model) { m.Ngrams[1] = "a" }, "not sorted"},
		{"too long", func(m *Model) { m.Ngrams[5] = "ßenx" }, "1 to 3 runes"},
		{"empty n-gram", func(m *Model) { m.Ngrams[0] = "" }, "1 to 3 runes"},
		{"probability above 1", func(m *Model) { m.Prob[0] = 1.5 }, "outside (0, 1]"},
		{"negative probability", func(m *Model) { m.Prob[0] = -0.5 }, "outside (0, 1]"},
		{"short matrix", func(m *Model) { m.Prob = m.Prob[1:] }, "probabilities for"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := sample()
			tt.change(m)
			if _, err := Encode(m); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Encode error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// TestDecodeDamaged cuts and flips the bytes of a valid file: every cut must give
// ErrCorrupt, and no flip may panic.
func TestDecodeDamaged(t *testing.T) {
	data, err := Encode(sample())
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := Decode(data[:n]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("Decode of the first %d bytes: error %v, want ErrCorrupt", n, err)
		}
	}
	if _, err := Decode(append(data, 0)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Decode with a trailing byte: error %v, want ErrCorrupt", err)
	}
	for i := range data {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			damaged := append([]byte(nil), data...)
			damaged[i] ^= mask
			Decode(damaged) // must not panic; some flips still decode
		}
	}
}
