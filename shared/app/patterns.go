package app

import (
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/patternbook"
)

// Patterns is the core's email pattern book (shared/patternbook), built on first use:
// contact search's email_pattern, contact generation's pattern fields and the email
// finder's company tier all answer from it, so within a process they never disagree
// (and across processes they learn from the same store).
func Patterns(c *Core) *patternbook.Book {
	b, _ := Shared(c, "app.Patterns", func() (*patternbook.Book, error) {
		return patternbook.New(patternbook.Deps{Contacts: contact.NewStore(c.Store), Store: c.Store, Log: c.Log}), nil
	})
	return b
}
