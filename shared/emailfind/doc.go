// Package emailfind finds a person's work address from first name, last name and domain.
//
// Candidates are built by package emailpattern from address patterns (templates such
// as "{first}.{last}" or "{f}{last}"), tried in this order: the caller's known_pattern,
// then the company's pattern learned from the addresses seen at its domain (a
// PatternSource: shared/patternbook, whose answer contact search and contact generation
// give too), then the common corporate patterns. A found address is recorded back there
// (ServiceDeps.Seen).
//
// A Finder verifies the candidates of one person over SMTP (package smtpverify) within
// the budget of its round (RoundVerify, RoundEscalate). A Service runs finds as jobs on
// the task engine: a batch of 1-500 requests is one task of kind email_find whose
// records are the jobs; see Service for storage and billing.
package emailfind
