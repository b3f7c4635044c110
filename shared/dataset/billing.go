package dataset

import "github.com/firmoapi/firmo/shared/billing"

// Items are what a result bills, for billing.ChargeAll (one charge per request, whole
// or not at all): bizdata rows as company records (billing.KindCompany, billed once
// per organisation and domain within the dedupe window, so only net-new domains
// cost), and one billing.KindAppendRow record per row and other dataset that returned
// data ("vendors:acme.com"), with no cache. Rows without data are free.
func (b Billing) Items() []billing.Items {
	var out []billing.Items
	if len(b.Bizdata) > 0 {
		out = append(out, billing.Items{Kind: billing.KindCompany, Records: b.Bizdata})
	}
	var rows []string
	for _, n := range All {
		for _, d := range b.Rows[n] {
			rows = append(rows, string(n)+":"+d)
		}
	}
	if len(rows) > 0 {
		out = append(out, billing.Items{Kind: billing.KindAppendRow, Records: rows})
	}
	return out
}
