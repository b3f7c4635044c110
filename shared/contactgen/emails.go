package contactgen

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/task"
)

// statusError is email_status when the finder could not run.
const statusError = "error"

// findEmails runs every row with a usable name and no email through the email finder
// (side by side, each within the finder's verify budget) and bills the addresses it
// found under the finder's rules. Rows that had an email, or whose name has no first
// and last part, are left without email_status.
func (s *Service) findEmails(ctx context.Context, rec task.Record, dom string, rows []Row, res *task.Result) error {
	var todo []int
	for i, r := range rows {
		if r.Email == nil {
			if _, _, ok := splitName(r.Name); ok {
				todo = append(todo, i)
			}
		}
	}
	if len(todo) == 0 {
		return nil
	}
	var finder EmailFinder
	if s.d.Finder != nil {
		finder = s.d.Finder()
	}
	if finder == nil {
		for _, i := range todo {
			rows[i].EmailStatus = statusError
		}
		res.Warnings = append(res.Warnings, warnFinder)
		return nil
	}
	var wg sync.WaitGroup
	for _, i := range todo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first, last, _ := splitName(rows[i].Name)
			status, email := finder.FindEmail(ctx, first, last, dom)
			rows[i].EmailStatus = status
			if email != "" {
				rows[i].Email = &email
			}
		}()
	}
	wg.Wait()
	var found []string
	for _, i := range todo {
		if rows[i].Email != nil {
			found = append(found, *rows[i].Email)
		}
	}
	if len(found) == 0 || s.d.Billing == nil || s.d.Orgs == nil {
		return nil
	}
	org, err := s.d.Orgs.GetOrg(ctx, rec.OrgID)
	if err != nil {
		return fmt.Errorf("organisation of %s: %w", rec.Ref, err)
	}
	if err := s.d.Billing.Accrue(ctx, org, billing.KindEmail, rec.TaskID, found...); err != nil {
		return fmt.Errorf("charge found emails of %s: %w", dom, err)
	}
	return nil
}

// splitName splits a full name into the first word and the rest ("Anna de Jong" is
// Anna and de Jong); false when there is no last part.
func splitName(name string) (first, last string, ok bool) {
	f := strings.Fields(name)
	if len(f) < 2 {
		return "", "", false
	}
	return f[0], strings.Join(f[1:], " "), true
}
