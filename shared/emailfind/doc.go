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
package emailfind
