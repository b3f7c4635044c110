package ossearch

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"sort"
	"testing"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/contactsearchtest"
)

// BenchmarkDocumentSize measures the contacts index's documents for the README's capacity
// model: every contact of the contract suite's world (891 contacts at 60 derived
// companies, signal text included) as PutContacts writes it, with a 384-dim vector of the
// built-in embedder. It reports the mean and 95th percentile of the _source JSON, the
// share of the vector's JSON in it, and the mean DEFLATE-compressed size (level 6, a
// stand-in for the index codec's stored-field compression). Run:
//
//	go test ./shared/contactsearch/ossearch -run '^$' -bench DocumentSize -benchtime 1x
func BenchmarkDocumentSize(b *testing.B) {
	ctx := context.Background()
	w := contactsearchtest.Demo(b)
	var raws []contact.Raw
	if err := w.Contacts.List(ctx, func(r contact.Raw) error { raws = append(raws, r); return nil }); err != nil {
		b.Fatal(err)
	}
	docs := make([]contactsearch.Indexed, len(raws))
	texts := make([]string, len(raws))
	for i, r := range raws {
		rec, err := w.Companies.Get(ctx, r.Domain)
		if err != nil {
			b.Fatal(err)
		}
		docs[i] = contactsearch.Prepare(r, contactsearch.CompanyFieldsOf(rec))
		texts[i] = docs[i].Text
	}
	vecs, err := w.Embedder.Embed(ctx, texts)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var sizes []int
	var vecBytes, packed int
	for range b.N {
		sizes, vecBytes, packed = sizes[:0], 0, 0
		for i := range docs {
			d := documentOf(docs[i], vecs[i])
			src, err := json.Marshal(d)
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, len(src))
			v, _ := json.Marshal(d.Vector)
			vecBytes += len(v)
			var buf bytes.Buffer
			zw, _ := flate.NewWriter(&buf, 6)
			zw.Write(src)
			zw.Close()
			packed += buf.Len()
		}
	}
	b.StopTimer()
	total := 0
	for _, s := range sizes {
		total += s
	}
	sort.Ints(sizes)
	n := float64(len(sizes))
	b.ReportMetric(float64(total)/n, "source-B/doc")
	b.ReportMetric(float64(sizes[len(sizes)*95/100]), "p95-source-B/doc")
	b.ReportMetric(float64(vecBytes)/n, "vector-json-B/doc")
	b.ReportMetric(float64(packed)/n, "deflated-B/doc")
	b.ReportMetric(n, "docs")
}
