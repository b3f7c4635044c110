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

// Price is the credits n records of the kind cost on the plan, rounded up to a whole
// credit per charge.
func Price(p account.Plan, k Kind, n int) int64 {
	if n <= 0 {
		return 0
	}
	return (int64(n)*Rate(p, k) + 999) / 1000
}

func checkKind(k Kind) error {
	if _, ok := Rates[k]; !ok {
		return fmt.Errorf("billing kind %q: %w", k, apperr.ErrInvalid)
	}
	return nil
}
