package billing

import (
	"fmt"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
)

// Kind is what a charge counts.
type Kind string

// The record kinds. Dedupe kinds are billed once per organisation and record per
// DedupeWindow; the others bill every record every time.
const (
	// KindContact: contact records surfaced by contact search (key: persona id).
	KindContact Kind = "contact"
	// KindCompany: company records surfaced by contact search, and bizdata rows of
	// append, which deliver the same company profile (key: domain).
	KindCompany Kind = "company"
	// KindEmail: found emails of the email finder (key: the address).
	KindEmail Kind = "email"
	// KindAppendRow: one row of a non-bizdata append dataset that returned data; no cache.
	KindAppendRow Kind = "append_row"
)

// Rates are the credits per 1,000 records, by kind and plan: the one rate table.
// README.md ("Credits and billing") shows the same table; a test keeps them equal.
var Rates = map[Kind]map[account.Plan]int64{
	KindContact:   {account.PlanFree: 1000, account.PlanStarter: 800, account.PlanPro: 600, account.PlanEnterprise: 400},
	KindCompany:   {account.PlanFree: 500, account.PlanStarter: 400, account.PlanPro: 300, account.PlanEnterprise: 200},
	KindEmail:     {account.PlanFree: 2000, account.PlanStarter: 1500, account.PlanPro: 1000, account.PlanEnterprise: 750},
	KindAppendRow: {account.PlanFree: 250, account.PlanStarter: 200, account.PlanPro: 150, account.PlanEnterprise: 100},
}

// Kinds lists the kinds in the order of the rate table.
var Kinds = []Kind{KindContact, KindCompany, KindEmail, KindAppendRow}

// Dedupe reports whether records of the kind are billed once per DedupeWindow.
func (k Kind) Dedupe() bool { return k != KindAppendRow }

// Rate is the credits per 1,000 records of the kind on the plan; an unknown plan pays
// the FREE rate.
func Rate(p account.Plan, k Kind) int64 {
	rates := Rates[k]
	if r, ok := rates[p]; ok {
		return r
	}
	return rates[account.PlanFree]
}

// Price is the credits n records of the kind cost on the plan, rounded up once to a
// whole credit: the price of one request (a request of several kinds rounds their sum
// once), and of one task's records altogether (Accrue).
func Price(p account.Plan, k Kind, n int) int64 {
	if n <= 0 {
		return 0
	}
	return (int64(n)*Rate(p, k) + 999) / 1000
}

// priceParts prices the kinds of one request's charge, rounding once: the request
// costs its exact millicredits (net-new records times each kind's rate per 1,000)
// rounded up to a whole credit, shared out among the kinds by whole credits and then
// largest remainder, so the kinds' credits add up to the request's.
func priceParts(p account.Plan, parts []partResult) {
	var total int64
	milli := make([]int64, len(parts))
	for i, pr := range parts {
		milli[i] = int64(max(pr.NetNew, 0)) * Rate(p, pr.Kind)
		total += milli[i]
		parts[i].Credits = milli[i] / 1000
	}
	left := ceilDiv(total, 1000)
	for _, pr := range parts {
		left -= pr.Credits
	}
	for ; left > 0; left-- {
		best := -1
		for i := range parts {
			if rem := milli[i] - parts[i].Credits*1000; rem > 0 && (best < 0 || rem > milli[best]-parts[best].Credits*1000) {
				best = i
			}
		}
		parts[best].Credits++
	}
}

func checkKind(k Kind) error {
	if _, ok := Rates[k]; !ok {
		return fmt.Errorf("billing kind %q: %w", k, apperr.ErrInvalid)
	}
	return nil
}
