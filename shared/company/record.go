package company

import (
	"slices"
	"time"

	"github.com/firmoapi/firmo/shared/score"
)

// Record is everything Firmo keeps about one company under its registrable domain: the
// raw company row as ingested, and what the pipeline derived from it and from the
// company's certificates and pages.
type Record struct {
	Domain  string  `json:"domain"`
	Raw     Raw     `json:"raw"`
	Profile Profile `json:"profile"`
	Score   Scored  `json:"score"`
	Derived Derived `json:"derived"`
	Version int64   `json:"-"` // the store's version, for optimistic updates; 0 = new
}

// Raw is the company row of `firmo ingest companies` (and of the demo world), kept as
// given apart from trimming. Every field is optional except the domain of the record.
type Raw struct {
	Name           string   `json:"name,omitempty"`
	AlternateNames []string `json:"alternate_names,omitempty"`
	Street         string   `json:"street,omitempty"`
	City           string   `json:"city,omitempty"`
	State          string   `json:"state,omitempty"`
	Zip            string   `json:"zip,omitempty"`
	Country        string   `json:"country,omitempty"`
	Phone          string   `json:"phone,omitempty"`
	Description    string   `json:"description,omitempty"`
	Employees      string   `json:"employees,omitempty"`
	RevenueRange   string   `json:"revenue_range,omitempty"`
	Industry       string   `json:"industry,omitempty"`
}

// Equal reports whether two raw rows are the same.
func (r Raw) Equal(o Raw) bool {
	return r.Name == o.Name && slices.Equal(r.AlternateNames, o.AlternateNames) &&
		r.Street == o.Street && r.City == o.City && r.State == o.State && r.Zip == o.Zip &&
		r.Country == o.Country && r.Phone == o.Phone && r.Description == o.Description &&
		r.Employees == o.Employees && r.RevenueRange == o.RevenueRange && r.Industry == o.Industry
}

// Scored is the score of a company on one date, with what is needed to recompute it.
type Scored struct {
	On         string           `json:"on"`          // scoring date, YYYY-MM-DD
	Score      uint             `json:"value"`       // 0-800
	FirstEvent string           `json:"first_event"` // YYYY-MM-DD, "" without certificates
	Parameters score.Parameters `json:"parameters"`
}

// Derived holds the pipeline's bookkeeping and the derived values that are not profile
// fields (kept for the append datasets and contact search).
type Derived struct {
	PipelineVersion int       `json:"pipeline_version"`
	At              time.Time `json:"at"`           // when the profile was last derived
	CertsAt         time.Time `json:"certs_at"`     // when status, dates and score were last computed
	Certificates    int       `json:"certificates"` // how many certificates the last derivation read
	Vendors         []string  `json:"vendors,omitempty"`
	Subdomains      []string  `json:"subdomains,omitempty"`
	// Fetch is the latest fetch of the homepage (the append dataset domain_status);
	// nil without a homepage, and on records derived before pipeline version 2.
	Fetch *FetchStatus `json:"fetch,omitempty"`
	// Dirty is set when raw input changed after the last derivation (a derivation that
	// failed half-way leaves it set, so the reprocessing job retries it).
	Dirty bool `json:"dirty,omitempty"`
}
