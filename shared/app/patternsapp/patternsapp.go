// Package patternsapp gives a core its email pattern book (shared/patternbook). It is
// its own package, not part of shared/app, because the book reads the contact store
// (shared/contact, which links phone-number metadata and the title classifier): only
// the functions that answer email patterns link it (TestFunctionsLinkOnlyTheirFamily in
// shared/app guards that).
package patternsapp

import (
	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/patternbook"
)

// Book is the core's email pattern book, built on first use: contact search's
// email_pattern, contact generation's pattern fields and the email finder's company
// tier all answer from it, so within a process they never disagree (and across
// processes they learn from the same store). With an OpenSearch cluster configured, and
// on AWS whatever the function's own settings (contact search there runs on OpenSearch
// or not at all; the email and generation functions are not given the cluster), an
// address it records also marks its domain for the scheduled pass to publish (contact
// search on OpenSearch answers from published patterns: shared/patternstore).
func Book(c *app.Core) *patternbook.Book {
	b, _ := app.Shared(c, "patternsapp.Book", func() (*patternbook.Book, error) {
		return patternbook.New(patternbook.Deps{Contacts: contact.NewStore(c.Store), Store: c.Store, Log: c.Log,
			MarkDirty: c.Config.OpenSearch.Enabled() || c.Config.Backend != config.BackendLocal}), nil
	})
	return b
}
