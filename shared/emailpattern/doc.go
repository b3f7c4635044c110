// Package emailpattern is the address logic of email finding, without any network:
// local-part templates ("{first}.{last}", "{f}{last}", CommonTemplates), names folded to
// ASCII (é -> e, ü -> u, ß -> ss, ø -> o) and multi-part names spelt several ways
// ("Mary-Jane" as maryjane, mary and mary-jane; "van der Berg" as vanderberg, berg and
// van-der-berg; "García Márquez" as garciamarquez, garcia and marquez), the candidate
// addresses of a person in tiers (Candidates), and a company's pattern inferred from
// its contacts' known addresses (InferPattern, Learner). shared/emailfind verifies the
// candidates over SMTP; contact search reports the inferred pattern as email_pattern.
package emailpattern
