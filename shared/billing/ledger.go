package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Entry is one ledger line: a charge, written once and never changed.
type Entry struct {
	Time      time.Time `json:"time"`
	Endpoint  string    `json:"endpoint"`
	Kind      Kind      `json:"kind"`
	Records   int       `json:"records"`
	NetNew    int       `json:"net_new"`
	Credits   int64     `json:"credits"`
	RequestID string    `json:"request_id"`
	ChargeID  string    `json:"charge_id"`
	Balance   int64     `json:"balance_after"`
}

// ledgerDoc is the stored ledger item. A charge of one kind stores its Entry as is; a
// charge of several kinds stores one item with the totals and Parts, so that the record
// of the one debit is one write too. Entries lists such an item as one Entry per kind.
type ledgerDoc struct {
	Entry
	Parts []partResult `json:"parts,omitempty"`
}

// entries lists the doc as Entry values, one per kind.
func (d ledgerDoc) entries() []Entry {
	if len(d.Parts) == 0 {
		return []Entry{d.Entry}
	}
	out := make([]Entry, len(d.Parts))
	for i, p := range d.Parts {
		e := d.Entry
		e.Kind, e.Records, e.NetNew, e.Credits = p.Kind, p.Records, p.NetNew, p.Credits
		out[i] = e
	}
	return out
}

// ledgerTime sorts lexically in time order: fixed-width UTC with nanoseconds.
const ledgerTime = "2006-01-02T15:04:05.000000000Z"

const dayLayout = "2006-01-02"

func ledgerPK(orgID string) string { return "ledger#" + orgID }

func (c *charge) ledgerKey(at time.Time) kv.Key {
	return kv.Key{PK: ledgerPK(c.org.ID), SK: at.UTC().Format(ledgerTime) + "#" + c.id}
}

// ledgerEntry reads the charge's ledger item, if written.
func (c *charge) ledgerEntry(ctx context.Context, at time.Time) (ledgerDoc, error) {
	it, err := c.s.store.Get(ctx, c.ledgerKey(at))
	if err != nil {
		return ledgerDoc{}, err
	}
	var d ledgerDoc
	if err := json.Unmarshal(it.Data, &d); err != nil {
		return ledgerDoc{}, fmt.Errorf("decode ledger entry %s: %w", it.Key, err)
	}
	return d, nil
}

func (c *charge) appendLedger(ctx context.Context, at time.Time, res Charge, parts []partResult) error {
	d := ledgerDoc{Entry: Entry{Time: at, Endpoint: c.endpoint, Kind: c.parts[0].Kind, Records: res.Records, NetNew: res.NetNew,
		Credits: res.Credits, RequestID: c.requestID, ChargeID: c.id, Balance: res.Balance}}
	if len(c.parts) > 1 {
		d.Kind, d.Parts = "", parts
	}
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	key := c.ledgerKey(at)
	// IfAbsent: a retry of the same charge finds its entry written and writes no other.
	if _, err := c.s.store.Put(ctx, key, b, kv.Cond{IfAbsent: true}); err != nil && !errors.Is(err, apperr.ErrConflict) {
		return fmt.Errorf("write ledger entry: %w", err)
	}
	return nil
}

// MaxUsageDays bounds the span of one usage report or ledger read.
const MaxUsageDays = 366

// Entries returns the ledger entries of the days from..to (UTC dates, inclusive) in
// time order.
func (s *Service) Entries(ctx context.Context, orgID string, from, to time.Time) ([]Entry, error) {
	days, err := dayRange(from, to)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, day := range days {
		opts := kv.QueryOptions{Prefix: day, Limit: 1000}
		for {
			page, err := s.store.Query(ctx, ledgerPK(orgID), opts)
			if err != nil {
				return nil, fmt.Errorf("read ledger of %s: %w", day, err)
			}
			for _, it := range page.Items {
				var d ledgerDoc
				if err := json.Unmarshal(it.Data, &d); err != nil {
					return nil, fmt.Errorf("decode ledger entry %s: %w", it.Key, err)
				}
				out = append(out, d.entries()...)
			}
			if page.Next == "" {
				break
			}
			opts.Cursor = page.Next
		}
	}
	return out, nil
}

func dayRange(from, to time.Time) ([]string, error) {
	from, to = truncDay(from), truncDay(to)
	if to.Before(from) {
		return nil, apperr.Invalid("to", "to (%s) is before from (%s)", to.Format(dayLayout), from.Format(dayLayout))
	}
	n := int(to.Sub(from)/(24*time.Hour)) + 1
	if n > MaxUsageDays {
		return nil, apperr.Invalid("from", "a usage report spans at most %d days; %s to %s is %d", MaxUsageDays, from.Format(dayLayout), to.Format(dayLayout), n)
	}
	days := make([]string, n)
	for i := range days {
		days[i] = from.AddDate(0, 0, i).Format(dayLayout)
	}
	return days, nil
}

func truncDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Totals are the sums over some ledger entries.
type Totals struct {
	Charges int   `json:"charges"`
	Records int   `json:"records"`
	NetNew  int   `json:"net_new"`
	Credits int64 `json:"credits"`
}

func (t *Totals) add(e Entry) {
	t.Charges++
	t.Records += e.Records
	t.NetNew += e.NetNew
	t.Credits += e.Credits
}

// DayUsage is the usage of one UTC day.
type DayUsage struct {
	Date string `json:"date"`
	Totals
}

// EndpointUsage is the usage of one endpoint and record kind.
type EndpointUsage struct {
	Endpoint string `json:"endpoint"`
	Kind     Kind   `json:"kind"`
	Totals
}

// Usage is a usage report over a range of days.
type Usage struct {
	From       string          `json:"from"`
	To         string          `json:"to"`
	Total      Totals          `json:"total"`
	ByDay      []DayUsage      `json:"by_day"`
	ByEndpoint []EndpointUsage `json:"by_endpoint"`
}

// Usage sums the ledger of the days from..to (UTC dates, inclusive): by day (every day
// of the range, zeros included) and by endpoint and kind (most credits first).
func (s *Service) Usage(ctx context.Context, orgID string, from, to time.Time) (Usage, error) {
	entries, err := s.Entries(ctx, orgID, from, to)
	if err != nil {
		return Usage{}, err
	}
	days, _ := dayRange(from, to)
	u := Usage{From: days[0], To: days[len(days)-1], ByDay: make([]DayUsage, len(days)), ByEndpoint: []EndpointUsage{}}
	index := map[string]int{}
	for i, d := range days {
		u.ByDay[i].Date = d
		index[d] = i
	}
	type epKey struct {
		endpoint string
		kind     Kind
	}
	byEP := map[epKey]*EndpointUsage{}
	for _, e := range entries {
		u.Total.add(e)
		u.ByDay[index[e.Time.UTC().Format(dayLayout)]].add(e)
		k := epKey{e.Endpoint, e.Kind}
		if byEP[k] == nil {
			byEP[k] = &EndpointUsage{Endpoint: e.Endpoint, Kind: e.Kind}
		}
		byEP[k].add(e)
	}
	for _, v := range byEP {
		u.ByEndpoint = append(u.ByEndpoint, *v)
	}
	sort.Slice(u.ByEndpoint, func(i, j int) bool {
		a, b := u.ByEndpoint[i], u.ByEndpoint[j]
		if a.Credits != b.Credits {
			return a.Credits > b.Credits
		}
		if a.Endpoint != b.Endpoint {
			return a.Endpoint < b.Endpoint
		}
		return a.Kind < b.Kind
	})
	return u, nil
}
