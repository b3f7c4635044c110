// Package emailfind finds a person's work address from first name, last name and domain.
//
// Candidates are built from address patterns (templates such as "{first}.{last}" or
// "{f}{last}", see CommonTemplates), tried in this order: the caller's known_pattern,
// then the company's pattern inferred from its contacts' known addresses (InferPattern,
// also used by contact search and generation), then the common corporate patterns.
// Names are folded to ASCII (é -> e, ü -> u, ß -> ss, ø -> o) and multi-part names are
// spelt several ways: "Mary-Jane" as maryjane, mary and mary-jane; "van der Berg" as
// vanderberg, berg and van-der-berg; "García Márquez" as garciamarquez, garcia and
// marquez.
//
// A Finder verifies the candidates of one person over SMTP (package smtpverify) within
// the budget of its round (RoundVerify, RoundEscalate). A Service runs finds as jobs on
// the task engine: a batch of 1-500 requests is one task of kind email_find whose
// records are the jobs; see Service for storage and billing.
package emailfind
